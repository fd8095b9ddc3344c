import Foundation
import HTTPTypes
import Synchronization

/// A transport that hands a response's body over as it arrives, for event streams and JSON Lines.
///
/// The next chunk is read only when it is asked for, so a slow reader holds the connection back
/// (back-pressure); dropping the chunks before their end closes the connection.
public protocol StreamingHTTPTransport: HTTPTransport {
    /// Sends a request and returns its head as soon as it has arrived, with the body as chunks.
    ///
    /// - Parameters:
    ///   - request: The request head.
    ///   - body: The body, if any.
    ///   - idleTimeout: The longest wait for the head.
    ///   - tls: How to set up TLS.
    func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
}

extension StreamingHTTPTransport {
    /// Sends with ``HTTPTransport/send(_:body:timeout:tls:)``, or for a streamed answer with
    /// ``stream(_:body:idleTimeout:tls:)``.
    public func exchange(_ request: TransportRequest, context: CallContext) async throws -> TransportResponse {
        switch request.delivery {
        case .whole:
            let (head, body) = try await send(request.head, body: request.body, timeout: request.timeout, tls: request.tls)
            return TransportResponse(head: head, body: .whole(body))
        case .streamed:
            let (head, chunks) = try await stream(request.head, body: request.body, idleTimeout: request.timeout, tls: request.tls)
            return TransportResponse(head: head, body: .streamed(chunks))
        }
    }
}

/// A response body as it arrives: each element is the next chunk of bytes, `nil` at the end.
public struct HTTPBodyChunks: AsyncSequence, Sendable {
    public typealias Element = Data
    private let nextChunk: @Sendable () async throws -> Data?

    /// Chunks that `nextChunk` reads one by one, `nil` at the end.
    public init(_ nextChunk: @escaping @Sendable () async throws -> Data?) { self.nextChunk = nextChunk }

    /// A body at hand, as one chunk (a recorded answer replayed as a stream); then `failure`
    /// thrown, when given (a stream that failed part-way through), else the end.
    public init(whole body: Data, then failure: (any Error)? = nil) {
        let rest = Mutex<(body: Data?, failure: (any Error)?)>((body, failure))
        self.init {
            let next: Result<Data?, any Error> = rest.withLock { rest in
                if let body = rest.body {
                    rest.body = nil
                    return .success(body)
                }
                if let failure = rest.failure {
                    rest.failure = nil
                    return .failure(failure)
                }
                return .success(nil)
            }
            return try next.get()
        }
    }

    /// The next chunk, `nil` at the end.
    public func next() async throws -> Data? { try await nextChunk() }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: HTTPBodyChunks
        public mutating func next() async throws -> Data? { try await chunks.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }
}
