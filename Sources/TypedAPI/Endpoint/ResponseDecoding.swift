import Foundation
import HTTPTypes

/// What a response decoder gets to work with.
public struct ResponseContext: Sendable {
    /// The response body.
    public var body: Data
    /// The response head.
    public var response: HTTPResponse
    /// The URL that answered (after redirects).
    public var url: String
    /// The JSON decoder in force: the endpoint's, or else the client's.
    public let decoder: JSONDecoder

    init(body: Data, response: HTTPResponse, url: String, decoder: JSONDecoder) {
        self.body = body
        self.response = response
        self.url = url
        self.decoder = decoder
    }
}

/// How a response body becomes an endpoint's `Response`.
public struct ResponseDecoding<Response>: Sendable {
    /// The media type asked for in `Accept`, or `nil` for any.
    public var accept: String?
    /// Whether the response's `Content-Type` must match ``accept``.
    public var checksContentType: Bool
    /// Produces the value.
    public var decode: @Sendable (ResponseContext) throws -> Response
    /// Whether the body is plain JSON for `Response`, decoded by the decoder in force and nothing
    /// else (``json()``). A tool that reads JSON itself, such as Typist's shell, may take its own
    /// path then, as long as it arrives at the same value.
    public internal(set) var isPlainJSON = false
    /// The key the response sits under, for `json(envelope:)`; tools that describe an endpoint show it.
    public internal(set) var envelopeKey: String?

    /// Creates a decoding.
    public init(
        accept: String?,
        checksContentType: Bool = true,
        decode: @escaping @Sendable (ResponseContext) throws -> Response
    ) {
        self.accept = accept
        self.checksContentType = checksContentType
        self.decode = decode
    }
}

extension ResponseDecoding where Response: Decodable & SendableMetatype {
    /// The body is JSON for `Response`.
    public static func json() -> Self {
        var decoding = Self(accept: "application/json") { context in
            try context.decoder.decode(Response.self, from: context.body)
        }
        decoding.isPlainJSON = true
        return decoding
    }

    /// The body is JSON with `Response` under `key`, such as `{"result": …}`.
    public static func json(envelope key: String) -> Self {
        var decoding = Self(accept: "application/json") { context in
            try context.decoder.decode(Envelope<Response>.self, from: context.body, configuration: key).value
        }
        decoding.envelopeKey = key
        return decoding
    }
}

extension ResponseDecoding where Response == Void {
    /// The body is ignored (204 No Content and the like).
    public static var none: Self { Self(accept: nil, checksContentType: false) { _ in () } }
}

extension ResponseDecoding where Response == Data {
    /// The body's bytes as they are.
    public static var data: Self { Self(accept: nil, checksContentType: false) { $0.body } }
}

extension ResponseDecoding where Response == String {
    /// The body as text, in the charset the response names (UTF-8 when it names none).
    public static var text: Self {
        Self(accept: "text/*", checksContentType: false) { context in
            let type = context.response.headerFields[.contentType]?.lowercased() ?? ""
            if type.contains("charset=iso-8859-1") || type.contains("charset=latin1") {
                return String(data: context.body, encoding: .isoLatin1) ?? ""
            }
            return String(decoding: context.body, as: UTF8.self)
        }
    }
}

/// A generic wrapper whose key is chosen by the endpoint.
struct Envelope<Wrapped: Decodable>: DecodableWithConfiguration {
    let value: Wrapped

    init(from decoder: any Decoder, configuration key: String) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        value = try container.decode(Wrapped.self, forKey: AnyCodingKey(key))
    }
}

/// A coding key made at run time.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
