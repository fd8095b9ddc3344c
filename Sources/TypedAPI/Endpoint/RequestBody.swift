import Foundation

/// A host's own way of turning a value into request bytes (multipart, XML, protobuf …).
public protocol RequestBodyEncoding: Sendable {
    /// The `Content-Type` the encoded bytes have.
    var contentType: String { get }
    /// Produces the bytes to send.
    ///
    /// - Parameter jsonEncoder: The client's JSON encoder, for encodings that embed JSON.
    /// - Returns: The body bytes.
    /// - Throws: Any error; it is reported as ``APIError/invalidRequest(_:reason:)``.
    func encode(using jsonEncoder: JSONEncoder) throws -> Data
}

/// The body of a `POST`, `PUT` or `PATCH` request: JSON, bytes, text, a form or multipart parts.
public struct RequestBody: Sendable {
    /// The `Content-Type` of the encoded bytes.
    public let contentType: String
    /// The value a `json` body encodes, such as a `PostDraft`; `nil` for bytes, text, forms and
    /// custom encodings. Tools that describe an endpoint show its type and fields.
    public private(set) var value: (any Encodable & Sendable)?
    private let encoder: @Sendable (JSONEncoder) throws -> Data

    /// Creates a body from any encoding.
    public init(_ encoding: some RequestBodyEncoding) {
        self.contentType = encoding.contentType
        self.encoder = { try encoding.encode(using: $0) }
    }

    /// Encodes the body.
    ///
    /// - Parameter defaultEncoder: The encoder used when the body did not bring its own.
    /// - Returns: The bytes to send.
    /// - Throws: The encoding's error.
    public func encoded(defaultEncoder: JSONEncoder) throws -> Data {
        try encoder(defaultEncoder)
    }

    /// An `Encodable` value as JSON.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: An encoder for this body only; the client's encoder when `nil`.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> RequestBody {
        var body = RequestBody(contentType: "application/json") { defaultEncoder in
            try (encoder ?? defaultEncoder).encode(value)
        }
        body.value = value
        return body
    }

    /// Raw bytes with their content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(contentType: contentType) { _ in data }
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(contentType: contentType) { _ in Data(text.utf8) }
    }

    /// `application/x-www-form-urlencoded` fields, in order.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(contentType: "application/x-www-form-urlencoded") { _ in
            Data(QueryEncoding.formEncoded(fields).utf8)
        }
    }

    /// `multipart/form-data` parts, in order: fields' text and files (RFC 7578).
    ///
    /// The boundary is random (never made from the parts, which may hold a password); a cassette
    /// matches a replayed body to its recording part by part.
    public static func multipart(_ parts: [MultipartPart]) -> RequestBody {
        let (contentType, data) = MultipartEncoding.encoded(parts)
        return RequestBody(contentType: contentType) { _ in data }
    }

    private init(contentType: String, encoder: @escaping @Sendable (JSONEncoder) throws -> Data) {
        self.contentType = contentType
        self.encoder = encoder
    }
}
