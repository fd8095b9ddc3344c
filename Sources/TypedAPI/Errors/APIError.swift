import Foundation
import TypistText

/// Everything that can go wrong with a call, each case with what a person needs to act on it.
///
/// `description` is the message to show: it names the method and URL (secrets redacted) and
/// what happened — the status and the start of the body, the coding path with expected and found
/// values and the JSON around them, or the transport failure and what to check.
public enum APIError: Error, Sendable, CustomStringConvertible {
    /// A URL could not be formed; the reason names the offending part.
    case invalidURL(String, reason: String)
    /// The request could not be built (a body that does not encode, a header name that is not
    /// valid, request data the endpoint's kind rejects).
    case invalidRequest(RequestSummary, reason: String)
    /// No response arrived: refused, reset, host not found, TLS …
    case transport(RequestSummary, TransportFailure)
    /// A response arrived with a status the endpoint does not accept.
    case unacceptableStatus(RequestSummary, ResponseSummary)
    /// A response arrived with a content type other than the one asked for.
    case unexpectedContentType(RequestSummary, expected: String, ResponseSummary)
    /// The body did not decode into the endpoint's response type.
    case decodingFailed(RequestSummary, DecodingFailure)
    /// The call was cancelled.
    case cancelled(RequestSummary)
    /// The call took longer than its time limit.
    case timedOut(RequestSummary, after: Duration)
    /// The server redirected more times than the client follows.
    case tooManyRedirects(RequestSummary, count: Int)

    /// The request the error is about, when one was formed.
    public var request: RequestSummary? {
        switch self {
        case .invalidURL: nil
        case .invalidRequest(let request, _), .transport(let request, _), .unacceptableStatus(let request, _),
            .unexpectedContentType(let request, _, _), .decodingFailed(let request, _), .cancelled(let request),
            .timedOut(let request, _), .tooManyRedirects(let request, _):
            request
        }
    }

    /// The HTTP status, when a response arrived.
    public var status: Int? {
        switch self {
        case .unacceptableStatus(_, let response), .unexpectedContentType(_, _, let response): response.status
        default: nil
        }
    }

    /// The message to show a person.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid URL '\(url)': \(reason)"
        case .invalidRequest(let request, let reason):
            return "\(request): cannot build the request: \(reason)"
        case .transport(let request, let failure):
            return "\(request): \(failure)"
        case .unacceptableStatus(let request, let response):
            return "\(request): \(response.statusLine)\(response.bodyExcerpt.map { "\n\($0)" } ?? "")"
        case .unexpectedContentType(let request, let expected, let response):
            let found = response.contentType.map { "'\($0)'" } ?? "no content type"
            let encoding = response.contentEncoding.map { ", Content-Encoding: \($0)" } ?? ""
            return "\(request): expected '\(expected)' but the response (\(response.statusLine)\(encoding)) has \(found)"
                + (response.bodyExcerpt.map { "\n\($0)" } ?? "")
        case .decodingFailed(let request, let failure):
            return "\(request): \(failure)"
        case .cancelled(let request):
            return "\(request): cancelled"
        case .timedOut(let request, let limit):
            return "\(request): timed out after \(DurationText.describe(limit)); raise the timeout or check the server"
        case .tooManyRedirects(let request, let count):
            return "\(request): stopped after \(count) redirects; the server may be redirecting in a loop"
        }
    }
}

/// The method and URL of a request, secrets redacted.
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The method's wire name.
    public var method: String
    /// The URL with secret query values as `••••`.
    public var url: String

    /// Creates a summary.
    public init(method: String, url: String) {
        self.method = method
        self.url = url
    }

    /// `GET http://…`.
    public var description: String { "\(method) \(url)" }
}

/// What arrived: status, headers and body.
public struct ResponseSummary: Sendable {
    /// How many bytes of the body are shown in messages.
    public static let excerptLength = 512

    /// The status code.
    public var status: Int
    /// The reason phrase, such as `Not Found`.
    public var reason: String
    /// The headers, in order.
    public var headers: [HTTPHeader]
    /// The body (kept up to 64 KiB).
    public var body: Data
    /// The host's error model decoded from the body, when the endpoint names one and it decoded.
    public var serverError: (any Error & Sendable)?

    /// Creates a summary.
    public init(status: Int, reason: String, headers: [HTTPHeader], body: Data,
                serverError: (any Error & Sendable)? = nil) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body.count > 65_536 ? body.prefix(65_536) : body
        self.serverError = serverError
    }

    /// `404 Not Found`.
    public var statusLine: String {
        let phrase = reason.isEmpty ? Self.standardReasons[status] ?? "" : reason
        return phrase.isEmpty ? "\(status)" : "\(status) \(phrase)"
    }

    /// Reason phrases for transports that do not report the server's own.
    public static let standardReasons: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
        303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
        415: "Unsupported Media Type", 418: "I'm a teapot", 422: "Unprocessable Content", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    /// The `Content-Type` header.
    public var contentType: String? { header(named: "content-type")?.value }

    /// The first header of `name` (in lower case), as the response wrote it.
    package func header(named name: String) -> HTTPHeader? {
        headers.first { $0.isNamed(name) }
    }

    /// The `Content-Encoding` header (`gzip` …): the body shown was decoded from it.
    public var contentEncoding: String? { header(named: "content-encoding")?.value }

    /// The first 512 bytes of the body as text, or `nil` for an empty body. Control characters
    /// (an escape sequence, a NUL, compressed bytes) are shown as `\u{1B}`, never raw: a message
    /// that quotes a server must not drive the terminal it is printed on.
    public var bodyExcerpt: String? {
        guard !body.isEmpty else { return nil }
        let cut = body.prefix(Self.excerptLength)
        var text = TerminalText.sanitized(String(decoding: cut, as: UTF8.self))
        if body.count > Self.excerptLength { text += "… (\(body.count) bytes in all)" }
        return text
    }
}

/// Durations in words for messages.
enum DurationText {
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return String(format: "%.1f s", Double(milliseconds) / 1000)
    }
}
