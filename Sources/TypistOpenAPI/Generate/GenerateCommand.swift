import APIScript
import ArgumentParser
import Foundation
import Typist
import TypistCore
import TypistText

/// `typist generate --openapi SPEC --output DIR`: the document's models, endpoints and
/// registrations as Swift files; `--check` says whether committed files still match.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift for an OpenAPI document: a model per file, Endpoint factories, Register lines.")

    /// `--openapi` and `--default-auth`, as the prompt takes them (the rest are not used here).
    @OptionGroup var options: SessionOptions

    @Option(help: ArgumentHelp("The folder to write (or, with --check, to compare).", valueName: "dir"))
    var output: String

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only operations with this first tag (repeatable).", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("operation"), help: ArgumentHelp("Only this operation, by operationId or function name (repeatable).", valueName: "id"))
    var operations: [String] = []

    @Flag(help: "Write nothing; exit 1 when the folder's files differ from what the document gives.")
    var check = false

    /// Writes or checks; the exit status.
    static func run(_ command: GenerateCommand, output: ShellOutput) async -> Int32 {
        guard let location = command.options.openAPI else {
            output.error("typist: generate needs --openapi SPEC\n")
            return ExitStatus.usage
        }
        let document: OpenAPIDocument
        do {
            document = try await OpenAPIDocument.load(location, defaultAuth: command.options.defaultAuth)
        } catch {
            output.error("typist: cannot read \(OpenAPIDocument.shown(location)): \(error)\n")
            return ExitStatus.dataError
        }
        let files = SwiftGenerator(document: document, tags: command.tags, operations: command.operations).files()
        let folder = URL(fileURLWithPath: (command.output as NSString).expandingTildeInPath)
        if command.check {
            var stale: [String] = []
            for file in files {
                let existing = try? String(contentsOf: folder.appendingPathComponent(file.path), encoding: .utf8)
                if existing != file.text { stale.append(file.path) }
            }
            guard stale.isEmpty else {
                output.error("typist: \(stale.count) of \(files.count) files differ from \(document.name): \(stale.joined(separator: ", ")); run typist generate again\n")
                return ExitStatus.failure
            }
            output.standard("\(files.count) files match \(document.name)\n")
            return ExitStatus.success
        }
        do {
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url, options: .atomic)
            }
        } catch {
            output.error("typist: cannot write \(TerminalText.sanitized(command.output)): \(error.localizedDescription)\n")
            return ExitStatus.failure
        }
        output.standard("wrote \(files.count) files for \(document.operationCount) operations of \(document.name) to \(command.output)\n")
        return ExitStatus.success
    }
}
