import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl

/// The real transports, so that integration tests run through each.
enum TransportChoice: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession
    case curl

    func make(maximumResponseSize: Int = 256 << 20) -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient: AsyncHTTPClientTransport(maximumResponseSize: maximumResponseSize)
        case .urlSession: URLSessionTransport(maximumResponseSize: maximumResponseSize)
        case .curl: CurlTransport(maximumResponseSize: maximumResponseSize)
        }
    }

    var testDescription: String { rawValue }
}

/// Starts a demo server on an ephemeral loopback port, runs `body` with a client for it, and
/// stops the server whatever happens.
func withDemoServer<Result>(
    _ transport: TransportChoice,
    configuration: APIClient.Configuration = APIClient.Configuration(timeout: .seconds(60)),
    delegate: (any APIClientDelegate)? = nil,
    _ body: (APIClient, DemoServer) async throws -> Result
) async throws -> Result {
    let server = try await DemoServer.start()
    func run(_ made: any HTTPTransport) async throws -> Result {
        let client = APIClient(environment: try ServerEnvironment(name: "demo", url: server.baseURL),
                               transport: made, configuration: configuration, delegate: delegate)
        return try await body(client, server)
    }
    do {
        // curl gets an engine of its own, as the shell's sessions do: the shared engine's idle
        // connections to an earlier test's server must not meet a later server on the same port
        // (a run once failed with "Empty reply from server" that way, it seems).
        let result = transport == .curl ? try await CurlTransport.withOwnEngine { curl, _ in try await run(curl) }
            : try await run(transport.make())
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `operation`, expecting an ``APIError``, and returns it.
func expectAPIError<Value>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws -> Value
) async -> APIError? {
    do {
        let value = try await operation()
        Issue.record("expected an APIError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A loopback port where nothing listens, held (bound, not listening) while `body` runs, so no
/// other test can take it in the meantime.
func withClosedLoopbackPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let (descriptor, port) = try FaultServer.bindLoopback()
    defer { close(descriptor) }
    return try await body(port)
}


/// A server that reads each request and, for the connections `drops` picks (by number, from 1),
/// closes without a word — a server dropping a kept-alive connection as it is reused; the others
/// answer `{"n":number}`.
func connectionDroppingServer(_ drops: @escaping @Sendable (Int) -> Bool) throws -> (server: FaultServer, resetCount: @Sendable () -> Void) {
    let connections = Mutex(0)
    let server = try FaultServer { connection in
        let number = connections.withLock { count -> Int in
            count += 1
            return count
        }
        if drops(number) { return }
        try connection.respond(body: Array(#"{"n":\#(number)}"#.utf8))
    }
    return (server, { connections.withLock { $0 = 0 } })
}
