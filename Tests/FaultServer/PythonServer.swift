import Foundation

/// A Python web application (from PyPI, in the package's `.build-venv`) on an ephemeral loopback
/// port for the length of a test: ASGI ones on uvicorn — ``StarletteServer``'s streams, the
/// ``FastAPIServer`` application, the ``ConnexionServer`` service — and WSGI ones on Werkzeug
/// (the ``APIFlaskServer`` and ``FlaskRESTXServer`` services). ``stop()`` ends the process and waits for it; it also ends
/// with the test process, however that ends.
public final class PythonServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: ServerProcess

    /// Starts `program` — Python that prints the port it listens on, then serves — unless
    /// `unavailable` says why it cannot run.
    ///
    /// - Parameter name: The server's name, for errors.
    public static func start(_ program: String, unavailable: String?, name: String) async throws -> PythonServer {
        if let unavailable { throw ServerProcess.Failure(unavailable) }
        return try await ServerProcess.offThePool { try PythonServer(program: program, name: name) }
    }

    /// Starts `program` — Python that defines an ASGI `app` — followed by uvicorn serving it
    /// (``ServerProcess/servingOnUvicorn(_:)``), unless `unavailable` says why it cannot run.
    ///
    /// - Parameter name: The server's name, for errors.
    public static func startOnUvicorn(_ program: String, unavailable: String?, name: String) async throws -> PythonServer {
        try await start(program + ServerProcess.servingOnUvicorn(), unavailable: unavailable, name: name)
    }

    /// Starts `program` — Python that defines a WSGI `app` — followed by Werkzeug serving it
    /// (``ServerProcess/servingOnWerkzeug(_:)``), unless `unavailable` says why it cannot run.
    ///
    /// - Parameter name: The server's name, for errors.
    public static func startOnWerkzeug(_ program: String, unavailable: String?, name: String) async throws -> PythonServer {
        try await start(program + ServerProcess.servingOnWerkzeug(), unavailable: unavailable, name: name)
    }

    private init(program: String, name: String) throws {
        process = try ServerProcess(python: HttpbinServer.python, program: program, name: name)
        baseURL = "http://127.0.0.1:\(process.port)"
    }

    /// Ends the server and waits for it.
    public func stop() {
        process.end()
    }
}
