import APIScript
import TypistCore
import Foundation

/// A lesson's exercises: copied into a folder to work in (`lesson N --start DIR`), and checked
/// there (`lesson N --check DIR`).
///
/// A lesson folder holds `before.swift` (the untyped stage students start from), `reference.swift`
/// (a typed design in TypedAPI), `usage.swift` (code any good design must compile), `misuse.swift`
/// (code a typed design must refuse; the lesson's `misuse:` setting names the diagnostic),
/// `exercise.api` (a script to complete, with `expect`s) with `reference.api`, and `hidden.api`
/// (the instructor's checks, run after the student's script in the same session).
extension Shell {
    /// Copies the exercises a student edits: `design.swift` (from `before.swift`), `exercise.api`,
    /// and, to read, `usage.swift` and `misuse.swift`.
    package func startExercises(_ lesson: Lesson, in folder: String) -> Int32 {
        let target = URL(fileURLWithPath: folder)
        let copies = [("before.swift", "design.swift"), ("exercise.api", "exercise.api"),
                      ("usage.swift", "usage.swift"), ("misuse.swift", "misuse.swift")]
        do {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for (source, name) in copies {
                let destination = target.appendingPathComponent(name)
                guard !FileManager.default.fileExists(atPath: destination.path) else {
                    write("kept \(destination.path) (already there)")
                    continue
                }
                try FileManager.default.copyItem(at: lesson.directory.appendingPathComponent(source), to: destination)
                write("wrote \(destination.path)")
            }
        } catch {
            fail("cannot set up the exercises in '\(folder)': \(error)")
            return ExitStatus.failure
        }
        write("Edit design.swift and exercise.api, then: typist lesson \(lesson.number) --check \(folder)")
        return ExitStatus.success
    }

    /// Checks a folder's `design.swift` and `exercise.api`; prints each verdict (or, with
    /// `--format json`, one JSON object for the instructor to collect).
    package func checkExercises(_ lesson: Lesson, in folder: String) async -> Int32 {
        let base = URL(fileURLWithPath: folder)
        let design = base.appendingPathComponent("design.swift")
        var results: [(name: String, passed: Bool, detail: String)] = []
        do {
            let usage = try await SwiftCheck.typecheck([design, lesson.directory.appendingPathComponent("usage.swift")])
            results.append(("swift usage", usage.passed,
                            usage.passed ? "the design compiles with the lesson's usage" : "the usage does not compile with this design:\n" + usage.diagnostics))
            let misuseFile = lesson.directory.appendingPathComponent("misuse.swift")
            let misuse = try await SwiftCheck.typecheck([design, misuseFile])
            let expected = lesson.settings["misuse"]
            // The marked line refused for its reason; without a mark, the lesson's diagnostic anywhere.
            let marks = SwiftCheck.expectedErrors(in: [misuseFile])
            let refused = !misuse.passed && (marks.isEmpty ? expected.map { misuse.diagnostics.contains($0) } ?? true
                                                           : SwiftCheck.unmet(marks, in: misuse.diagnostics).isEmpty)
            results.append(("swift misuse", refused,
                            refused ? "the compiler refuses the misuse" + (misuse.readings.first.map { ": " + $0 } ?? "")
                                : misuse.passed ? "the misuse compiles: this design still lets it through"
                                    : "refused, but not for the lesson's reason (\(expected ?? "")):\n" + misuse.diagnostics))
        } catch {
            results.append(("swift", false, "\(error)"))
        }
        // The check reads the lesson's own usage and misuse: a copy edited in the folder changes
        // nothing, and says so rather than leave the student wondering.
        for name in ["usage.swift", "misuse.swift"] {
            let copy = try? Data(contentsOf: base.appendingPathComponent(name))
            if let copy, copy != (try? Data(contentsOf: lesson.directory.appendingPathComponent(name))) {
                output.error("warning: \(name) in \(folder) differs from the lesson's: the check reads the lesson's own (\(name) is not to be edited)\n")
            }
        }
        let exercise = base.appendingPathComponent("exercise.api")
        if let text = try? String(contentsOf: exercise, encoding: .utf8) {
            let captured = CapturedText()
            outputRedirect.current = ShellOutput(standard: { _ in }, error: captured.append)
            var status = await run(ScriptSource(name: "exercise.api", text: text))
            if status == ExitStatus.success, let hidden = try? String(contentsOf: lesson.directory.appendingPathComponent("hidden.api"), encoding: .utf8) {
                status = await run(ScriptSource(name: "hidden.api", text: hidden))
            }
            outputRedirect.current = nil
            results.append(("api exercise", status == ExitStatus.success,
                            status == ExitStatus.success ? "every expect holds, the hidden checks too" : captured.text.trimmingCharacters(in: .newlines)))
        } else {
            results.append(("api exercise", false, "cannot read \(exercise.path)"))
        }
        let passed = results.allSatisfy(\.passed)
        if format == .json {
            let items = results.map { "{\"check\":\(JSONWriter.render(.string($0.name), pretty: false)),\"passed\":\($0.passed),\"detail\":\(JSONWriter.render(.string($0.detail), pretty: false))}" }
            output.standard("{\"lesson\":\(lesson.number),\"passed\":\(passed),\"checks\":[\(items.joined(separator: ","))]}\n")
        } else {
            for result in results {
                output.standard((result.passed ? "✓ " : "✗ ") + result.name + ": " + result.detail + "\n")
            }
            output.standard(passed ? "✓ lesson \(lesson.number): every check passed\n" : "✗ lesson \(lesson.number): not yet\n")
        }
        return passed ? ExitStatus.success : ExitStatus.failure
    }
}
