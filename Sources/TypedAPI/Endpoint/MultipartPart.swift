import Foundation

/// One part of a `multipart/form-data` body (RFC 7578): a field's text, or a file.
public struct MultipartPart: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// The file's name, for a file part; `nil` for a field's text.
    public var filename: String?
    /// The part's media type; `nil` for plain text.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// Creates a part.
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - filename: The file's name, for a file part.
    ///   - contentType: The media type; `nil` for plain text.
    ///   - data: The bytes.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// A field's text (`purpose=fine-tune`).
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: Its text, sent as UTF-8.
    ///   - contentType: A media type for text that is not plain, such as `application/json`.
    public static func text(_ name: String, _ value: String, contentType: String? = nil) -> MultipartPart {
        MultipartPart(name: name, contentType: contentType, data: Data(value.utf8))
    }

    /// A file under a field's name.
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - file: The file.
    public static func file(_ name: String, _ file: UploadFile) -> MultipartPart {
        MultipartPart(name: name, filename: file.filename, contentType: file.contentType, data: file.data)
    }
}
