import Foundation

/// Where a secret is masked in free text, and the forms it is written in: one rule for what the
/// shell prints and what a cassette writes.
extension Redaction {
    /// `text` with each occurrence of `secret` that no word character touches replaced by the mask.
    ///
    /// It must never change what a server said: a secret is masked only where its full value
    /// stands, in its own letter case, not inside a longer word (`lovelace` is not masked in
    /// `ada-lovelace` or `Lovelace`).
    package static func masking(whole secret: String, in text: String) -> String {
        guard !secret.isEmpty, text.contains(secret) else { return text }
        var result = ""
        var rest = text[...]
        while let found = rest.firstRange(of: secret) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            result += rest[..<found.lowerBound]
            result += isWordCharacter(before) || isWordCharacter(after) ? String(rest[found]) : mask
            rest = text[found.upperBound...]
        }
        return result + rest
    }

    /// Letters, digits, `-` and `_`: what names and logins are made of. Punctuation that ends a
    /// sentence (`.`) does not count, so a secret at the end of one is still masked.
    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "-" || character == "_"
    }

    /// A secret as it may be written: as is, JSON-escaped (once, and twice: JSON inside a JSON
    /// string, as an echo service returns a body it was sent; with `/` escaped or not; with every
    /// character past ASCII as `\uXXXX` or not), and percent-encoded (only the unreserved
    /// characters left, or what a query value or a path segment holds as it is; `%20` or `+`).
    package static func writtenForms(of secret: String) -> [String] {
        let once = jsonEscaped(secret)
        var forms = [secret, once, jsonEscaped(once)]
        forms += forms.map { $0.replacingOccurrences(of: "\\/", with: "/") }
        forms += forms.map(asciiOnly)
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        var queryValue = CharacterSet.urlQueryAllowed
        queryValue.remove(charactersIn: "&=+;#")
        var pathSegment = CharacterSet.urlPathAllowed
        pathSegment.remove(charactersIn: "/;")
        for allowed in [unreserved, queryValue, pathSegment] {
            guard let percent = secret.addingPercentEncoding(withAllowedCharacters: allowed), percent != secret else { continue }
            forms.append(percent)
            forms.append(percent.replacingOccurrences(of: "%20", with: "+"))
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }

    /// The inside of the JSON string that holds `text`, as the client's encoder writes it.
    private static func jsonEscaped(_ text: String) -> String {
        guard let data = try? APIClient.Configuration.defaultEncoder().encode(text), data.count >= 2 else { return text }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// `json` with every character past ASCII as `\uXXXX` (UTF-16, as Python's `json.dumps` writes).
    private static func asciiOnly(_ json: String) -> String {
        var result = ""
        for unit in json.utf16 {
            if unit < 0x80, let scalar = Unicode.Scalar(unit) {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }
}
