import Foundation
import HTTPTypes

/// Sends one HTTP request and returns the response, without following redirects.
///
/// One small protocol so that a second transport, or an in-memory one for tests, is a few lines.
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
