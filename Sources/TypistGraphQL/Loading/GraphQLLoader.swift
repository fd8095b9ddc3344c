import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// Reads what `--graphql`, `--graphql-schema` and `--graphql-operations` (or `:graphql`) name: the
/// schema, from a file or by introspection, and each operations file's queries and mutations as
/// endpoints.
package enum GraphQLLoader {
    /// The schema and the operations, as endpoints, with what the session needs for inline queries.
    ///
    /// - Parameter cacheDirectory: Where schemas are cached (`~/.cache/typist/graphql`); nil for none.
    package static func load(_ request: GraphQLLoadRequest, transport: any HTTPTransport, tls: TLSOptions,
                             credential: DocumentCredential?, cacheDirectory: URL? = GraphQLSchemaCache.directory()) async throws -> LoadedDocument {
        // Without GraphQLSwift nothing below could type an operation: say so before anything is read or sent.
        guard GraphQLSchemaError.readsGraphQL else { throw MissingFeature(GraphQLSchemaError.traitOff) }
        let endpoint = try request.endpoint.map(Endpoint.init)
        let service: GraphQLService
        if let location = request.schema {
            service = try GraphQLSchemaCache.service(file: location, path: endpoint?.path ?? "/graphql", directory: cacheDirectory)
        } else if let endpoint {
            let json = try await Introspection.fetch(endpoint, transport: transport, tls: tls, credential: credential)
            service = try GraphQLSchemaCache.service(introspection: json, name: endpoint.shown, path: endpoint.path, directory: cacheDirectory)
        } else {
            throw GraphQLSchemaError("--graphql-operations needs a schema: --graphql URL (read by introspection) or --graphql-schema FILE")
        }
        var registrations: [PendingRegistration] = []
        var warnings = service.schema.warnings
        for file in request.operations {
            let (operations, found) = try operations(inFile: file, service: service)
            warnings += found.map { "\(file):\($0.line):\($0.column): \($0.message)" }
            registrations += operations.enumerated().map { index, operation in
                GraphQLEndpoint.registration(operation, service: service, adoptsRecordTypes: true)
            }
        }
        var document = LoadedDocument(registrations: registrations, servers: endpoint.map { [$0.origin] } ?? [], warnings: warnings,
                                      environments: endpoint.map { [NamedEnvironment(name: "graphql", baseURL: $0.origin)] } ?? [])
        let setup: @Sendable (Shell, ServerEnvironment?) throws -> Void = { shell, server in
            shell.add(helpProvider: { name in service.schema.describe(name) })
            shell.add(literalCompleter: { text in InlineQueries.completions(before: text, schema: service.schema) })
            try InlineQueries.register(in: shell, service: service, server: server)
        }
        document.sessionSetup = { shell in try setup(shell, nil) }
        document.graphQLSetup = setup
        return document
    }

    /// Gives a session what a loaded service adds besides its endpoints: `graphql(_:)` (its calls
    /// sent to `server` when it is not the session's) and `:describe` of the schema's types.
    package static func setUp(_ shell: Shell, document: LoadedDocument, server: ServerEnvironment?) throws {
        try document.graphQLSetup?(shell, server)
    }

    /// The operations of a `.graphql` file.
    ///
    /// - Throws: ``GraphQLProblems`` with every error at its line and column, or why the file cannot be read.
    package static func operations(inFile file: String, service: GraphQLService) throws -> (operations: [GraphQLOperation], warnings: [GraphQLProblem]) {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw GraphQLSchemaError("cannot read \(TerminalText.sanitized(file)): \((error as NSError).localizedDescription)")
        }
        return try service.operations(in: text, name: (file as NSString).lastPathComponent)
    }

    /// A GraphQL service's URL, split as a session needs it.
    struct Endpoint {
        /// `https://api.github.com`.
        var origin: String
        /// `/graphql`.
        var path: String
        /// The URL with any user name and password masked, for messages.
        var shown: String

        init(_ text: String) throws {
            shown = TerminalText.sanitized(URLParts.maskingUserinfo(text))
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
            else { throw GraphQLSchemaError("--graphql needs an http(s) URL, such as https://api.github.com/graphql; \(shown) is not one") }
            let authority = (host.contains(":") ? "[\(host)]" : host) + (components.port.map { ":\($0)" } ?? "")
            origin = "\(scheme)://\(authority)"
            path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        }
    }
}
