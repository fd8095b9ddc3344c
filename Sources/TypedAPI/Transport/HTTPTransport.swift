import Foundation
import HTTPTypes

/// Sends one HTTP request and returns the response, without following redirects.
///
/// One small protocol so that a second transport, or an in-memory one for tests, is a few lines:
/// ``send(_:body:timeout:)`` is all a transport must write. ``APIClient`` calls
/// ``exchange(_:context:)`` for every request — whole or streamed, with the call's
/// ``CallContext`` — whose default sends with ``send(_:body:timeout:tls:)``, or for a streamed
/// answer with ``StreamingHTTPTransport/stream(_:body:idleTimeout:tls:)`` where the transport
/// adopts that protocol (and otherwise refuses with ``StreamingUnsupported``). A transport that
/// wants the context (a cassette names each exchange by it) implements ``exchange(_:context:)``.
/// ``APIClient`` follows redirects itself so that every transport drops credentials on a
/// redirect to another origin the same way.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The request head; `scheme`, `authority` and `path` are set.
    ///   - body: The body, if any.
    ///   - timeout: The time limit for the whole exchange.
    /// - Returns: The response head and the whole body.
    /// - Throws: ``TransportFailure`` when no complete response arrived, or `CancellationError`.
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data)

    /// Sends a request with TLS options other than the system's (a CA bundle, a client
    /// certificate, no server check).
    ///
    /// ``APIClient`` calls this for every request. The default implementation sends with
    /// ``send(_:body:timeout:)`` when `tls` is ``TLSOptions/system`` and otherwise fails with a
    /// ``TransportFailure`` of kind ``TransportFailure/Kind/tls`` saying the transport takes no TLS
    /// options: a transport that can apply them implements this too.
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data)

    /// Sends a request for the client, with the call it is part of: the one way ``APIClient``
    /// sends, whole bodies and streamed ones alike.
    ///
    /// - Parameters:
    ///   - request: The request, its time limit, TLS options and how its answer's body is wanted.
    ///   - context: The call: its endpoint and response type (``ExchangeLabel``), and what the
    ///     client's middlewares handed on.
    /// - Returns: The response head and its body, whole or as it arrives.
    func exchange(_ request: TransportRequest, context: CallContext) async throws -> TransportResponse

    /// Whether the transport applies ``TLSOptions`` other than the system's (a CA bundle, a client
    /// certificate, no server check): `true` unless it says otherwise, as ``URLSessionTransport``
    /// does (URLSession keeps the system's trust store). A shell refuses such options at start,
    /// and does not hand it the process's `CURL_CA_BUNDLE`, when this is `false`.
    var appliesTLSOptions: Bool { get }
}

extension HTTPTransport {
    /// Sends with ``send(_:body:timeout:)`` when `tls` is the system's; otherwise refuses, naming
    /// the options this transport cannot apply.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        guard tls.isSystemDefault else {
            throw TransportFailure(.tls, detail: "\(type(of: self)) cannot apply these TLS options (\(tls)); use a transport that can, such as curl")
        }
        return try await send(request, body: body, timeout: timeout)
    }

    /// `true`: a transport that cannot apply TLS options says so.
    public var appliesTLSOptions: Bool { true }

    /// Sends with ``send(_:body:timeout:tls:)``; a streamed answer is refused with
    /// ``StreamingUnsupported`` (a transport that streams adopts ``StreamingHTTPTransport``).
    public func exchange(_ request: TransportRequest, context: CallContext) async throws -> TransportResponse {
        guard request.delivery == .whole else { throw StreamingUnsupported(transport: String(describing: type(of: self))) }
        let (head, body) = try await send(request.head, body: request.body, timeout: request.timeout, tls: request.tls)
        return TransportResponse(head: head, body: .whole(body))
    }
}

/// Why no complete response arrived.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// The kinds of transport failure.
    public enum Kind: Sendable, Hashable {
        /// Nothing listens at the address.
        case connectionRefused
        /// The connection was closed before a complete response arrived.
        case connectionClosed
        /// The host name did not resolve.
        case hostNotFound
        /// The TLS handshake or certificate check failed.
        case tls
        /// The time limit passed.
        case timedOut
        /// The exchange was cancelled.
        case cancelled
        /// The body was larger than the transport accepts.
        case responseTooLarge
        /// Anything else.
        case other
    }

    /// The kind of failure.
    public var kind: Kind
    /// The underlying error's text.
    public var detail: String

    /// Creates a failure.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// What happened and what to check.
    public var description: String {
        switch kind {
        case .connectionRefused: "connection refused; is the server running on that host and port?"
        case .connectionClosed: "the connection closed before the response was complete (\(detail))"
        case .hostNotFound: "host not found; check the host name in the base URL (\(detail))"
        case .tls: "TLS failed: \(detail)"
        case .timedOut: "timed out (\(detail))"
        case .cancelled: "cancelled"
        case .responseTooLarge: "the response is larger than the transport accepts (\(detail))"
        case .other: detail
        }
    }
}
