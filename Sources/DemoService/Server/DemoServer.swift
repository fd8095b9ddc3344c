import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The demo service: an embedded HTTP server on loopback with the routes of every demo family.
///
/// ```swift
/// let server = try await DemoServer.start()        // an ephemeral port on 127.0.0.1
/// print(server.baseURL)                            // http://127.0.0.1:54321
/// await server.stop()
/// ```
///
/// Data is deterministic; writes (`POST /posts` …) live in memory for this server only.
public final class DemoServer: Sendable {
    /// The host the server is bound to.
    public let host: String
    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    private let serviceGroup: ServiceGroup
    private let task: Task<Void, Never>

    /// The base URL, such as `http://127.0.0.1:54321`.
    public var baseURL: String { "http://\(host):\(port)" }

    private init(host: String, port: Int, serviceGroup: ServiceGroup, task: Task<Void, Never>) {
        self.host = host
        self.port = port
        self.serviceGroup = serviceGroup
        self.task = task
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port; 0 (the default) picks a free one.
    ///   - logLevel: How much the server logs (warnings by default).
    /// - Returns: The running server, with its real port.
    /// - Throws: When the address cannot be bound.
    public static func start(host: String = "127.0.0.1", port: Int = 0, logLevel: Logger.Level = .warning)
        async throws -> DemoServer
    {
        var logger = Logger(label: "DemoService")
        logger.logLevel = logLevel
        let (events, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = Application(
            router: DemoRoutes(store: BlogStore()).router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "DemoService"),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress?.port ?? port))
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
                continuation.yield(.failure(DemoServerError.stoppedBeforeListening))
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .success(let actualPort):
                return DemoServer(host: host, port: actualPort, serviceGroup: group, task: task)
            case .failure(let error):
                throw error
            }
        }
        throw DemoServerError.stoppedBeforeListening
    }

    /// Stops the server: requests under way get `grace` to finish, then are cancelled; its
    /// connections are closed when it returns.
    public func stop(grace: Duration = .milliseconds(250)) async {
        await serviceGroup.triggerGracefulShutdown()
        let task = task
        let deadline = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        await task.value
        deadline.cancel()
    }

    /// Waits until the server stops (for a standalone server).
    public func waitUntilStopped() async {
        await task.value
    }
}

/// Why a demo server did not start.
public enum DemoServerError: Error, CustomStringConvertible {
    /// The server stopped before it was listening.
    case stoppedBeforeListening

    /// A sentence about it.
    public var description: String { "the demo server stopped before it was listening" }
}
