import APIScript
import Foundation
import TypistCore

/// A lesson's walk run by itself, for a projector or a handout.
extension Shell {
    /// Runs a lesson's walk by itself: each step's text, its line as if typed, what it printed,
    /// and whether its check held. Markdown for a handout, or plain text for a projector.
    ///
    /// - Returns: 0 when every step's check held, 1 otherwise.
    package func runLesson(_ lesson: Lesson, markdown: Bool) async -> Int32 {
        var failures = 0
        // `:compile misuse` in a step names this lesson's files.
        let walk = LessonWalk.of(self)
        walk?.running(lesson)
        defer { walk?.running(nil) }
        // The lesson's own text and its inputs as written; the outputs were masked as they were captured.
        let out = ownTextOutput
        func emit(_ text: String) { out.standard(text + "\n") }
        emit(markdown ? "# \(lesson.title)\n" : lesson.title)
        if let reading = lesson.reading { emit((markdown ? "*Follows " : "Follows ") + reading + (markdown ? ".*\n" : ".")) }
        for quote in lesson.quotes { emit(markdown ? "> “\(quote)”\n" : "  “\(quote)”") }
        if !lesson.introduction.isEmpty { emit((markdown ? "" : "\n") + lesson.introduction + "\n") }
        for (index, step) in lesson.steps.enumerated() {
            emit(markdown ? "## \(index + 1). \(step.title)\n" : "\nStep \(index + 1) of \(lesson.steps.count): \(step.title)")
            if !step.text.isEmpty { emit(step.text + (markdown ? "\n" : "")) }
            guard let input = step.input else { continue }
            let captured = CapturedText()
            outputRedirect.current = ShellOutput(standard: captured.append, error: captured.append)
            for line in input.split(separator: "\n") { await handle(String(line)) }
            outputRedirect.current = nil
            let holds = if let refused = step.refused { captured.text.contains(refused) } else { await LessonWalk.stepHolds(step, after: input, self) }
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

