import Foundation
import TypistCore
import TypistText

/// `:compile`: the compiler's verdict on Swift files, from inside a lesson's walk, so the
/// compile-time moment the course is about happens at the prompt rather than in another window.
extension LessonWalk {
    /// The command: `:compile reference misuse` type-checks the running lesson's files by name.
    var compileCommand: MetaCommand {
        MetaCommand("compile", usage: ":compile [file…]",
                    "type-check Swift files with TypedAPI; in a lesson, by name (:compile reference misuse)",
                    argument: .file(extensions: ["swift"])) { shell, text in await self.compile(text, shell) }
    }

    /// The files `argument` names: a word without a slash or `.swift` is the running lesson's file of
    /// that name (`misuse` is its `misuse.swift`); anything else is a path. Nothing names the
    /// lesson's reference design with its misuse.
    func compileFiles(_ argument: String, _ shell: Shell) throws(CompileRefusal) -> [URL] {
        let lesson = currentLesson(shell)
        let words = argument.split(whereSeparator: \.isWhitespace).map(String.init)
        let names = words.isEmpty ? ["reference", "misuse"] : words
        var files: [URL] = []
        for name in names {
            if name.contains("/") || name.hasSuffix(".swift") {
                files.append(URL(fileURLWithPath: (name as NSString).expandingTildeInPath))
                continue
            }
            guard let lesson else {
                throw CompileRefusal(message: "no lesson is running to take '\(name)' from: give the files' paths, or start one with :lesson N")
            }
            let file = lesson.directory.appendingPathComponent(name + ".swift")
            guard FileManager.default.fileExists(atPath: file.path) else {
                let known = ((try? FileManager.default.contentsOfDirectory(atPath: lesson.directory.path)) ?? [])
                    .filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(6)) }.sorted()
                throw CompileRefusal(message: "\(lesson.title) has no '\(name).swift'; it has " + known.joined(separator: ", "))
            }
            files.append(file)
        }
        return files
    }

    /// Why `:compile` could not run.
    struct CompileRefusal: Error {
        let message: String
    }

    func compile(_ argument: String, _ shell: Shell) async -> Bool {
        let files: [URL]
        do {
            files = try compileFiles(argument, shell)
        } catch {
            shell.fail(error.message)
            return false
        }
        let outcome: SwiftCheck.Outcome
        do {
            outcome = try await SwiftCheck.typecheck(files)
        } catch {
            shell.fail("cannot run the compiler: \(error)")
            return false
        }
        // The lesson's own folder is long and the same on every line: name its files by name.
        var diagnostics = TerminalText.sanitized(outcome.diagnostics).trimmingCharacters(in: .newlines)
        if let lesson = currentLesson(shell) {
            diagnostics = diagnostics.replacingOccurrences(of: lesson.directory.standardizedFileURL.path + "/", with: "")
        }
        let names = files.map(\.lastPathComponent).joined(separator: " + ")
        guard !outcome.passed else {
            shell.write((diagnostics.isEmpty ? "" : diagnostics + "\n") + "✓ \(names): the compiler accepts it")
            return true
        }
        shell.fail("\(names): the compiler refuses it\n" + diagnostics)
        if !outcome.readings.isEmpty {
            shell.write("What this means:\n" + outcome.readings.map { "  • " + $0 }.joined(separator: "\n"))
        }
        return false
    }
}
