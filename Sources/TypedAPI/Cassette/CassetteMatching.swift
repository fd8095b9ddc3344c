import Foundation

/// What a request must share with a recorded exchange to be answered by it.
///
/// The default — method, path, query and body — leaves out scheme, host and port, so a cassette
/// recorded against one server replays under any base URL. Query items match in any order; JSON
/// bodies match as JSON (key order and spacing do not count). A recorded value that was masked
/// (`••••`) matches any value, so a cassette replays without the secrets it was recorded with.
public struct CassetteMatching: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The method.
    public static let method = CassetteMatching(rawValue: 1 << 0)
    /// The scheme, host and port.
    public static let host = CassetteMatching(rawValue: 1 << 1)
    /// The path.
    public static let path = CassetteMatching(rawValue: 1 << 2)
    /// The query items, in any order.
    public static let query = CassetteMatching(rawValue: 1 << 3)
    /// The body (JSON as JSON).
    public static let body = CassetteMatching(rawValue: 1 << 4)

    /// Method, path, query and body.
    public static let `default`: CassetteMatching = [.method, .path, .query, .body]

    private static let named: [(String, CassetteMatching)] = [
        ("method", .method), ("host", .host), ("path", .path), ("query", .query), ("body", .body),
    ]

    /// The parts' names, as a cassette file and `--match` write them.
    public var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }

    /// The parts named (unknown names are ignored).
    public init(names: [String]) {
        self = Self.named.reduce(into: []) { set, pair in if names.contains(pair.0) { set.insert(pair.1) } }
    }

    /// The parts named in `text` (`method,path`), or nil naming the first unknown one.
    public static func parse(_ text: String) -> Result<CassetteMatching, CassetteError> {
        var set: CassetteMatching = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let part = named.first(where: { $0.0 == name }) else {
                return .failure(CassetteError(path: "--match", reason: "unknown part '\(name)'; choose from method, host, path, query, body"))
            }
            set.insert(part.1)
        }
        return .success(set)
    }

    // MARK: Comparing

    /// A request's parts as matching reads them, parsed once.
    struct Parts {
        var method: String
        var url: String
        var path: String
        /// The query as written (after `?`, before `#`): two the same need no parsing to compare.
        var rawQuery: Substring?
        var body: Data?

        init(method: String, url: String, body: Data?) {
            self.method = method
            self.url = url
            // The path is what every entry is indexed by: read without a URL parser where the URL
            // is plain ASCII (a cassette of 10,000 entries opens a tenth faster).
            path = Self.plainPath(url) ?? URLComponents(string: url)?.percentEncodedPath ?? url
            let utf8 = url.utf8
            rawQuery = utf8.firstIndex(of: UInt8(ascii: "?")).map { mark in
                let rest = url[utf8.index(after: mark)...]
                return rest[..<(rest.utf8.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex)]
            }
            self.body = body
        }

        /// `scheme://host:port`, when host is matched.
        var origin: String {
            let components = URLComponents(string: url)
            return "\(components?.scheme ?? "")://\(components?.host ?? ""):\(components?.port.map(String.init) ?? "")"
        }

        /// The query's items, when the query is matched.
        var query: [URLQueryItem] { URLComponents(string: url)?.queryItems ?? [] }

        /// The percent-encoded path of an absolute URL with a plain host (letters, digits, `-._~`,
        /// a numeric port) and a path `URLComponents` keeps as written, as it gives it; nil for any
        /// other URL, which `URLComponents` then reads.
        static func plainPath(_ url: String) -> String? {
            var url = url
            return url.withUTF8 { bytes -> String? in
                // `scheme://`: a letter, then letters, digits, `+`, `-`, `.`.
                var index = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                    let byte = bytes[index] | 0x20
                    let letter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                    let other = bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
                        || bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".")
                    guard letter || (index > 0 && other) else { return nil }
                    index += 1
                }
                guard index > 0, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
                else { return nil }
                index += 3
                // The authority, up to the first `/`: a plain host name and a port of digits (any
                // other, a user, an IPv6 address, is read by URLComponents).
                let authority = index
                var port: Int?
                while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ":"), port == nil {
                        port = index
                    } else if port != nil {
                        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    } else {
                        let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                        let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                        guard letter || digit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                            || byte == UInt8(ascii: "~") else { return nil }
                    }
                    index += 1
                }
                if let port, port == authority || port + 1 == index { return nil }
                if index == bytes.count { return "" }
                guard index > authority else { return nil }
                let start = index
                var end = bytes.count
                while index < bytes.count {
                    let byte = bytes[index]
                    guard isPlain(byte) else { return nil }
                    if end == bytes.count {
                        if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                            end = index
                        } else if byte == UInt8(ascii: "%") {
                            // Kept only before two hex digits; URLComponents encodes a lone one.
                            guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return nil }
                        } else if !isPathByte(byte) {
                            return nil
                        }
                    }
                    index += 1
                }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
        }

        /// Printable ASCII other than the space.
        private static func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

        private static func isHex(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
        }

        /// What RFC 3986 allows in a path as it is (`pchar` and `/`), so URLComponents keeps it.
        private static func isPathByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "-._~!$&'()*+,;=:@/".utf8.contains(byte)
            }
        }

        /// The key entries are indexed by: the method and path, when both are matched.
        func key(_ matching: CassetteMatching) -> String {
            (matching.contains(.method) ? method : "") + " " + (matching.contains(.path) ? path : "")
        }
    }

    /// The differences between a request and a recorded one, in the parts matched; empty when
    /// the recorded one answers the request.
    func differences(_ live: Parts, from recorded: Parts) -> [String] {
        var differences: [String] = []
        if contains(.method), live.method != recorded.method {
            differences.append("method \(live.method), recorded \(recorded.method)")
        }
        if contains(.host), live.origin != recorded.origin {
            differences.append("host \(live.origin), recorded \(recorded.origin)")
        }
        if contains(.path), live.path != recorded.path {
            differences.append("path \(live.path), recorded \(recorded.path)")
        }
        if contains(.query), live.rawQuery != recorded.rawQuery, let difference = Self.queryDifference(live.query, recorded.query) {
            differences.append(difference)
        }
        if contains(.body), let difference = Self.bodyDifference(live.body, recorded.body) {
            differences.append(difference)
        }
        return differences
    }

    private static func queryDifference(_ live: [URLQueryItem], _ recorded: [URLQueryItem]) -> String? {
        var unmatched = recorded
        var extra: [URLQueryItem] = []
        for item in live {
            if let index = unmatched.firstIndex(where: { $0.name == item.name && matches(recorded: $0.value ?? "", live: item.value ?? "") }) {
                unmatched.remove(at: index)
            } else {
                extra.append(item)
            }
        }
        guard !extra.isEmpty || !unmatched.isEmpty else { return nil }
        func text(_ items: [URLQueryItem]) -> String {
            items.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        return "query \(extra.isEmpty ? "(nothing more)" : text(extra)), recorded \(unmatched.isEmpty ? "(nothing more)" : text(unmatched))"
    }

    private static func bodyDifference(_ live: Data?, _ recorded: Data?) -> String? {
        let live = live ?? Data()
        let recorded = recorded ?? Data()
        if live == recorded { return nil }
        if let liveJSON = try? JSONSerialization.jsonObject(with: live, options: [.fragmentsAllowed]),
            let recordedJSON = try? JSONSerialization.jsonObject(with: recorded, options: [.fragmentsAllowed])
        {
            guard let path = jsonDifference(liveJSON, recordedJSON, path: "$") else { return nil }
            return "body differs at \(path)"
        }
        if let liveText = String(validating: live, as: UTF8.self), let recordedText = String(validating: recorded, as: UTF8.self),
            matches(recorded: recordedText, live: liveText)
        {
            return nil
        }
        // Multipart bodies part by part: a file's bytes need not be text for a secret in a field to be masked.
        if let liveParts = multipartParts(live), let recordedParts = multipartParts(recorded) {
            guard liveParts.map(\.name) == recordedParts.map(\.name) else {
                return "body's parts \(liveParts.map(\.name).joined(separator: ", ")), recorded \(recordedParts.map(\.name).joined(separator: ", "))"
            }
            for (part, recordedPart) in zip(liveParts, recordedParts) where !samePart(part, recordedPart) {
                return "body's part '\(part.name)' differs"
            }
            return nil
        }
        return "body of \(live.count) bytes, recorded \(recorded.count) bytes"
    }

    /// The parts of a `multipart/form-data` body, by the boundary its first line names; nil for another body.
    private static func multipartParts(_ body: Data) -> [MultipartPart]? {
        guard body.starts(with: Array("--".utf8)), let end = body.firstIndex(of: 13), end > body.startIndex + 2 else { return nil }
        let boundary = String(decoding: body[(body.startIndex + 2)..<end], as: UTF8.self)
        return MultipartEncoding.parts(of: body, boundary: boundary)
    }

    private static func samePart(_ live: MultipartPart, _ recorded: MultipartPart) -> Bool {
        guard live.filename == recorded.filename, live.contentType == recorded.contentType else { return false }
        if live.data == recorded.data { return true }
        guard let liveText = String(validating: live.data, as: UTF8.self), let recordedText = String(validating: recorded.data, as: UTF8.self) else {
            return false
        }
        return matches(recorded: recordedText, live: liveText)
    }

    /// The JSON path of the first difference, or nil when the two are the same JSON.
    private static func jsonDifference(_ live: Any, _ recorded: Any, path: String) -> String? {
        switch (live, recorded) {
        case (let live as [String: Any], let recorded as [String: Any]):
            for key in Set(live.keys).union(recorded.keys).sorted() {
                let place = "\(path).\(key)"
                guard let liveValue = live[key], let recordedValue = recorded[key] else { return place }
                if let difference = jsonDifference(liveValue, recordedValue, path: place) { return difference }
            }
            return nil
        case (let live as [Any], let recorded as [Any]):
            guard live.count == recorded.count else { return path }
            for (index, pair) in zip(live, recorded).enumerated() {
                if let difference = jsonDifference(pair.0, pair.1, path: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (_, let recorded as String) where recorded.contains(Redaction.mask):
            // A masked value stands for any value of its place.
            if let live = live as? String { return matches(recorded: recorded, live: live) ? nil : path }
            return recorded == Redaction.mask ? nil : path
        case (let live as NSObject, let recorded as NSObject):
            return live.isEqual(recorded) ? nil : path
        default:
            return path
        }
    }

    /// Whether `live` is `recorded` with any text where the recording has the mask.
    static func matches(recorded: String, live: String) -> Bool {
        guard recorded.contains(Redaction.mask) else { return recorded == live }
        let pieces = recorded.components(separatedBy: Redaction.mask)
        var rest = live[...]
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 {
                return rest.hasSuffix(piece)
            } else {
                guard let found = rest.range(of: piece) else { return false }
                rest = rest[found.upperBound...]
            }
        }
        return true
    }
}
