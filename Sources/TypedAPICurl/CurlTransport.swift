import Foundation
import HTTPTypes
import TypedAPI

/// Sends requests with libcurl: the transport with the least overhead per call.
///
/// Every `CurlTransport` made with ``init(maximumResponseSize:)`` shares one libcurl multi handle,
/// driven by one thread of its own, so connections are kept alive and reused across calls and
/// across transports, and any number of calls can run at once. Code that wants to run on that
/// thread for long (a whole shell session) takes an engine of its own instead, with
/// ``withOwnEngine(maximumResponseSize:isolation:_:)``. The calling task is suspended, never blocked, while its exchange runs;
/// cancelling it aborts the exchange at once.
///
/// Like every transport, it follows no redirects (`APIClient` does, and drops credentials on a
/// redirect to another origin), and it ignores the `http_proxy` family of environment variables, as
/// the other transports do.
///
/// Building it needs libcurl's headers (`libcurl4-openssl-dev` on Debian and Ubuntu; macOS has them).
public struct CurlTransport: StreamingHTTPTransport {
    private let maximumResponseSize: Int
    private let engine: CurlEngine?

    /// The thread that drives libcurl, as a task executor.
    ///
    /// Code that runs here (`Task(executorPreference: CurlTransport.executor) { … }`) makes its calls
    /// without a thread switch in either direction: the fastest way to make many calls one after
    /// another. Keep long computations elsewhere, as they hold up every exchange in flight, and never
    /// block this thread waiting for a call (a semaphore, a synchronous wait): the call could not
    /// run, and the wait would never end. Nil when libcurl cannot start.
    public static var executor: (any TaskExecutor)? { CurlEngine.shared }

    /// Creates a transport.
    ///
    /// - Parameter maximumResponseSize: The largest body accepted, in bytes (256 MiB by default).
    public init(maximumResponseSize: Int = 256 << 20) {
        self.init(maximumResponseSize: maximumResponseSize, engine: CurlEngine.shared)
    }

    private init(maximumResponseSize: Int, engine: CurlEngine?) {
        self.maximumResponseSize = maximumResponseSize
        self.engine = engine
    }

    /// Runs `body` with a transport whose libcurl engine — multi handle, connections and thread —
    /// is its own, and ends the engine when `body` returns.
    ///
    /// `body` also gets the engine's thread as a task executor: code that runs there makes its
    /// calls without a thread switch, and a long computation there holds up only this
    /// transport's exchanges, not those of every other `CurlTransport` in the process (a shell
    /// session runs here; its script may compute for minutes). Exchanges still running when
    /// `body` returns fail, and work still directed at the executor runs on the global one.
    ///
    /// - Parameters:
    ///   - maximumResponseSize: The largest body accepted, in bytes (256 MiB by default).
    ///   - isolation: Where `body` runs: the caller's isolation.
    ///   - body: Gets the transport and its executor (nil when libcurl cannot start; the
    ///     transport's calls then fail).
    public static func withOwnEngine<T>(
        maximumResponseSize: Int = 256 << 20, isolation: isolated (any Actor)? = #isolation,
        _ body: (CurlTransport, (any TaskExecutor)?) async throws -> T
    ) async rethrows -> T {
        let engine = CurlEngine()
        defer { engine?.shutDown() }
        return try await body(CurlTransport(maximumResponseSize: maximumResponseSize, engine: engine), engine)
    }

    /// Sends one request; see `HTTPTransport.send(_:body:timeout:)`.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    /// Sends one request with TLS options: a CA bundle (`CURLOPT_CAINFO`, in place of the system's),
    /// a client certificate and key (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`), or no check of the
    /// server (`CURLOPT_SSL_VERIFYPEER` and `CURLOPT_SSL_VERIFYHOST` off); see
    /// `HTTPTransport.send(_:body:timeout:tls:)`.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        let (engine, transfer) = try transfer(request, body: body, timeout: timeout, tls: tls, stream: nil)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.waits(continuation)
                engine.submit(transfer)
            }
        } onCancel: {
            engine.cancel(transfer)
        }
    }

    /// Sends a request and returns its head as soon as its last line has arrived, with the body as
    /// chunks as they come; see `StreamingHTTPTransport`. At most a megabyte waits for a reader
    /// that is behind: libcurl then stops reading the connection until the reader catches up.
    /// `idleTimeout` limits connecting; the wait for the head and each gap are the caller's to
    /// limit (cancelling the task that waits ends the exchange). Dropping the chunks before their
    /// end closes the connection.
    public func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        let stream = CurlStream()
        let (engine, transfer) = try transfer(request, body: body, timeout: idleTimeout, tls: tls, stream: stream)
        let reader = StreamReader(stream: stream, transfer: transfer, engine: engine)
        engine.submit(transfer)
        let head: HTTPResponse
        do {
            head = try await stream.head()
        } catch is CancellationError {
            throw TransportFailure(.cancelled, detail: "cancelled")
        }
        return (head, HTTPBodyChunks { try await reader.next() })
    }

    /// The exchange for `request` and the engine to run it on: read whole, or into `stream`.
    private func transfer(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions,
                          stream: CurlStream?) throws -> (CurlEngine, CurlTransfer) {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path else {
            throw TransportFailure(.other, detail: "the request has no valid URL")
        }
        guard let engine else {
            throw TransportFailure(.other, detail: "libcurl could not be initialised")
        }
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return (engine, CurlTransfer(
            url: "\(scheme)://\(authority)\(path)", method: request.method.rawValue,
            headerLines: Self.headerLines(request.headerFields, hasBody: body != nil), body: body,
            timeoutMilliseconds: max(1, Int(clamping: milliseconds)), maximumResponseSize: maximumResponseSize, tls: tls,
            stream: stream))
    }

    /// A stream's reading end: the exchange is ended when the last reference to it goes, so a
    /// stream left before its end closes its connection.
    private final class StreamReader: Sendable {
        let stream: CurlStream
        let transfer: CurlTransfer
        let engine: CurlEngine

        init(stream: CurlStream, transfer: CurlTransfer, engine: CurlEngine) {
            self.stream = stream
            self.transfer = transfer
            self.engine = engine
        }

        deinit { engine.cancel(transfer) }

        func next() async throws -> Data? {
            do {
                return try await stream.next { engine.resume(transfer) }
            } catch is CancellationError {
                throw TransportFailure(.cancelled, detail: "cancelled")
            }
        }
    }

    /// The request's fields as curl header lines, with curl's own defaults (`Accept: */*`, a
    /// form content type for bodies, `Expect: 100-continue`) switched off where the request sets none.
    static func headerLines(_ fields: HTTPFields, hasBody: Bool) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(fields.count + 3)
        for field in fields where field.name != .contentLength && field.name != .transferEncoding {
            // "Name;" is curl's way to send a header with an empty value.
            lines.append(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)")
        }
        if fields[.accept] == nil { lines.append("Accept:") }
        if hasBody && fields[.contentType] == nil { lines.append("Content-Type:") }
        lines.append("Expect:")
        return lines
    }
}
