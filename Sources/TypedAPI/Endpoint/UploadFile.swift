import Foundation

/// A file to send: its name, its media type and its bytes — a `multipart/form-data` body's file
/// part (``MultipartPart/file(_:_:)``), or a whole binary body.
public struct UploadFile: Sendable, Hashable {
    /// The name the service is told (`cat.png`), without a folder.
    public var filename: String
    /// The media type of the bytes (`image/png`).
    public var contentType: String
    /// The bytes.
    public var data: Data

    /// Creates a file from bytes.
    ///
    /// - Parameters:
    ///   - filename: The name the service is told.
    ///   - contentType: The media type; by the name's extension when `nil`
    ///     (``contentType(forFilename:)``).
    ///   - data: The bytes.
    public init(filename: String, contentType: String? = nil, data: Data) {
        self.filename = filename
        self.contentType = contentType ?? Self.contentType(forFilename: filename)
        self.data = data
    }

    /// Reads a file.
    ///
    /// - Parameters:
    ///   - url: A file URL; the file's last path component is its ``filename``.
    ///   - contentType: The media type; by the name's extension when `nil`.
    /// - Throws: The error reading it.
    public init(contentsOf url: URL, contentType: String? = nil) throws {
        self.init(filename: url.lastPathComponent, contentType: contentType, data: try Data(contentsOf: url))
    }

    /// The media type a file of this name usually has (`report.pdf` → `application/pdf`), and
    /// `application/octet-stream` for a name whose extension is not a common one.
    ///
    /// - Parameter filename: A file's name.
    /// - Returns: A media type.
    public static func contentType(forFilename filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return "application/octet-stream" }
        return commonTypes[filename[filename.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    private static let commonTypes: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "md": "text/markdown", "csv": "text/csv", "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript", "xml": "application/xml",
        "json": "application/json", "jsonl": "application/jsonl", "ndjson": "application/x-ndjson",
        "yaml": "application/yaml", "yml": "application/yaml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "wasm": "application/wasm",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "heic": "image/heic", "bmp": "image/bmp", "tiff": "image/tiff",
        "mp3": "audio/mpeg", "mpga": "audio/mpeg", "wav": "audio/wav", "m4a": "audio/mp4", "ogg": "audio/ogg",
        "oga": "audio/ogg", "flac": "audio/flac", "opus": "audio/opus", "mp4": "video/mp4", "mpeg": "video/mpeg",
        "webm": "video/webm", "mov": "video/quicktime",
    ]
}
