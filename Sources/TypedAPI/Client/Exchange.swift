import Foundation
import HTTPTypes

/// One HTTP exchange: the request as it was sent and what came back — a response, or why none did.
///
/// The one exchange record of TypedAPI. ``APIClientDelegate/client(_:didReceive:)`` hands one
/// to a host after each response, ``RecordingTransport`` keeps one per request it carries, and a
/// ``Cassette`` is a list of them (``Cassette/Entry`` is this type). Headers are ``HTTPHeader``s,
/// in order, as spelled.
///
/// ```swift
/// let recorder = RecordingTransport { _, _ in (HTTPResponse(status: .noContent), Data()) }
/// try await client.replacingTransport(with: recorder).send(.deletePost(id: 3))
/// recorder.exchanges.first?.path      // "/posts/3"
/// recorder.exchanges.first?.status    // 204
/// ```
public struct Exchange: Sendable {
    /// What came back: a response, or why none did.
    public enum Outcome: Sendable {
        /// A complete response.
        case response(status: Int, reason: String, headers: [HTTPHeader], body: Data)
        /// No complete response (refused, reset, timed out …); a cassette replays the same failure.
        case failure(TransportFailure)
    }

    /// When the request was sent.
    public var started: Date
    /// How long the exchange took.
    public var duration: Duration
    /// The method's wire name, such as `GET`.
    public var method: String
    /// The URL, with its query. In a record made by the client or a cassette, secret query
    /// values are `••••`.
    public var url: String
    /// The request's headers. In a record made by the client or a cassette, secret values are `••••`.
    public var requestHeaders: [HTTPHeader]
    /// The request's body, if any.
    public var requestBody: Data?
    /// The response, or the failure.
    public var outcome: Outcome
    /// For a stream that failed after its response began: the failure, which came after the
    /// recorded body (the part of it that arrived). A replay reads the body, then fails so.
    /// `nil` for a stream that reached its end or that its reader left, and for every call.
    public var interruption: TransportFailure?
    /// The endpoint's name and the response's Swift type, when known.
    public var label: ExchangeLabel?
    /// What was masked before a cassette wrote it: header names, `query NAME`, `url`,
    /// `request body`, `response body`.
    public var redactions: [String]

    /// An exchange.
    public init(started: Date, duration: Duration, method: String, url: String, requestHeaders: [HTTPHeader],
                requestBody: Data?, outcome: Outcome, label: ExchangeLabel? = nil, redactions: [String] = [],
                interruption: TransportFailure? = nil) {
        self.started = started
        self.duration = duration
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.outcome = outcome
        self.label = label
        self.redactions = redactions
        self.interruption = interruption
    }

    /// The exchange of `request`, as it was sent, and its answer: secret query values and
    /// headers as `••••`.
    public init(request: PreparedRequest, response: HTTPResponse, body: Data, duration: Duration) {
        self.init(started: Date() - TimeInterval(duration.seconds), duration: duration, method: request.method,
                  url: request.redactedURL, requestHeaders: request.redactedHeaders, requestBody: request.body,
                  outcome: .response(status: response.status.code, reason: response.status.reasonPhrase,
                                     headers: HTTPHeader.list(response.headerFields), body: body))
    }

    /// The exchange of a request head as a transport got it, and its outcome (nothing masked).
    package init(head request: HTTPRequest, body: Data?, started: Date, duration: Duration, outcome: Outcome) {
        self.init(started: started, duration: duration, method: request.method.rawValue, url: Self.url(of: request),
                  requestHeaders: HTTPHeader.list(request.headerFields), requestBody: body, outcome: outcome)
    }

    /// The outcome of a response head and its body.
    package static func response(_ head: HTTPResponse, body: Data) -> Outcome {
        .response(status: head.status.code, reason: head.status.reasonPhrase, headers: HTTPHeader.list(head.headerFields), body: body)
    }

    /// The URL of a request head: scheme, authority, path and query.
    package static func url(of request: HTTPRequest) -> String {
        "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")"
    }

    /// The URL's path (`/posts/1`), or the whole URL when it has none.
    public var path: String { URLComponents(string: url)?.percentEncodedPath ?? url }

    /// The status, or nil for a failure.
    public var status: Int? {
        if case .response(let status, _, _, _) = outcome { return status }
        return nil
    }

    /// The reason phrase (empty for a failure).
    public var reason: String {
        if case .response(_, let reason, _, _) = outcome { return reason }
        return ""
    }

    /// The response headers (none for a failure).
    public var responseHeaders: [HTTPHeader] {
        if case .response(_, _, let headers, _) = outcome { return headers }
        return []
    }

    /// The response body (empty for a failure).
    public var responseBody: Data {
        if case .response(_, _, _, let body) = outcome { return body }
        return Data()
    }

    /// Why no response came, or nil when one did.
    public var failure: TransportFailure? {
        if case .failure(let failure) = outcome { return failure }
        return nil
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
