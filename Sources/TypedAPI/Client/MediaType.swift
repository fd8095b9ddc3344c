/// Media-type matching for the content-type check, without Foundation: it runs on every call.
package enum MediaType {
    /// Whether a response's content type satisfies an accepted media type.
    ///
    /// `application/json` also accepts structured-syntax suffixes such as `application/problem+json`;
    /// `text/*` accepts any text type; parameters such as `charset` are ignored.
    /// How a stream with this `Content-Type` is framed, or nil for an answer that is not a stream.
    package enum StreamFraming {
        /// Server-sent events (`text/event-stream`).
        case events
        /// JSON Lines (`application/x-ndjson`, `application/jsonl`, `application/json-seq`…).
        case lines
    }

    package static func streamFraming(of contentType: String) -> StreamFraming? {
        let type = contentType.lowercased()
        if type.hasPrefix("text/event-stream") { return .events }
        let lines = ["application/x-ndjson", "application/jsonl", "application/json-seq", "application/jsonlines"]
        return lines.contains(where: type.hasPrefix) ? .lines : nil
    }

    static func matches(_ contentType: String, accepting accept: String) -> Bool {
        matches(found: essence(contentType[...]), wanted: essence(accept[...]))
    }

    /// Whether a response's content type satisfies an `Accept` header's list (`text/html,
    /// application/xhtml+xml;q=0.9, */*;q=0.1`); a type refused with `q=0` does not count.
    static func matches(_ contentType: String, acceptHeader: String) -> Bool {
        let found = essence(contentType[...])
        for item in acceptHeader.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let type = parts.first else { continue }
            if parts.count > 1, parts.dropFirst().contains(where: isZeroQuality) { continue }
            if matches(found: found, wanted: essence(type)) { return true }
        }
        return false
    }

    private static func matches(found: String, wanted: String) -> Bool {
        if wanted == "*/*" || found == wanted { return true }
        if wanted.hasSuffix("/*") { return found.hasPrefix(wanted.dropLast()) }
        if wanted == "application/json" { return found.hasSuffix("+json") }
        return false
    }

    /// `q=0`, `q=0.0`, `q=0.000`: the type is refused.
    private static func isZeroQuality(_ parameter: Substring) -> Bool {
        let text = trimmed(parameter).lowercased()
        guard text.hasPrefix("q=") else { return false }
        let number = text.dropFirst(2)
        return !number.isEmpty && number.allSatisfy { $0 == "0" || $0 == "." } && number.first == "0"
    }

    /// The type without parameters, trimmed and in lower case.
    private static func essence(_ value: Substring) -> String {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return trimmed(type).lowercased()
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
