import ArgumentParser
import TypedAPI
import TypistCore

/// More for a host's command line: subcommands beside `run` and `check`, and what every session it
/// starts gets — how the workshop adds `lesson`, `swift-check` and the prompt's `:lesson` without
/// the `Typist` library linking it.
package struct CommandLineExtension: Sendable {
    /// What a parsed subcommand of the extension asks for.
    package enum Outcome {
        /// It ran by itself, with this exit status.
        case finished(Int32)
        /// It runs by itself, asynchronously (it reads a file or a URL), ending with an exit status.
        case running(@Sendable () async -> Int32)
        /// A session with these options, run this way.
        case session(SessionOptions, ShellCommandLine.Mode)
    }

    /// The subcommands, for parsing and help.
    package var subcommands: [any ParsableCommand.Type]
    /// What a parsed command asks for; `nil` when it is not one of this extension's.
    package var outcome: @Sendable (any ParsableCommand, ShellHost, ShellOutput) -> Outcome?
    /// Sets up each session's shell (commands, help, observers) once it is made.
    package var prepare: @Sendable (Shell, ShellHost) -> Void
    /// Reads the API document `--openapi` names (a file or URL) into endpoints, with the
    /// `--default-auth` and `--server-var`s given, a URL fetched through the session's transport
    /// with its TLS options and `--openapi-auth`'s credential: the OpenAPI extension's.
    package var loadDocument: (@Sendable (_ location: String, _ defaultAuth: String?, _ serverVariables: [String: String],
                                          _ transport: any HTTPTransport, _ tls: TLSOptions,
                                          _ credential: DocumentCredential?) async throws -> LoadedDocument)?
    /// Whether a document's endpoints replace the host's instead of following them.
    package var documentReplacesEndpoints = false
    /// Whether it is the workshop, which reads the host's `lessonDirectory`.
    package var providesLessons = false

    package init(subcommands: [any ParsableCommand.Type],
                 outcome: @escaping @Sendable (any ParsableCommand, ShellHost, ShellOutput) -> Outcome?,
                 prepare: @escaping @Sendable (Shell, ShellHost) -> Void) {
        self.subcommands = subcommands
        self.outcome = outcome
        self.prepare = prepare
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
