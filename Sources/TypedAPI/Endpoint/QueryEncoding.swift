import Foundation

/// Percent-encoding for query strings and form bodies.
///
/// `URLComponents` leaves `+`, `&`, `=` and `;` in query values as they are, which servers read
/// as a space or a separator. Here everything outside RFC 3986's unreserved set is escaped.
package enum QueryEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Items from a written query (`a=1&b=x%20y`), escapes decoded; `nil` when an escape is
    /// broken (`%zz`).
    package static func parse(_ query: String) -> [URLQueryItem]? {
        var items: [URLQueryItem] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = pieces[0].removingPercentEncoding else { return nil }
            if pieces.count == 2 {
                guard let value = pieces[1].removingPercentEncoding else { return nil }
                items.append(URLQueryItem(name: name, value: value))
            } else {
                items.append(URLQueryItem(name: name, value: nil))
            }
        }
        return items
    }

    /// Escapes one name or value.
    package static func escape(_ text: String) -> String {
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
