import Foundation
import HTTPTypes

/// What a transport is asked to send: the request, its body, and how the answer's body is wanted.
public struct TransportRequest: Sendable {
    /// How a response's body is wanted.
    public enum Delivery: Sendable, Hashable {
        /// The whole body, within the time limit for the whole exchange.
        case whole
        /// The body as it arrives (an event stream, JSON Lines); the time limit is the longest
        /// wait for the head.
        case streamed
    }

    /// The request head; `scheme`, `authority` and `path` are set.
    public var head: HTTPRequest
    /// The body, if any.
    public var body: Data?
    /// The time limit: for the whole exchange, or for the head of a streamed one.
    public var timeout: Duration
    /// How to set up TLS.
    public var tls: TLSOptions
    /// How the answer's body is wanted.
    public var delivery: Delivery

    /// Creates a request for a transport.
    public init(head: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions = .system, delivery: Delivery = .whole) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.tls = tls
        self.delivery = delivery
    }
}

/// A transport's answer: the head, and the body whole or as it arrives.
public struct TransportResponse: Sendable {
    /// A response body.
    public enum Body: Sendable {
        /// All of it.
        case whole(Data)
        /// Its chunks, read as they arrive.
        case streamed(HTTPBodyChunks)
    }

    /// The response head.
    public var head: HTTPResponse
    /// The body.
    public var body: Body

    /// Creates an answer.
    public init(head: HTTPResponse, body: Body) {
        self.head = head
        self.body = body
    }

    /// The body as chunks: a whole one is one chunk.
    public var chunks: HTTPBodyChunks {
        switch body {
        case .whole(let data): HTTPBodyChunks(whole: data)
        case .streamed(let chunks): chunks
        }
    }

    /// The whole body, read to its end when it streams.
    public func wholeBody() async throws -> Data {
        switch body {
        case .whole(let data):
            return data
        case .streamed(let chunks):
            var data = Data()
            for try await chunk in chunks { data.append(chunk) }
            return data
        }
    }
}

/// A transport that answers whole bodies only was asked for one as it arrives.
public struct StreamingUnsupported: Error, Sendable, CustomStringConvertible {
    /// The transport's type name.
    public var transport: String

    /// Creates the refusal for a transport type.
    public init(transport: String) { self.transport = transport }

    public var description: String {
        "this transport (\(transport)) cannot stream a response; CurlTransport and URLSessionTransport can "
            + "(a transport that can adopts StreamingHTTPTransport)"
    }
}
