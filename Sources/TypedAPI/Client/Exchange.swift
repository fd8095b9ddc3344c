import Foundation
import HTTPTypes

/// One request and the response it got, secrets redacted, for inspection (`:last`) and logs.
public struct Exchange: Sendable {
    /// The method's wire name.
    public var method: String
    /// The URL, secret query values as `••••`.
    public var url: String
    /// The request headers, secret values as `••••`.
    public var requestHeaders: [(name: String, value: String)]
    /// The request body, if any.
    public var requestBody: Data?
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The response headers.
    public var responseHeaders: [(name: String, value: String)]
    /// The response body.
    public var responseBody: Data
    /// How long the exchange took.
    public var duration: Duration

    /// The exchange of `request`, as it was sent, and its answer: secret query values and
    /// headers as `••••`.
    public init(request: PreparedRequest, response: HTTPResponse, body: Data, duration: Duration) {
        method = request.method
        url = request.redactedURL
        requestHeaders = request.redactedHeaders
        requestBody = request.body
        status = response.status.code
        reason = response.status.reasonPhrase
        responseHeaders = response.headerFields.map { ($0.name.rawName, $0.value) }
        responseBody = body
        self.duration = duration
    }
}
