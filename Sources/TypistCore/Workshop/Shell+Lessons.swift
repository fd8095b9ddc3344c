import APIScript
import Foundation
import Synchronization

/// `:lesson`, `:next`, `:back`: a guided walk through a lesson at the prompt, and the same walk
/// run by itself for a projector or a handout.
extension Shell {
    /// Where the walk is: a lesson and one of its steps.
    struct LessonPosition: Sendable {
        var lesson: Int
        var step: Int
        var done: Bool
    }

    /// `:lesson` lists the lessons; `:lesson N` starts one.
    package func lessonCommand(_ argument: String) -> Bool {
        guard !lessons.isEmpty else {
            fail("this shell has no lessons")
            return false
        }
        guard !argument.isEmpty else {
            writeOwnText(lessons.map { lesson in
                "  :lesson \(lesson.number)  \(lesson.title)" + (lesson.reading.map { "\n             follows \($0)" } ?? "")
            }.joined(separator: "\n"))
            return true
        }
        guard let number = Int(argument), let index = lessons.firstIndex(where: { $0.number == number }) else {
            fail("no lesson '\(argument)'; there are " + lessons.map { String($0.number) }.joined(separator: ", "))
            return false
        }
        lessonPosition = LessonPosition(lesson: index, step: 0, done: false)
        let lesson = lessons[index]
        writeOwnText(TerminalStyle(enabled: colors).bold(lesson.title) + (lesson.reading.map { "\nFollows \($0)." } ?? "")
                     + (lesson.introduction.isEmpty ? "" : "\n\n" + lesson.introduction) + "\n")
        showStep()
        return true
    }

    /// `:next` and `:back`.
    func moveInLesson(by offset: Int) -> Bool {
        guard var position = lessonPosition else {
            fail("no lesson is running; start one with :lesson N")
            return false
        }
        let count = lessons[position.lesson].steps.count
        let target = position.step + offset
        guard target >= 0 else {
            fail("this is the first step")
            return false
        }
        guard target < count else {
            write("That was the last step of \(lessons[position.lesson].title). Exercises: \(lessons[position.lesson].directory.path)")
            lessonPosition = nil
            return true
        }
        position.step = target
        position.done = false
        lessonPosition = position
        showStep()
        return true
    }

    private func showStep() {
        guard let position = lessonPosition else { return }
        let lesson = lessons[position.lesson]
        let step = lesson.steps[position.step]
        let style = TerminalStyle(enabled: colors)
        var text = style.bold("Step \(position.step + 1) of \(lesson.steps.count): \(step.title)")
        if !step.text.isEmpty { text += "\n" + step.text }
        if let input = step.input { text += "\n\n  " + style.dim("type: ") + input.replacingOccurrences(of: "\n", with: "\n        ") }
        writeOwnText(text)
    }

    /// Whether the current lesson step's line is meant to fail (and so the errors an input writes matter).
    var lessonStepAwaitsRefusal: Bool {
        guard let position = lessonPosition, !position.done else { return false }
        return lessons[position.lesson].steps[position.step].refused != nil
    }

    /// After an input at the prompt: whether it completed the current step — its check holds (or,
    /// without one, it was the step's line), or, for a step meant to fail, it was refused for the
    /// step's reason — said once; an attempt at the step that does not pass says what the step
    /// looks for, without the answer.
    func checkLessonStep(after input: String, succeeded: Bool, errors: String) async {
        guard var position = lessonPosition, !position.done else { return }
        let step = lessons[position.lesson].steps[position.step]
        let style = TerminalStyle(enabled: colors)
        let last = position.step + 1 == lessons[position.lesson].steps.count
        let next = last ? ":next ends the lesson" : ":next for the next step"
        let done: Bool
        if let refused = step.refused {
            done = !succeeded && errors.contains(refused)
            if !done, Self.isAttempt(input, at: step) {
                write(style.dim(succeeded
                    ? "✗ not yet: this step's line is meant to be refused, and it ran; look at what the step says to type"
                    : "✗ not yet: refused, but not for this step's reason; look at what the step says to type"))
            }
        } else {
            guard succeeded else { return }
            done = await stepHolds(step, after: input)
            if !done, step.check != nil, Self.isAttempt(input, at: step) {
                write(style.dim("✗ not yet: " + (step.expected.map { "this step looks for \($0)" } ?? "this is not what the step's check looks for")
                    + "; try again, or :next to move on"))
            }
        }
        guard done else { return }
        position.done = true
        lessonPosition = position
        write(style.dim((step.refused != nil ? "✓ step done, refused as it should be — " : "✓ step done — ") + next))
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
    func stepHolds(_ step: Lesson.Step, after input: String) async -> Bool {
        guard let check = step.check else {
            let squeeze = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            return step.input.map { squeeze($0) == squeeze(input) } ?? false
        }
        let saved = snapshot()
        let savedOutput = interpreter.output
        interpreter.output = { _ in }
        let result = await interpreter.evaluate(ScriptSource(name: "<check>", text: check), isPrompt: true)
        interpreter.output = savedOutput
        restore(saved, keepingLastExchange: true)
        return !result.failed && result.value == .bool(true)
    }

    /// Runs a lesson's walk by itself: each step's text, its line as if typed, what it printed,
    /// and whether its check held. Markdown for a handout, or plain text for a projector.
    ///
    /// - Returns: 0 when every step's check held, 1 otherwise.
    package func runLesson(_ lesson: Lesson, markdown: Bool) async -> Int32 {
        var failures = 0
        // The lesson's own text and its inputs as written; the outputs were masked as they were captured.
        let out = ownTextOutput
        func emit(_ text: String) { out.standard(text + "\n") }
        emit(markdown ? "# \(lesson.title)\n" : lesson.title)
        if let reading = lesson.reading { emit((markdown ? "*Follows " : "Follows ") + reading + (markdown ? ".*\n" : ".")) }
        if !lesson.introduction.isEmpty { emit((markdown ? "" : "\n") + lesson.introduction + "\n") }
        for (index, step) in lesson.steps.enumerated() {
            emit(markdown ? "## \(index + 1). \(step.title)\n" : "\nStep \(index + 1) of \(lesson.steps.count): \(step.title)")
            if !step.text.isEmpty { emit(step.text + (markdown ? "\n" : "")) }
            guard let input = step.input else { continue }
            let captured = CapturedText()
            outputRedirect.current = ShellOutput(standard: captured.append, error: captured.append)
            for line in input.split(separator: "\n") { await handle(String(line)) }
            outputRedirect.current = nil
            let holds = if let refused = step.refused { captured.text.contains(refused) } else { await stepHolds(step, after: input) }
            if !holds { failures += 1 }
            let shown = stablePort(captured.text)
            let transcript = input.split(separator: "\n").map { "typist> \($0)" }.joined(separator: "\n")
                + (shown.isEmpty ? "" : "\n" + shown.trimmingCharacters(in: .newlines))
            if markdown {
                emit("```\n\(transcript)\n```\n")
                if !holds { emit("> ✗ this step's check did not hold: `\(step.refused.map { "refused: " + $0 } ?? step.check ?? input)`\n") }
            } else {
                emit("\n" + transcript)
                emit(holds ? "✓" : "✗ the step's check did not hold: \(step.refused.map { "refused: " + $0 } ?? step.check ?? input)")
            }
        }
        if !markdown { emit("\n" + (failures == 0 ? "✓ every step held" : "✗ \(failures) step(s) did not hold")) }
        return failures == 0 ? ExitStatus.success : ExitStatus.failure
    }
}

extension Shell {
    /// `text` with the port of a loopback base URL (the built-in service's, a new one each run)
    /// as `PORT`, so a handout reads the same on every machine.
    func stablePort(_ text: String) -> String {
        let environment = client.environment
        guard ["127.0.0.1", "localhost", "[::1]"].contains(environment.host), let port = environment.port else { return text }
        return text.replacingOccurrences(of: "\(environment.scheme)://\(environment.host):\(port)",
                                         with: "\(environment.scheme)://\(environment.host):PORT")
    }
}

/// A destination that replaces the host's output for a while.
final class OutputRedirect: Sendable {
    private let storage = Mutex<ShellOutput?>(nil)
    var current: ShellOutput? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Text collected from a shell's output, for a lesson's transcript.
final class CapturedText: Sendable {
    private let storage = Mutex("")
    var text: String { storage.withLock { $0 } }
    func append(_ piece: String) { storage.withLock { $0 += piece } }
}
