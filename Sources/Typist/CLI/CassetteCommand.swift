import APIScript
import ArgumentParser
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// `typist cassette show FILE` and `typist cassette verify FILE`.
///
/// One command with the action as its first argument: `verify --openapi SPEC` checks the recorded
/// responses of a document's operations against its schemas.
struct CassetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cassette", abstract: "Read a recorded HAR cassette: list its exchanges, or check them against today's types.",
        discussion: "show: a table of the exchanges (method, path, status, Swift type, size). verify: every recorded 2xx response decoded through today's types, with no network; exit 1 when one no longer decodes.")

    /// What to do with the cassette.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case show, verify
    }

    @Argument(help: "show or verify.")
    var action: Action

    @Argument(help: "The cassette, such as session.har.")
    var file: String

    @Option(name: .customLong("openapi"),
            help: ArgumentHelp("With verify: type the document's operations too, as --openapi does at the prompt.", valueName: "spec"))
    var openAPI: String?

    @Option(name: .customLong("graphql-schema"),
            help: ArgumentHelp("With verify: a GraphQL schema file, whose --graphql-operations type the recorded GraphQL calls.", valueName: "file"))
    var graphQLSchema: String?

    @Option(name: .customLong("graphql-operations"),
            help: ArgumentHelp("With verify and --graphql-schema: the .graphql files of the operations that were called (repeatable).", valueName: "file"))
    var graphQLOperations: [String] = []

    /// With verify and `--openapi`: how the document is read (`--openapi-auth`, `--default-auth`, `--server-var`).
    @OptionGroup var document: DocumentOptions

    func validate() throws {
        guard action == .verify || (graphQLSchema == nil && graphQLOperations.isEmpty) else {
            throw ValidationError("show reads the cassette alone; --graphql-schema and --graphql-operations are for verify")
        }
        guard graphQLOperations.isEmpty || graphQLSchema != nil else {
            throw ValidationError("--graphql-operations goes with --graphql-schema FILE")
        }
        guard action == .verify || (openAPI == nil && document.isEmpty) else {
            throw ValidationError("show reads the cassette alone; --openapi and the options that go with it are for verify")
        }
        guard openAPI != nil || document.isEmpty else {
            throw ValidationError("--openapi-auth, --default-auth and --server-var go with --openapi SPEC")
        }
    }
}

extension ShellCommandLine {
    /// Runs `cassette show` or `cassette verify`; nil for any other command.
    static func runCassetteCommand(_ command: any ParsableCommand, _ host: ShellHost, output: ShellOutput) async -> Int32? {
        guard let command = command as? CassetteCommand else { return nil }
        let path = command.file
        let verifies = command.action == .verify
        let cassette: Cassette
        do {
            cassette = try Cassette(contentsOf: (path as NSString).expandingTildeInPath)
        } catch {
            output.error("\(host.name): \(error)\n")
            return ExitStatus.dataError
        }
        guard verifies else {
            output.standard(CassetteReport.show(cassette))
            return ExitStatus.success
        }
        var registry: EndpointRegistry
        do {
            registry = try host.registry()
        } catch {
            output.error("\(host.name): cannot start: \(error)\n")
            return ExitStatus.software
        }
        if let location = command.openAPI {
            // The document's operations, as a session with --openapi has them.
            do throws(StartFailure) {
                let document = try await loadDocument(location, options: command.document, host: host, output: output, transport: URLSessionTransport())
                do {
                    if host.extensions.contains(where: { $0.loadDocument != nil && $0.documentReplacesEndpoints }) {
                        registry = try EndpointRegistry { }
                    }
                    registry = try registry.adding(document.registrations).registry
                } catch {
                    throw StartFailure(message: "cannot use \(TerminalText.sanitized(URLParts.maskingUserinfo(location))): \(error)", status: ExitStatus.dataError)
                }
            } catch {
                output.error("\(host.name): \(error.message)\n")
                return error.status
            }
        }
        if let schema = command.graphQLSchema {
            // The operations, as a session with --graphql-schema has them (nothing is fetched).
            do throws(StartFailure) {
                let document = try await loadGraphQL(GraphQLLoadRequest(endpoint: nil, schema: schema, operations: command.graphQLOperations),
                                                     document: command.document, tls: .system, host: host, transport: URLSessionTransport())
                do {
                    if command.openAPI == nil, host.extensions.contains(where: { $0.loadGraphQL != nil && $0.documentReplacesEndpoints }) {
                        registry = try EndpointRegistry { }
                    }
                    registry = try registry.adding(document.registrations).registry
                } catch {
                    throw StartFailure(message: "cannot use the GraphQL operations: \(error)", status: ExitStatus.dataError)
                }
            } catch {
                output.error("\(host.name): \(error.message)\n")
                return error.status
            }
        }
        let report = CassetteReport.render(await CassetteReport.verify(cassette, registry: registry))
        output.standard(report.text)
        return report.clean ? ExitStatus.success : ExitStatus.failure
    }
}
