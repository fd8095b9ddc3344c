import ArgumentParser
import Foundation
import TypistCore

/// `typist generate --openapi SPEC --output DIR`: the document's models, endpoints and
/// registrations as Swift files; `typist generate --graphql-schema S --graphql-operations Q
/// --output DIR`: each operation's result and variables, its endpoint and registration;
/// `--check` says whether committed files still match.
struct GenerateCommand: ParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift for an OpenAPI document (a model per file, Endpoint factories, Register lines) or GraphQL operations.")

    @Option(name: .customLong("openapi"),
            help: ArgumentHelp("The OpenAPI document: a file or an http(s) URL, YAML or JSON, OpenAPI 3.0, 3.1 or Swagger 2.0.", valueName: "spec"))
    var openAPI: String?

    @Option(name: .customLong("graphql-schema"),
            help: ArgumentHelp("A GraphQL schema (SDL, or a saved introspection answer) the operations are typed against.", valueName: "file"))
    var graphQLSchema: String?

    @Option(name: .customLong("graphql-operations"),
            help: ArgumentHelp("A .graphql file of named queries and mutations, each an Endpoint (repeatable).", valueName: "file"))
    var graphQLOperations: [String] = []

    @Option(name: .customLong("graphql-path"),
            help: ArgumentHelp("Where the endpoints post the operations (default /graphql).", valueName: "path"))
    var graphQLPath = "/graphql"

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
        guard (openAPI == nil) != (graphQLSchema == nil) else {
            output.error("typist: generate reads --openapi SPEC, or --graphql-schema S with --graphql-operations Q; one of them\n")
            return nil
        }
        guard graphQLSchema == nil || !graphQLOperations.isEmpty else {
            output.error("typist: --graphql-schema needs the operations to write: --graphql-operations ops.graphql\n")
            return nil
        }
        do {
            var request = (GenerateRequest(
                location: openAPI ?? graphQLSchema ?? "", defaultAuth: document.defaultAuth, serverVariables: try document.serverVariableValues(),
                credential: try document.documentCredential(environment: ProcessInfo.processInfo.environment),
                output: self.output, tags: tags, operations: operations, check: check))
            if graphQLSchema != nil {
                request.graphQL = GenerateRequest.GraphQL(operations: graphQLOperations, path: graphQLPath)
            }
            return request
        } catch {
            output.error("typist: \(error)\n")
            return nil
        }
    }
}
