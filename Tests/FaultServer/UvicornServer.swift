import Foundation

/// An ASGI application (Python, from PyPI in the package's `.build-venv`) served by uvicorn on an
/// ephemeral loopback port for the length of a test: ``StarletteServer``'s streams, the
/// ``FastAPIServer`` application, the ``ConnexionServer`` service. ``stop()`` ends the process and
/// waits for it; it also ends with the test process, however that ends.
public final class UvicornServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: ServerProcess

    /// Starts `program` — Python that defines `app` — followed by uvicorn serving it
    /// (``ServerProcess/servingOnUvicorn(_:)``), unless `unavailable` says why it cannot run.
    ///
    /// - Parameter name: The server's name, for errors.
    public static func start(_ program: String, unavailable: String?, name: String) async throws -> UvicornServer {
        if let unavailable { throw ServerProcess.Failure(unavailable) }
        return try await ServerProcess.offThePool { try UvicornServer(program: program, name: name) }
    }

    private init(program: String, name: String) throws {
        process = try ServerProcess(python: HttpbinServer.python, program: program + ServerProcess.servingOnUvicorn(), name: name)
        baseURL = "http://127.0.0.1:\(process.port)"
    }

    /// Ends the server and waits for it.
    public func stop() {
        process.end()
    }
}
