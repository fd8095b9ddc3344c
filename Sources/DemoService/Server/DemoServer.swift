import HTTPTypes
import Logging

/// The demo service: an embedded HTTP server on loopback with the routes of every demo family.
///
/// ```swift
/// let server = try await DemoServer.start()        // an ephemeral port on 127.0.0.1
/// print(server.baseURL)                            // http://127.0.0.1:54321
/// await server.stop()
/// ```
///
/// Data is deterministic; writes (`POST /posts` …) live in memory for this server only. The server
/// is Typist's own small HTTP/1.1 server on POSIX sockets (no SwiftNIO), so that `typist` builds
/// in about a minute; every request and answer goes over a real loopback connection.
public final class DemoServer: Sendable {
    /// The host the server is bound to.
    public let host: String
    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    private let server: DemoHTTPServer

    /// The base URL, such as `http://127.0.0.1:54321`.
    public var baseURL: String { "http://\(host):\(port)" }

    private init(host: String, server: DemoHTTPServer) {
        self.host = host
        self.port = server.port
        self.server = server
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: The address to bind (IPv4, IPv6, or a name such as `localhost`); loopback by default.
    ///   - port: The port; 0 (the default) picks a free one.
    ///   - logLevel: How much the server logs: each request and its status at `.info`; nothing
    ///     below (warnings by default).
    /// - Returns: The running server, with its real port.
    /// - Throws: When the address cannot be bound.
    public static func start(host: String = "127.0.0.1", port: Int = 0, logLevel: Logger.Level = .warning)
        async throws -> DemoServer
    {
        var logger = Logger(label: "DemoService")
        logger.logLevel = logLevel
        let log = logLevel <= .info ? logger : nil
        let server = try DemoHTTPServer(host: host, port: port, router: DemoRoutes(store: BlogStore()).router()) { request, status in
            log?.info("\(request.method.rawValue) \(request.path) \(status.code)")
        }
        return DemoServer(host: host, server: server)
    }

    /// Stops the server: requests under way get `grace` to finish, then are cancelled; its
    /// connections are closed when it returns.
    public func stop(grace: Duration = .milliseconds(250)) async {
        await server.stop(grace: grace)
    }

    /// Waits until the server stops (for a standalone server).
    public func waitUntilStopped() async {
        await server.waitUntilStopped()
    }
}

/// Why a demo server did not start.
public enum DemoServerError: Error, CustomStringConvertible {
    /// The server stopped before it was listening.
    case stoppedBeforeListening

    /// A sentence about it.
    public var description: String { "the demo server stopped before it was listening" }
}
