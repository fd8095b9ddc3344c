import Foundation
import TypedAPI
import TypistCore
import TypistText

/// `typist generate --openapi SPEC --output DIR`: the document's models, endpoints and
/// registrations as Swift files; `--check` says whether committed files still match.
enum DocumentGeneration {
    /// Writes or checks; the exit status.
    static func run(_ command: GenerateRequest, output: ShellOutput) async -> Int32 {
        let location = command.location
        let document: OpenAPIDocument
        do {
            document = try await OpenAPIDocument.load(location, defaultAuth: command.defaultAuth, serverVariables: command.serverVariables,
                                                      transport: URLSessionTransport(), credential: command.credential)
        } catch {
            output.error("typist: cannot read \(OpenAPIDocument.shown(location)): \(error)\n")
            return ExitStatus.dataError
        }
        // A tag or an operation that names nothing is a mistake, not an empty selection.
        let unknownTags = command.tags.filter { tag in !document.operations.contains { $0.group == tag } }
        let unknownOperations = command.operations.filter { name in
            !document.operations.contains { $0.name == name || $0.operationId == name }
        }
        guard unknownTags.isEmpty, unknownOperations.isEmpty else {
            let named = unknownTags.map { "tag '\(TerminalText.sanitized($0))'" } + unknownOperations.map { "operation '\(TerminalText.sanitized($0))'" }
            output.error("typist: \(document.name) has no \(named.joined(separator: ", no ")) (`typist --openapi \(OpenAPIDocument.shown(location))`, then :endpoints, lists them)\n")
            return ExitStatus.usage
        }
        // What was left out or read differently, as `check` and the prompt say it.
        for warning in document.warnings { output.error("warning: \(warning)\n") }
        let generator = SwiftGenerator(document: document, tags: command.tags, operations: command.operations)
        let files = generator.files()
        let outcome = GeneratedFolder.write(files.map { ($0.path, $0.text) }, to: command.output, check: command.check,
                                            source: document.name, output: output)
        if case .finished(let status) = outcome { return status }
        let chosen = generator.operationCount == document.operationCount ? "" : "\(generator.operationCount) of the "
        output.standard("wrote \(files.count) files for \(chosen)\(document.operationCount) operations of \(document.name) to \(command.output)\(outcome.removedNote)\n")
        return ExitStatus.success
    }
}
