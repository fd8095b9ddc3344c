import Foundation

/// Percent-encoding for query strings and form bodies.
///
/// `URLComponents` leaves `+`, `&`, `=` and `;` in query values as they are, which servers read
/// as a space or a separator. Here everything outside RFC 3986's unreserved set is escaped.
enum QueryEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Escapes one name or value.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `name=value&name=value`, each part escaped; an item without a value is written as `name`.
    static func formEncoded(_ items: [URLQueryItem]) -> String {
        var result = ""
        for (index, item) in items.enumerated() {
            if index > 0 { result += "&" }
            result += escape(item.name)
            if let value = item.value {
                result += "="
                result += escape(value)
            }
        }
        return result
    }
}
