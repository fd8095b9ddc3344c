import Foundation
import HTTPTypes

/// One HTTP endpoint: where it is, what it sends, and what it answers with.
///
/// `Kind` says what access the endpoint needs (``Public``, ``Bearer``, ``APIKey`` or a host's own
/// kind) and `Response` is the Swift type the answer decodes into. Both are phantom types: they
/// are never stored, but a call site that expects another response type, or that has no token for
/// a bearer endpoint, does not compile.
///
/// Hosts declare endpoints as static factories in constrained extensions:
///
/// ```swift
/// extension Endpoint where Kind == Public, Response == [Post] {
///     static var posts: Self { Endpoint(path: "/posts") }
/// }
/// ```
public struct Endpoint<Kind: EndpointKind, Response>: Sendable {
    /// The method and the query items or body it carries.
    public var method: HTTPMethod
    /// The path below the environment's path prefix, such as `/posts/1`. It must already be
    /// percent-encoded; use ``Endpoint/escape(_:)`` for values placed in it.
    public var path: String
    /// Headers for this endpoint only, added after the client's default headers.
    public var headers: [HTTPHeader]
    /// The status codes that count as success.
    public var acceptableStatusCodes: Range<Int> = 200..<300
    /// A time limit for this endpoint; the client's limit when `nil`.
    public var timeout: Duration?
    /// Whether redirects are followed (credentials never follow one to another origin).
    public var followsRedirects = true
    /// How the response body becomes a `Response`.
    public var decoding: ResponseDecoding<Response>
    /// How an error body becomes the host's error model, if the host named one.
    public var errorDecoding: ErrorDecoding?
    var decoder: JSONDecoder?

    /// Creates an endpoint with an explicit decoding.
    ///
    /// - Parameters:
    ///   - method: The method and its payload; `GET` by default.
    ///   - path: The percent-encoded path, such as `/posts/1`.
    ///   - headers: Extra headers for this endpoint.
    ///   - decoding: How the body becomes `Response`.
    public init(
        _ method: HTTPMethod = .get(),
        path: String,
        headers: [HTTPHeader] = [],
        decoding: ResponseDecoding<Response>
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.decoding = decoding
    }

    /// Percent-escapes a value for use as one path segment: a `/` in it is escaped too, and so
    /// are the segments `.` and `..`, which a client or server would otherwise read as "this
    /// folder" and "the folder above" and so request another resource.
    public static func escape(_ segment: String) -> String {
        switch segment {
        case ".": "%2E"
        case "..": "%2E%2E"
        default: QueryEncoding.escape(segment)
        }
    }

    /// This endpoint with another JSON decoder, such as one that converts snake_case keys.
    public func decoder(_ decoder: JSONDecoder) -> Self {
        var copy = self
        copy.decoder = decoder
        return copy
    }

    /// This endpoint with one more header.
    public func header(_ header: HTTPHeader) -> Self {
        var copy = self
        copy.headers.append(header)
        return copy
    }

    /// This endpoint with its own time limit.
    public func timeout(_ timeout: Duration) -> Self {
        var copy = self
        copy.timeout = timeout
        return copy
    }

    /// This endpoint accepting other status codes as success.
    public func accepting(statusCodes: Range<Int>) -> Self {
        var copy = self
        copy.acceptableStatusCodes = statusCodes
        return copy
    }

    /// This endpoint decoding error bodies (any unacceptable status) into the host's error model.
    ///
    /// The decoded value is in ``ResponseSummary/serverError`` of
    /// ``APIError/unacceptableStatus(_:_:)``.
    public func decodingErrors<Failure: Decodable & Error & Sendable>(as type: Failure.Type) -> Self {
        var copy = self
        copy.errorDecoding = ErrorDecoding { data, decoder in try? decoder.decode(Failure.self, from: data) }
        return copy
    }

    /// This endpoint answering with the status and headers beside the decoded value.
    public func includingResponse() -> Endpoint<Kind, APIResponse<Response>> {
        let inner = decoding
        var outer = ResponseDecoding<APIResponse<Response>>(accept: inner.accept, checksContentType: inner.checksContentType) { context in
            APIResponse(value: try inner.decode(context), status: context.response.status.code,
                        headers: context.response.headerFields, url: context.url)
        }
        outer.envelopeKey = inner.envelopeKey
        return redecoded(outer)
    }

    /// The same request with its response decoded another way; everything else (method, path,
    /// headers, accepted statuses, time limit, redirects, error model, decoder) stays.
    ///
    /// A tool can wrap the endpoint's own decoding, as ``includingResponse()`` does, or read the
    /// body itself where ``ResponseDecoding/isPlainJSON`` allows.
    public func redecoded<Other>(_ decoding: ResponseDecoding<Other>) -> Endpoint<Kind, Other> {
        var result = Endpoint<Kind, Other>(method, path: path, headers: headers, decoding: decoding)
        result.acceptableStatusCodes = acceptableStatusCodes
        result.timeout = timeout
        result.followsRedirects = followsRedirects
        result.errorDecoding = errorDecoding
        result.decoder = decoder
        return result
    }
}

extension Endpoint where Response: Decodable & SendableMetatype {
    /// An endpoint whose JSON response decodes into `Response`.
    ///
    /// - Parameters:
    ///   - method: The method and its payload; `GET` by default.
    ///   - path: The percent-encoded path, such as `/posts/1`.
    ///   - headers: Extra headers for this endpoint.
    public init(_ method: HTTPMethod = .get(), path: String, headers: [HTTPHeader] = []) {
        self.init(method, path: path, headers: headers, decoding: .json())
    }

    /// An endpoint whose JSON response wraps `Response` in an envelope, such as `{"result": …}`.
    ///
    /// - Parameters:
    ///   - method: The method and its payload; `GET` by default.
    ///   - path: The percent-encoded path.
    ///   - envelope: The key under which the value sits.
    ///   - headers: Extra headers for this endpoint.
    public init(_ method: HTTPMethod = .get(), path: String, envelope: String, headers: [HTTPHeader] = []) {
        self.init(method, path: path, headers: headers, decoding: .json(envelope: envelope))
    }
}

extension Endpoint where Response == Void {
    /// An endpoint that answers with no content, such as a `DELETE` answered with 204.
    public init(_ method: HTTPMethod = .get(), path: String, headers: [HTTPHeader] = []) {
        self.init(method, path: path, headers: headers, decoding: .none)
    }
}

extension Endpoint where Response == Data {
    /// An endpoint whose body is returned as raw bytes.
    public init(_ method: HTTPMethod = .get(), path: String, headers: [HTTPHeader] = []) {
        self.init(method, path: path, headers: headers, decoding: .data)
    }
}

extension Endpoint where Response == String {
    /// An endpoint whose body is returned as text (UTF-8, or the charset the response names).
    public init(_ method: HTTPMethod = .get(), path: String, headers: [HTTPHeader] = []) {
        self.init(method, path: path, headers: headers, decoding: .text)
    }
}

/// How an unacceptable response's body becomes the host's error model.
public struct ErrorDecoding: Sendable {
    let decode: @Sendable (Data, JSONDecoder) -> (any Error & Sendable)?
}

/// A decoded value together with the response it came from.
public struct APIResponse<Value> {
    /// The decoded value.
    public var value: Value
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPFields
    /// The URL that answered (after redirects).
    public var url: String
}

extension APIResponse: Sendable where Value: Sendable {}
