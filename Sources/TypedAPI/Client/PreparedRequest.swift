import Foundation

/// A request as built from an endpoint, before it is sent.
///
/// Endpoint kinds and ``APIClientDelegate/client(_:willSend:)`` may change it: add headers, sign
/// it, add query items. Values added as sensitive are shown as `••••` wherever the request is
/// described, and sensitive headers never follow a redirect to another origin.
public struct PreparedRequest: Sendable {
    /// The method's wire name, such as `GET`.
    public var method: String
    /// Where the request goes.
    public var environment: ServerEnvironment
    /// The percent-encoded path below the environment's prefix.
    public var path: String
    /// The query items, in order.
    public private(set) var queryItems: [URLQueryItem]
    /// The headers, in order.
    public private(set) var headers: [HTTPHeader]
    /// The body bytes, if any.
    public var body: Data?
    /// The time limit for this request.
    public var timeout: Duration
    private(set) var sensitiveHeaders: Set<String> = []
    private(set) var sensitiveQueryNames: Set<String> = []

    init(method: String, environment: ServerEnvironment, path: String, queryItems: [URLQueryItem],
         headers: [HTTPHeader], body: Data?, timeout: Duration) {
        self.method = method
        self.environment = environment
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Sets a header, replacing any of the same name (names compare case-insensitively).
    ///
    /// - Parameters:
    ///   - header: The header.
    ///   - sensitive: Whether the value is a secret; `Authorization`, `Proxy-Authorization` and
    ///     `Cookie` always are.
    public mutating func setHeader(_ header: HTTPHeader, sensitive: Bool = false) {
        headers.removeAll { $0.isNamed(header.name) }
        headers.append(header)
        if sensitive { sensitiveHeaders.insert(header.name.lowercased()) }
    }

    /// What a stream's request asks for unless its endpoint said what it accepts: an event stream,
    /// or JSON Lines.
    package mutating func acceptStreams() {
        if header(named: "Accept").map({ $0 == "application/json" }) ?? true {
            setHeader(.custom(name: "Accept", value: "text/event-stream, application/x-ndjson;q=0.9"))
        }
    }

    /// Whether the request asks for a stream (an event stream or JSON Lines).
    package var asksForStream: Bool {
        guard let accept = header(named: "Accept")?.lowercased() else { return false }
        return accept.contains("text/event-stream") || accept.contains("application/x-ndjson")
    }

    /// The headers that frame the body on the wire (`Content-Length`, `Transfer-Encoding`), which
    /// every transport writes itself from the body: one a caller sets is not sent, on any
    /// transport (URLSession sent a wrong one and then waited out the time limit; curl dropped it).
    package static let framingHeaders: Set<String> = ["content-length", "transfer-encoding"]

    /// The headers as they are sent: without ``framingHeaders``.
    package var sentHeaders: [HTTPHeader] {
        headers.filter { !Self.framingHeaders.contains($0.name.lowercased()) }
    }

    /// The value of a header, if set.
    public func header(named name: String) -> String? {
        headers.value(named: name)
    }

    /// Removes a header.
    public mutating func removeHeader(named name: String) {
        headers.removeAll { $0.isNamed(name) }
    }

    /// Appends a query item.
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - value: The item's value.
    ///   - sensitive: Whether the value is a secret, shown as `••••` in descriptions.
    public mutating func appendQueryItem(name: String, value: String?, sensitive: Bool = false) {
        queryItems.append(URLQueryItem(name: name, value: value))
        if sensitive { sensitiveQueryNames.insert(name) }
    }

    /// The request with one query parameter set to `value` — every item of that name replaced by
    /// one — as a cursor or page token names the next page (`pageToken=…`, `cursor=…`).
    package func settingQueryItem(named name: String, to value: String) -> PreparedRequest {
        var next = self
        next.queryItems.removeAll { $0.name == name }
        next.queryItems.append(URLQueryItem(name: name, value: value))
        next.sensitiveQueryNames.remove(name)
        return next
    }

    mutating func replaceQueryItems(_ items: [URLQueryItem]) {
        queryItems = items
        sensitiveQueryNames = []
    }

    /// Whether a header's value is a secret.
    public func isSensitive(header name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveHeaders.contains(lowered) || Redaction.isSecretHeader(lowered)
    }

    /// The full URL, secrets included. Send it; never print it.
    public var url: String { url(redacted: false) }

    /// The full URL with secret query values as `••••`.
    public var redactedURL: String { url(redacted: true) }

    /// The headers with secret values as `••••`.
    public var redactedHeaders: [HTTPHeader] {
        sentHeaders.map { isSensitive(header: $0.name) ? HTTPHeader(name: $0.name, value: Redaction.mask) : $0 }
    }

    /// The method and redacted URL, for errors and logs.
    public var summary: RequestSummary { RequestSummary(method: method, url: redactedURL) }

    /// The path and query, as sent on the request line.
    var pathAndQuery: String {
        var text = environment.pathPrefix + path
        if text.isEmpty { text = "/" }
        if !queryItems.isEmpty { text += "?" + query(redacted: false) }
        return text
    }

    private func url(redacted: Bool) -> String {
        var text = environment.baseURL + path
        if !queryItems.isEmpty { text += "?" + query(redacted: redacted) }
        return text
    }

    private func query(redacted: Bool) -> String {
        guard redacted, !sensitiveQueryNames.isEmpty else { return QueryEncoding.formEncoded(queryItems) }
        return queryItems.map { item in
            let name = QueryEncoding.escape(item.name)
            if sensitiveQueryNames.contains(item.name) { return "\(name)=\(Redaction.mask)" }
            return QueryEncoding.formEncoded([item])
        }.joined(separator: "&")
    }

    /// The request for the page a `Link: <…>; rel="next"` header or a `next` field points to:
    /// the same method, headers and credentials, at `location` (resolved against this request's
    /// URL). Query items the endpoint's kind added as secrets (an API key) stay, still secret,
    /// where the link leaves them out.
    ///
    /// - Throws: ``APIError/invalidURL(_:reason:)`` for a link that cannot be followed, or one on
    ///   another origin: credentials never go there, so neither does the next page.
    package func following(pageLink location: String) throws(APIError) -> PreparedRequest {
        var next = try Redirect.follow(self, to: location, status: 307)
        guard next.environment.hasSameOrigin(as: environment) else {
            throw APIError.invalidURL(location,
                                      reason: "the next page is on another origin than \(environment.baseURL); the session's credentials stay on theirs, so pages { … } stops")
        }
        for item in queryItems where sensitiveQueryNames.contains(item.name) {
            if !next.queryItems.contains(where: { $0.name == item.name }) { next.queryItems.append(item) }
        }
        next.sensitiveQueryNames = sensitiveQueryNames
        return next
    }
}
