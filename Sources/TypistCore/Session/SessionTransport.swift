import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// The session's transport: the host's, or a cassette over it while one records or replays
/// (`--cassette`, `:record`). One client serves the whole session either way.
final class SessionTransport: HTTPTransport {
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

    var appliesTLSOptions: Bool { base.appliesTLSOptions }

    /// Through the cassette in use (which replays, or records from the host's transport), else
    /// the host's transport: whole or streamed alike.
    func exchange(_ request: TransportRequest, context: CallContext) async throws -> TransportResponse {
        if let cassette { return try await cassette.exchange(request, context: context) }
        return try await base.exchange(request, context: context)
    }
}
