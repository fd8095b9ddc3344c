import APIScript
import Foundation
import TypedAPI

/// What a host gives the command line: its name, its endpoints, the transports `--transport`
/// offers, and optionally a service to start when no base URL is configured (as `typist` starts
/// the demo service).
public struct ShellHost: Sendable {
    /// The executable's name, for usage and messages.
    public var name: String
    /// Its version.
    public var version: String
    /// Builds the registry.
    public var registry: @Sendable () throws -> EndpointRegistry
    /// Starts a default service and returns its base URL and how to stop it.
    public var defaultService: (@Sendable () async throws -> (baseURL: String, stop: @Sendable () async -> Void))?
    /// The transports `--transport` chooses from; the first is the default.
    public var transports: [TransportOption]
    /// Headers sent with every request (a product token, an API version); the session's
    /// `headers` and an endpoint's own come after them.
    public var headers: [HTTPHeader] = []
    /// The host's client delegate: signs, retries and observes every request the shell sends.
    public var delegate: (any APIClientDelegate)?
    /// A folder of lessons (`lesson-0/lesson.md`, …) for `:lesson` and `lesson N`; `nil` for none.
    /// The workshop reads it: a host with lessons adds it with `withWorkshop()` (`import TypistWorkshop`).
    public var lessonDirectory: URL?
    /// What modules add to the host (the workshop, OpenAPI documents).
    package var extensions: [HostExtension] = []
    /// TLS options for every request, such as the CA bundle of the company whose services the
    /// host calls; the environment's (`typist.json`) and the command line's win over them, field by field.
    public var tls: TLSOptions = .system

    /// Creates a host description.
    public init(name: String, version: String = TypistVersion.current,
                registry: @escaping @Sendable () throws -> EndpointRegistry,
                transports: [TransportOption] = [.urlSession],
                defaultService: (@Sendable () async throws -> (baseURL: String, stop: @Sendable () async -> Void))? = nil) {
        self.name = name
        self.version = version
        self.registry = registry
        self.transports = transports.isEmpty ? [.urlSession] : transports
        self.defaultService = defaultService
    }
}

extension ShellHost {
    /// `reading/1.2 typist/0.16.0`: the host and the shell, for the `User-Agent` header.
    public static func userAgent(name: String, version: String) -> String {
        TypistVersion.userAgent(name: name, version: version)
    }

    /// For a host that sets ``lessonDirectory`` but added no workshop (one written before 0.4.0, when
    /// lessons were part of the shell): what to add, said at the prompt's start.
    package var lessonsWithoutWorkshopNote: String? {
        guard lessonDirectory != nil, !extensions.contains(where: \.providesLessons) else { return nil }
        return "note: \(name) sets lessonDirectory, but its lessons need the workshop: import TypistWorkshop and run "
            + "ShellCommandLine.main(host.withWorkshop()) (see CHANGELOG.md, 0.4.0)"
    }

    /// The host's headers for every request, with a `User-Agent` naming the host unless it gave one.
    package var requestHeaders: [HTTPHeader] { TypistVersion.headers(headers, withUserAgentOf: name, version: version) }

    /// The transport `--transport name` chooses: the first when no name is given.
    package func transport(named name: String?) -> TransportOption? {
        guard let name else { return transports.first }
        return transports.first { $0.name == name }
    }
}
