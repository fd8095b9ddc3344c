import Foundation
import TypedAPI

/// What a module adds to a host (``ShellHost/withOpenAPI(replacingEndpoints:)``, the workshop's
/// `withWorkshop()`): what each session's shell gets once it is made, how `--openapi` reads a
/// document, how `generate` writes Swift, and what its command line adds.
package struct HostExtension: Sendable {
    /// The command line's own part (`Typist`'s `CommandLineExtension`: subcommands, parsed with
    /// ArgumentParser, which this module does not link); `nil` for none.
    package var frontEnd: (any Sendable)?
    /// Sets up each session's shell (commands, help, observers) once it is made.
    package var prepare: @Sendable (Shell, ShellHost) -> Void
    /// Reads the API document `--openapi` names (a file or URL) into endpoints, with the
    /// `--default-auth` and `--server-var`s given, a URL fetched through the session's transport
    /// with its TLS options and `--openapi-auth`'s credential: the OpenAPI extension's.
    package var loadDocument: (@Sendable (_ location: String, _ defaultAuth: String?, _ serverVariables: [String: String],
                                          _ transport: any HTTPTransport, _ tls: TLSOptions,
                                          _ credential: DocumentCredential?) async throws -> LoadedDocument)?
    /// Reads a GraphQL schema (`--graphql URL` by introspection, `--graphql-schema FILE`) and the
    /// operations files it types (`--graphql-operations`): the GraphQL extension's.
    package var loadGraphQL: (@Sendable (_ request: GraphQLLoadRequest, _ transport: any HTTPTransport, _ tls: TLSOptions,
                                         _ credential: DocumentCredential?) async throws -> LoadedDocument)?
    /// Writes (or checks) the Swift for a document (`generate`), returning the exit status: the
    /// OpenAPI extension's.
    package var generate: (@Sendable (GenerateRequest, ShellOutput) async -> Int32)?
    /// The same for GraphQL operations (`generate --graphql-schema`): the GraphQL extension's.
    package var generateGraphQL: (@Sendable (GenerateRequest, ShellOutput) async -> Int32)?
    /// Whether a document's endpoints replace the host's instead of following them.
    package var documentReplacesEndpoints = false
    /// Whether it is the workshop, which reads the host's `lessonDirectory`.
    package var providesLessons = false

    package init(prepare: @escaping @Sendable (Shell, ShellHost) -> Void) {
        self.prepare = prepare
    }
}

/// What `generate` was asked: the document, how to read it, where to write, what to choose.
package struct GenerateRequest: Sendable {
    /// The document: a file or an http(s) URL.
    package var location: String
    /// `--default-auth`.
    package var defaultAuth: String?
    /// `--server-var`s.
    package var serverVariables: [String: String]
    /// `--openapi-auth`'s credential.
    package var credential: DocumentCredential?
    /// The folder to write or compare.
    package var output: String
    /// Only operations with these first tags.
    package var tags: [String]
    /// Only these operations.
    package var operations: [String]
    /// Compare, write nothing.
    package var check: Bool
    /// For GraphQL (`--graphql-schema`, whose file is ``location``): the operations files and
    /// the path they are posted to; nil for an OpenAPI document.
    package var graphQL: GraphQL?

    /// What GraphQL generation reads besides the schema.
    package struct GraphQL: Sendable {
        package var operations: [String]
        package var path: String

        package init(operations: [String], path: String) {
            self.operations = operations
            self.path = path
        }
    }

    package init(location: String, defaultAuth: String?, serverVariables: [String: String], credential: DocumentCredential?,
                 output: String, tags: [String], operations: [String], check: Bool) {
        self.location = location
        self.defaultAuth = defaultAuth
        self.serverVariables = serverVariables
        self.credential = credential
        self.output = output
        self.tags = tags
        self.operations = operations
        self.check = check
    }
}

/// Endpoints read from an API document at start-up.
package struct LoadedDocument: Sendable {
    package var registrations: [PendingRegistration]
    /// Its servers' URLs, the default first.
    package var servers: [String]
    /// What was read differently or left out.
    package var warnings: [String]
    /// Its servers as named environments, for `:env`.
    package var environments: [NamedEnvironment]

    /// What the session needs besides the endpoints, done once its shell is made (GraphQL's
    /// `graphql(_:)` for inline queries).
    package var sessionSetup: (@Sendable (Shell) throws -> Void)?
    /// The same, its calls sent to a server other than the session's (`:graphql` at the prompt).
    package var graphQLSetup: (@Sendable (Shell, ServerEnvironment?) throws -> Void)?

    package init(registrations: [PendingRegistration], servers: [String], warnings: [String], environments: [NamedEnvironment] = []) {
        self.registrations = registrations
        self.servers = servers
        self.warnings = warnings
        self.environments = environments
    }
}

/// Nothing answered at an API document's URL (refused, no such host, timed out, TLS): the
/// service is unavailable, which the command line says with `EX_UNAVAILABLE` (69), not a wrong
/// document (65).
package struct DocumentUnreachable: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}

/// What `--graphql`, `--graphql-schema` and `--graphql-operations` ask for.
package struct GraphQLLoadRequest: Sendable {
    /// `--graphql`: the service's URL, where operations go (and its schema is read by
    /// introspection unless `schema` is given).
    package var endpoint: String?
    /// `--graphql-schema`: SDL or an introspection answer, in a file.
    package var schema: String?
    /// `--graphql-operations`: files of named operations, each a function.
    package var operations: [String]

    package init(endpoint: String?, schema: String?, operations: [String]) {
        self.endpoint = endpoint
        self.schema = schema
        self.operations = operations
    }
}
