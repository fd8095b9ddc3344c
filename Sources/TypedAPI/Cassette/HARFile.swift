import Foundation

/// HAR 1.2 (the HTTP Archive format browsers' developer tools, Charles, Proxyman and mitmproxy
/// read and write), as much of it as a cassette uses. What a cassette does not need is optional
/// when read, so files other tools wrote (which leave out what they have no value for) open too. Typist's own fields are under `_typist`,
/// where the format puts custom fields (a leading underscore).
struct HARFile: Codable {
    var log: Log

    struct Log: Codable {
        var version = "1.2"
        var creator: Creator
        var entries: [Entry] = []
        var _typist: LogExtras?
    }

    struct Creator: Codable {
        var name: String
        var version: String
    }

    /// The cassette's own settings.
    struct LogExtras: Codable {
        /// What a request is matched on: `method`, `host`, `path`, `query`, `body`, `headers`.
        var match: [String]?
    }

    struct Entry: Codable {
        var startedDateTime: String
        var time: Double
        var request: Request
        var response: Response
        var cache: Cache? = Cache()
        var timings: Timings?
        var _typist: EntryExtras?
    }

    struct NameValue: Codable {
        var name: String
        var value: String
    }

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion: String? = "HTTP/1.1"
        var cookies: [NameValue]? = []
        var headers: [NameValue]?
        var queryString: [NameValue]?
        var postData: PostData?
        var headersSize: Int? = -1
        var bodySize: Int?
    }

    struct PostData: Codable {
        var mimeType: String?
        var text: String?
        /// `base64` when the body is not text (a HAR 1.2 extension every reader named above knows).
        var encoding: String?
    }

    struct Response: Codable {
        var status: Int
        var statusText: String
        var httpVersion: String? = "HTTP/1.1"
        var cookies: [NameValue]? = []
        var headers: [NameValue]?
        var content: Content?
        var redirectURL: String? = ""
        var headersSize: Int? = -1
        var bodySize: Int?
    }

    struct Content: Codable {
        var size: Int?
        var mimeType: String?
        var text: String?
        /// `base64` when the body is not text.
        var encoding: String?
    }

    struct Cache: Codable {}

    struct Timings: Codable {
        var send: Double? = 0
        var wait: Double?
        var receive: Double? = 0
    }

    struct EntryExtras: Codable {
        /// The endpoint the call was made through, as the host named it.
        var endpoint: String?
        /// The Swift type the response decodes into.
        var responseType: String?
        /// What was replaced by the mask before writing: header names, query names, `body`.
        var redactions: [String]?
        /// Why no response arrived (the response's status is 0 then, as browsers write it).
        var error: Failure?
        /// Why a stream ended before its end, after the recorded part of its body.
        var interruption: Failure?
    }

    struct Failure: Codable {
        var kind: String
        var detail: String
    }
}
