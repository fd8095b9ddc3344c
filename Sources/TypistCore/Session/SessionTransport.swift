import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// The session's transport: the host's, or a cassette over it while one records or replays
/// (`--cassette`, `:record`). One client serves the whole session either way.
final class SessionTransport: StreamingHTTPTransport {
    /// What requests go through when no cassette is in use.
    let base: any HTTPTransport
    private let current = Mutex<CassetteTransport?>(nil)

    init(base: any HTTPTransport) { self.base = base }

    /// The cassette in use, if any.
    var cassette: CassetteTransport? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        if let cassette { return try await cassette.send(request, body: body, timeout: timeout, tls: tls) }
        return try await base.send(request, body: body, timeout: timeout, tls: tls)
    }

    /// A stream goes through the cassette in use (which replays it, or records it from the host's
    /// transport), else through the host's transport when it can stream.
    func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        if let cassette {
            if cassette.records, !(base is any StreamingHTTPTransport) { throw cannotStream }
            return try await cassette.stream(request, body: body, idleTimeout: idleTimeout, tls: tls)
        }
        guard let streaming = base as? any StreamingHTTPTransport else { throw cannotStream }
        return try await streaming.stream(request, body: body, idleTimeout: idleTimeout, tls: tls)
    }

    private var cannotStream: StreamRefusal {
        StreamRefusal(reason: "this session's transport (\(type(of: base))) cannot stream; CurlTransport and URLSessionTransport can")
    }
}

/// Why the session's transport will not read a stream.
struct StreamRefusal: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
