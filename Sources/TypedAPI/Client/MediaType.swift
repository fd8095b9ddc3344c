import Foundation

/// Comparing `Content-Type` values with what was asked for in `Accept`.
enum MediaType {
    /// Whether a response's content type satisfies an accepted media type.
    ///
    /// `application/json` also accepts structured-syntax suffixes such as `application/problem+json`;
    /// `text/*` accepts any text type; parameters such as `charset` are ignored.
    static func matches(_ contentType: String, accepting accept: String) -> Bool {
        let found = essence(contentType)
        let wanted = essence(accept)
        if wanted == "*/*" || found == wanted { return true }
        if wanted.hasSuffix("/*") { return found.hasPrefix(wanted.dropLast()) }
        if wanted == "application/json" { return found.hasSuffix("+json") }
        return false
    }

    /// Whether a response's content type satisfies an `Accept` header's list (`text/html,
    /// application/xhtml+xml;q=0.9, */*;q=0.1`); a type refused with `q=0` does not count.
    static func matches(_ contentType: String, acceptHeader: String) -> Bool {
        acceptHeader.split(separator: ",").contains { item in
            let parameters = item.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if parameters.contains(where: { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" || $0 == "q=0.000" }) { return false }
            return matches(contentType, accepting: String(item))
        }
    }

    private static func essence(_ value: String) -> String {
        let type = value.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
