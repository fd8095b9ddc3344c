import APIScript
import Foundation
import Synchronization
import TypistCore
import TypistText

/// `:lesson`, `:next`, `:back`: a guided walk through a lesson at the prompt. The walk follows the
/// prompt's inputs and says when one completed the current step.
package final class LessonWalk: InputObserver {
    /// Where the walk is: a lesson and one of its steps.
    struct LessonPosition: Sendable {
        var lesson: Int
        var step: Int
        var done: Bool
    }

    private struct State {
        var loaded: [Lesson]?
        var position: LessonPosition?
        /// A lesson run by itself (`lesson N --run`), whose files `:compile` names.
        var running: Lesson?
    }

    /// Where the host's lessons are: read the first time a lesson command needs them, not at
    /// start-up (reading five lessons took a tenth of `typist run`'s start).
    let folder: URL?
    private let state = Mutex(State())

    package init(folder: URL?) {
        self.folder = folder
    }

    /// The walk a shell's prompt follows, if it has one.
    package static func of(_ shell: Shell) -> LessonWalk? {
        shell.inputObservers.firstNonNil { $0 as? LessonWalk }
    }

    /// The host's lessons; a folder that cannot be read is said once, on `shell`'s error output.
    package func lessons(_ shell: Shell) -> [Lesson] {
        if let loaded = state.withLock({ $0.loaded }) { return loaded }
        guard let folder else { return [] }
        let loaded: [Lesson]
        do {
            loaded = try Lesson.load(from: folder)
        } catch {
            shell.output.error("cannot read the lessons in \(folder.path): \(error)\n")
            loaded = []
        }
        state.withLock { $0.loaded = loaded }
        return loaded
    }

    /// Uses these lessons instead of the folder's (tests).
    package func use(_ lessons: [Lesson]) { state.withLock { $0.loaded = lessons } }

    private var lessonPosition: LessonPosition? {
        get { state.withLock { $0.position } }
        set { state.withLock { $0.position = newValue } }
    }

    /// While a lesson runs by itself (`lesson N --run`), the lesson `:compile` takes files from.
    package func running(_ lesson: Lesson?) { state.withLock { $0.running = lesson } }

    /// The lesson being run or walked (also past its last step), if any.
    func currentLesson(_ shell: Shell) -> Lesson? {
        if let running = state.withLock({ $0.running }) { return running }
        guard let position = lessonPosition else { return nil }
        let lessons = lessons(shell)
        return lessons.indices.contains(position.lesson) ? lessons[position.lesson] : nil
    }

    /// The prompt's commands for the walk.
    package var commands: [MetaCommand] {
        [
            MetaCommand("lesson", usage: ":lesson [N]", "list the lessons, or start lesson N's guided walk", argument: .text,
                        isObserved: false) { shell, text in self.lessonCommand(text, shell) },
            MetaCommand("next", usage: ":next", "the lesson's next step", isObserved: false) { shell, _ in self.moveInLesson(by: 1, shell) },
            MetaCommand("back", usage: ":back", "the lesson's previous step", isObserved: false) { shell, _ in self.moveInLesson(by: -1, shell) },
            compileCommand,
        ]
    }

    package func collectsErrors(shell: Shell) -> Bool { lessonStepAwaitsRefusal(shell) }

    package func inputEnded(_ input: String, succeeded: Bool, errors: String, shell: Shell) async {
        await checkLessonStep(after: input, succeeded: succeeded, errors: errors, shell)
    }

    /// `:lesson` lists the lessons; `:lesson N` starts one. `starting` spells how a lesson is started
    /// where the list is shown: `:lesson 0` at the prompt, `typist lesson 0` from a shell.
    package func lessonCommand(_ argument: String, _ shell: Shell, starting: (Int) -> String = { ":lesson \($0)" }) -> Bool {
        let lessons = lessons(shell)
        guard !lessons.isEmpty else {
            shell.fail("this shell has no lessons")
            return false
        }
        guard !argument.isEmpty else {
            let spelled = lessons.map { starting($0.number) }
            let width = spelled.map(\.count).max() ?? 0
            let indent = String(repeating: " ", count: width + 4)
            shell.writeOwnText(zip(lessons, spelled).map { lesson, spelling in
                "  " + spelling.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + lesson.title
                    + (lesson.reading.map { "\n\(indent)follows \($0)" } ?? "")
            }.joined(separator: "\n"))
            return true
        }
        guard let number = Int(argument), let index = lessons.firstIndex(where: { $0.number == number }) else {
            shell.fail("no lesson '\(argument)'; there are " + lessons.map { String($0.number) }.joined(separator: ", "))
            return false
        }
        lessonPosition = LessonPosition(lesson: index, step: 0, done: false)
        let lesson = lessons[index]
        shell.writeOwnText(TerminalStyle(enabled: shell.colors).bold(lesson.title) + (lesson.reading.map { "\nFollows \($0)." } ?? "")
                     + lesson.quotes.map { "\n  “\($0)”" }.joined()
                     + (lesson.introduction.isEmpty ? "" : "\n\n" + lesson.introduction) + "\n")
        showStep(shell)
        return true
    }

    /// `:next` and `:back`.
    func moveInLesson(by offset: Int, _ shell: Shell) -> Bool {
        let lessons = lessons(shell)
        guard var position = lessonPosition else {
            shell.fail("no lesson is running; start one with :lesson N")
            return false
        }
        let lesson = lessons[position.lesson]
        let count = lesson.steps.count
        guard offset < 0 || position.step < count else {
            shell.write("\(lesson.title) has ended: :back shows its last step, :lesson starts another")
            return true
        }
        let target = position.step + offset
        guard target >= 0 else {
            shell.fail("this is the first step")
            return false
        }
        guard target < count else {
            // Past the last step: :back comes back to it. The exercises are started where the
            // student works, not read from the checkout.
            shell.write("That was the last step of \(lesson.title). The exercises: typist lesson \(lesson.number) --start ~/lesson-\(lesson.number), "
                        + "then typist lesson \(lesson.number) --check ~/lesson-\(lesson.number)")
            lessonPosition = LessonPosition(lesson: position.lesson, step: count, done: true)
            return true
        }
        position.step = target
        position.done = false
        lessonPosition = position
        showStep(shell)
        return true
    }

    private func showStep(_ shell: Shell) {
        guard let position = lessonPosition else { return }
        let lessons = lessons(shell)
        let lesson = lessons[position.lesson]
        let step = lesson.steps[position.step]
        let style = TerminalStyle(enabled: shell.colors)
        var text = style.bold("Step \(position.step + 1) of \(lesson.steps.count): \(step.title)")
        if !step.text.isEmpty { text += "\n" + step.text }
        if let input = step.input { text += "\n\n  " + style.dim("type: ") + input.replacingOccurrences(of: "\n", with: "\n        ") }
        shell.writeOwnText(text)
    }

    /// Whether the current lesson step's line is meant to fail (and so the errors an input writes matter).
    func lessonStepAwaitsRefusal(_ shell: Shell) -> Bool {
        guard let position = lessonPosition, !position.done else { return false }
        let lessons = lessons(shell)
        return lessons[position.lesson].steps[position.step].refused != nil
    }

    /// After an input at the prompt: whether it completed the current step — its check holds (or,
    /// without one, it was the step's line), or, for a step meant to fail, it was refused for the
    /// step's reason — said once; an attempt at the step that does not pass says what the step
    /// looks for, without the answer.
    func checkLessonStep(after input: String, succeeded: Bool, errors: String, _ shell: Shell) async {
        guard var position = lessonPosition, !position.done else { return }
        let lessons = lessons(shell)
        let step = lessons[position.lesson].steps[position.step]
        let style = TerminalStyle(enabled: shell.colors)
        let last = position.step + 1 == lessons[position.lesson].steps.count
        let next = last ? ":next ends the lesson" : ":next for the next step"
        let done: Bool
        if let refused = step.refused {
            done = !succeeded && errors.contains(refused)
            if !done, Self.isAttempt(input, at: step) {
                shell.write(style.dim(succeeded
                    ? "✗ not yet: this step's line is meant to be refused, and it ran; look at what the step says to type"
                    : "✗ not yet: refused, but not for this step's reason; look at what the step says to type"))
            }
        } else {
            guard succeeded else { return }
            done = await Self.stepHolds(step, after: input, shell)
            if !done, step.check != nil, Self.isAttempt(input, at: step) {
                shell.write(style.dim("✗ not yet: " + (step.expected.map { "this step looks for \($0)" } ?? "this is not what the step's check looks for")
                    + "; try again, or :next to move on"))
            }
        }
        guard done else { return }
        position.done = true
        lessonPosition = position
        shell.write(style.dim((step.refused != nil ? "✓ step done, refused as it should be — " : "✓ step done — ") + next))
    }

    /// Whether `input` is an attempt at `step`: it starts with the same name (a function, a
    /// command) as the step's line.
    static func isAttempt(_ input: String, at step: Lesson.Step) -> Bool {
        guard let line = step.input else { return false }
        func head(_ text: String) -> Substring {
            let trimmed = text.drop { $0 == " " }
            return trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        }
        let expected = head(line)
        return !expected.isEmpty && head(input) == expected
    }

    /// Whether a step's check holds now, evaluated without output or any effect on the session.
    static func stepHolds(_ step: Lesson.Step, after input: String, _ shell: Shell) async -> Bool {
        guard let check = step.check else {
            let squeeze = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            return step.input.map { squeeze($0) == squeeze(input) } ?? false
        }
        return await shell.holdsQuietly(check)
    }
}
