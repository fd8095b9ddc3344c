import Foundation

/// Why a body did not decode: where, what was expected, what was found, and the JSON around it.
///
/// A ``ResponseDecoding`` may throw one itself (say, to name the type a wrapping decoding stands
/// for); ``APIClient`` reports it as it is.
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The Swift type being decoded, such as `[Post]`.
    public var type: String
    /// The coding path, such as `[3].id` or `items[0].owner.login`; empty for the top level.
    public var codingPath: String
    /// What the decoder expected, such as `Int`.
    public var expected: String
    /// What it found, such as `a string "one"`.
    public var found: String
    /// The JSON around the place, on one line.
    public var snippet: String?
    /// The response's `Content-Encoding` (`gzip` …), when it had one: the body was decoded from it.
    public var contentEncoding: String?

    /// Creates a failure.
    public init(type: String, codingPath: String, expected: String, found: String, snippet: String?) {
        self.type = type
        self.codingPath = codingPath
        self.expected = expected
        self.found = found
        self.snippet = snippet
    }

    /// Builds a failure from a decoding error and the body it came from.
    public init(_ error: any Error, decoding type: Any.Type, body: Data) {
        self.type = Self.sugared(String(describing: type))
        guard let error = error as? DecodingError else {
            self.codingPath = ""
            self.expected = "a valid body"
            self.found = String(describing: error)
            self.snippet = JSONLocator.snippet(of: body, at: 0)
            return
        }
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(let expected, let context):
            path = context.codingPath
            self.expected = Self.typeName(expected)
            self.found = ""
        case .valueNotFound(let expected, let context):
            path = context.codingPath
            self.expected = Self.typeName(expected)
            self.found = "null"
        case .keyNotFound(let key, let context):
            path = context.codingPath
            self.expected = "a value for the key '\(key.stringValue)'"
            self.found = "no such key"
        case .dataCorrupted(let context):
            path = context.codingPath
            self.expected = path.isEmpty ? "valid JSON" : "a valid value"
            self.found = Self.underlyingMessage(context)
        @unknown default:
            path = []
            self.expected = "a valid body"
            self.found = String(describing: error)
        }
        self.codingPath = Self.pathText(path)
        let located = JSONLocator.locate(path, in: body)
        if found.isEmpty {
            found = located.map { JSONLocator.describeValue(in: body, at: $0) } ?? "another type"
        }
        snippet = JSONLocator.snippet(of: body, at: located ?? 0)
        if case .dataCorrupted = error, body.isEmpty { found = "an empty body" }
        // JSONDecoder calls a number too large for its Swift type "not valid JSON": name the number.
        if case .dataCorrupted = error, path.isEmpty, let (number, offset) = Self.numberOutOfRange(in: body) {
            expected = "numbers that fit their Swift types (Int holds ±9223372036854775807)"
            found = "\(number), which does not fit"
            snippet = JSONLocator.snippet(of: body, at: offset)
            // Where it stands, as any other decoding error says (`at id`).
            if let place = JSONLocator.path(at: offset, in: body) { codingPath = place }
        }
    }

    /// The first number in a body that is valid JSON but too large for Swift's `Int` (written
    /// without a fraction or exponent) or outside `Double`'s range, and where it stands.
    static func numberOutOfRange(in body: Data) -> (String, Int)? {
        guard body.count <= 64 << 20 else { return nil }
        let bytes = [UInt8](body)
        // It is the number's fault when the body with a 0 in its place is valid JSON.
        func validWithout(_ range: Range<Int>) -> Bool {
            var replaced = bytes
            replaced.replaceSubrange(range, with: [UInt8(ascii: "0")])
            return (try? JSONSerialization.jsonObject(with: Data(replaced), options: [.fragmentsAllowed])) != nil
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Skip the string, escapes included.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, "-+.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let whole = !text.contains(where: { ".eE".contains($0) })
            if whole ? Int(text) == nil : !(Double(text).map(\.isFinite) ?? false) {
                return validWithout(start..<index) ? (text, start) : nil
            }
        }
        return nil
    }

    /// One message, with the snippet on its own line.
    public var description: String {
        let place = codingPath.isEmpty ? "" : " at \(codingPath)"
        var text = "cannot decode \(type)\(place): expected \(expected), found \(found)"
        if let contentEncoding { text += " (the body came with Content-Encoding: \(contentEncoding))" }
        if let snippet, !snippet.isEmpty { text += "\n    \(snippet)" }
        return text
    }

    /// `Array<Post>` as `[Post]`, `Optional<Int>` as `Int?`.
    static func sugared(_ name: String) -> String {
        if name.hasPrefix("Array<"), name.hasSuffix(">") { return "[\(sugared(String(name.dropFirst(6).dropLast())))]" }
        if name.hasPrefix("Optional<"), name.hasSuffix(">") { return sugared(String(name.dropFirst(9).dropLast())) + "?" }
        return name
    }

    static func pathText(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = JSONLocator.arrayIndex(key) {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    private static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }

    private static func underlyingMessage(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else {
            return context.debugDescription.isEmpty ? "invalid data" : context.debugDescription
        }
        let detail = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            ?? String(describing: underlying)
        return context.codingPath.isEmpty ? "text that is not JSON (\(detail))" : "\(context.debugDescription) (\(detail))"
    }
}
