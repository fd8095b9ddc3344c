import Foundation
import HTTPTypes
import Synchronization

/// A transport that keeps every exchange it carries: the request as it was sent, and the answer —
/// from another transport it forwards to, or from a closure that answers without the network.
///
/// Each is kept as an ``Exchange`` (the record the client's delegate and a cassette hold too),
/// nothing masked: it is the request as the transport got it.
///
/// ```swift
/// // What a call sends, nothing sent: the closure answers.
/// let recorder = RecordingTransport { _, _ in (HTTPResponse(status: .noContent), Data()) }
/// try await client.replacingTransport(with: recorder).send(.deletePost(id: 3))
/// recorder.exchanges.first?.path   // "/posts/3"
///
/// // Real exchanges, kept as they went.
/// let recording = RecordingTransport(forwardingTo: URLSessionTransport())
/// ```
public final class RecordingTransport: HTTPTransport {
    /// One exchange: the request, and the answer or why there was none.
    public typealias Exchange = TypedAPI.Exchange

    private let answer: @Sendable (HTTPRequest, Data?, Duration, TLSOptions) async throws -> (HTTPResponse, Data)
    private let recorded = Mutex<[Exchange]>([])

    /// A transport that sends through `transport` and keeps each exchange.
    public init(forwardingTo transport: any HTTPTransport) {
        answer = { request, body, timeout, tls in try await transport.send(request, body: body, timeout: timeout, tls: tls) }
    }

    /// A transport that answers each request with `answer`, without the network, and keeps each exchange.
    public init(answering answer: @escaping @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)) {
        self.answer = { request, body, _, _ in try await answer(request, body) }
    }

    /// The exchanges so far, in the order they were sent.
    public var exchanges: [Exchange] { recorded.withLock { $0 } }

    /// Forgets the exchanges so far.
    public func removeAll() { recorded.withLock { $0.removeAll() } }

    /// Sends (or answers) and keeps the exchange; see ``HTTPTransport``.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    /// Sends (or answers) with TLS options and keeps the exchange; see ``HTTPTransport``.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        let (started, clock) = (Date(), ContinuousClock.now)
        func record(_ outcome: Exchange.Outcome) {
            let exchange = Exchange(head: request, body: body, started: started, duration: ContinuousClock.now - clock, outcome: outcome)
            recorded.withLock { $0.append(exchange) }
        }
        do {
            let (head, responseBody) = try await answer(request, body, timeout, tls)
            record(Exchange.response(head, body: responseBody))
            return (head, responseBody)
        } catch let failure as TransportFailure {
            record(.failure(failure))
            throw failure
        } catch {
            record(.failure(error is CancellationError ? TransportFailure(.cancelled, detail: "cancelled")
                : TransportFailure(.other, detail: String(describing: error))))
            throw error
        }
    }
}
