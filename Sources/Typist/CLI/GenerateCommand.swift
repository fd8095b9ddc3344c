import ArgumentParser
import Foundation
import TypistCore

/// `typist generate --openapi SPEC --output DIR`: the document's models, endpoints and
/// registrations as Swift files; `--check` says whether committed files still match.
struct GenerateCommand: ParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift for an OpenAPI document: a model per file, Endpoint factories, Register lines.")

    @Option(name: .customLong("openapi"),
            help: ArgumentHelp("The OpenAPI document: a file or an http(s) URL, YAML or JSON, OpenAPI 3.0, 3.1 or Swagger 2.0.", valueName: "spec"))
    var openAPI: String

    /// How the document is read, as the prompt reads it: `--openapi-auth`, `--default-auth`, `--server-var`.
    @OptionGroup var document: DocumentOptions

    @Option(help: ArgumentHelp("The folder to write (or, with --check, to compare).", valueName: "dir"))
    var output: String

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only operations with this first tag (repeatable).", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("operation"), help: ArgumentHelp("Only this operation, by operationId or function name (repeatable).", valueName: "id"))
    var operations: [String] = []

    @Flag(help: "Write nothing; exit 1 when the folder's files differ from what the document gives.")
    var check = false

    /// What the command asks, its credential read from the environment; `nil` when it is a usage
    /// error, which is said.
    func request(output: ShellOutput) -> GenerateRequest? {
        do {
            return (GenerateRequest(
                location: openAPI, defaultAuth: document.defaultAuth, serverVariables: try document.serverVariableValues(),
                credential: try document.documentCredential(environment: ProcessInfo.processInfo.environment),
                output: self.output, tags: tags, operations: operations, check: check))
        } catch {
            output.error("typist: \(error)\n")
            return nil
        }
    }
}
