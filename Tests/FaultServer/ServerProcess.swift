import Foundation
import TypistProcess

/// A server program (Python) run as a child process that prints its port on its first line:
/// started with a clean signal mask and no descriptor but its standard ones (``ChildProcess``),
/// ending with the test process however it ends, its output read until the port (60 s at most,
/// on a loaded machine), and ended — SIGTERM, then SIGKILL — and waited for by ``end()``.
public struct ServerProcess: Sendable {
    /// The port the server printed.
    public let port: Int
    /// The server.
    private let child: ChildProcess

    /// The process.
    public var pid: pid_t { child.pid }

    /// Starts a Python `program` with `arguments` (its `sys.argv[1...]`) and reads the port it
    /// prints; the server ends when this process does, however it ends.
    ///
    /// Its standard input is a pipe that only this process holds: at ``end()``, or when a crashed
    /// test process's descriptors close, the server reads its end and exits. A crash otherwise
    /// left every server it had started running, for good.
    ///
    /// - Parameters:
    ///   - python: The interpreter.
    ///   - name: The server's name, for errors.
    public init(python: String, program: String, arguments: [String] = [], name: String) throws {
        let child: ChildProcess
        do {
            child = try ChildProcess([python, "-c", Self.endsWithInput + program] + arguments, input: .pipe, output: .pipe, errors: .null)
        } catch {
            throw Failure("cannot start \(name): \(error)")
        }
        let said = child.readOutput(until: { $0.contains(UInt8(ascii: "\n")) })
        let line = String(decoding: said.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            child.end()
            throw Failure("\(name) did not start (it printed '\(line)')")
        }
        self.port = port
        self.child = child
    }

    /// Ends the server and waits for it.
    public func end() { child.end() }

    /// Python run before a server's program: a thread that reads standard input to its end, then
    /// ends the process.
    static let endsWithInput = """
        import os as _typist_os, sys as _typist_sys, threading as _typist_threading
        _typist_threading.Thread(target=lambda: (_typist_sys.stdin.buffer.read(), _typist_os._exit(0)), daemon=True).start()

        """

    /// Python that ends an ASGI server's program: uvicorn serving `app` on a loopback socket that
    /// listens before its port is printed (a client that connects before uvicorn serves waits in
    /// the backlog).
    public static func servingOnUvicorn(_ app: String = "app") -> String {
        """

        import socket as _typist_socket, uvicorn as _typist_uvicorn
        _typist_listener = _typist_socket.socket()
        _typist_listener.bind(("127.0.0.1", 0))
        _typist_listener.listen(128)
        print(_typist_listener.getsockname()[1], flush=True)
        _typist_uvicorn.Server(_typist_uvicorn.Config(\(app), log_level="critical")).run(sockets=[_typist_listener])
        """
    }

    /// Python that ends a WSGI server's program: Werkzeug's threaded server around `app` on a
    /// loopback port, printed before it serves.
    public static func servingOnWerkzeug(_ app: String = "app") -> String {
        """

        from werkzeug.serving import make_server as _typist_make_server
        _typist_server = _typist_make_server("127.0.0.1", 0, \(app), threaded=True)
        print(_typist_server.port, flush=True)
        _typist_server.serve_forever()
        """
    }

    /// Runs `body` on a thread of its own (a server takes a moment to start, and the
    /// concurrency pool must not wait for it).
    public static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The first executable named `name` on `PATH`, or `nil`.
    public static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
