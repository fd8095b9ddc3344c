import DemoBindings
import Foundation
import Testing
@testable import Typist
@testable import TypistCore
@testable import TypistWorkshop

/// `typist lesson N` at a real terminal (tmux), walked as a student does: every step typed, a typo
/// and a Ctrl-C in the middle, Ctrl-L, `:clear` and `:history` — the lesson goes on to its end.
@Suite("Lessons in a terminal (tmux)", .serialized,
       .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests cannot run here"))
struct LessonTerminalTests {
    static let lessons = (try? Lesson.load(from: DemoBindings.workshopDirectory)) ?? []

    @Test("A dry run of each lesson at a terminal completes, with a typo and a Ctrl-C in the middle", arguments: 0..<5)
    func dryRun(number: Int) async throws {
        let lesson = try #require(Self.lessons.first { $0.number == number })
        let home = try TerminalTests.temporaryHome()
        let session = try TmuxSession("'\(try Built.executable("typist").path)' lesson \(number)", home: home, removingHome: true)
        defer {
            let left = session.close()
            #expect(left.isEmpty, "processes outlived their terminal: \(left)")
        }
        let count = lesson.steps.count
        try await session.waitFor("Step 1 of \(count)")
        try await session.waitFor("typist>")
        for (index, step) in lesson.steps.enumerated() {
            if index > 0 { try await session.waitFor("Step \(index + 1) of \(count)") }
            if index == 1 {
                // A typo is a diagnostic, and the lesson goes on.
                try session.type("breeds().mesage")
                try session.send("Enter")
                try await session.waitFor("error:")
                // An unfinished line, dropped with Ctrl-C.
                try session.type("post(id: 1")
                try await session.waitFor("post(id: 1")
                try await session.clearLine()
                // Ctrl-L clears the screen (it is not printed as ^L).
                try session.send("C-l")
                try await session.waitForEmptyPrompt()
                #expect(!(try session.screen()).contains("^L"))
            }
            // The compiler's steps are walked by WorkshopTests and LessonCompileTests; at a terminal,
            // five lessons compiling at once only slow the machine for what this test is about.
            if step.input?.hasPrefix(":compile") == true {
                try session.type(":next")
                try session.send("Enter")
                continue
            }
            // A clean screen, so that this step's "✓ step done" is the only one on it.
            try session.type(":clear")
            try session.send("Enter")
            try await session.waitForEmptyPrompt()
            for line in (step.input ?? "").split(separator: "\n") {
                try session.type(String(line))
                try session.send("Enter")
            }
            try await session.waitFor("✓ step done")
            try session.type(":next")
            try session.send("Enter")
        }
        try await session.waitFor("That was the last step of \(lesson.title)")
        // The history holds what was typed, newest first by number.
        try session.type(":clear")
        try session.send("Enter")
        try await session.waitForEmptyPrompt()
        try session.type(":history search mesage")
        try session.send("Enter")
        try await session.waitFor("breeds().mesage")
        // Ctrl-D at the prompt, once the prompt is there: a Ctrl-D typed while a command still
        // runs meets the terminal in its ordinary (canonical) mode, whose line discipline takes
        // it as end-of-file for whoever reads then and keeps nothing for readline (a fresh clone's
        // run on a loaded machine sent it between the output and the prompt, and it was gone).
        try await session.waitForEmptyPrompt()
        try session.send("C-d")
        try await session.waitFor("EXIT=0")
    }
}
