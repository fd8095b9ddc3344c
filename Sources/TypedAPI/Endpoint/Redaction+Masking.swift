import Foundation

/// Where a secret is masked, and the forms it is written in: the one rule for what the shell
/// prints and what a cassette writes.
///
/// - A secret of ``freeTextMinimum`` characters or more is masked wherever it stands whole in free
///   text (``masking(whole:in:)``).
/// - A shorter one only where it stands as a credential: a secret-named field's value
///   (`"password": "pass"`, `api_key=pass`; ``maskingCredentialValues(_:in:)``) — and, structurally,
///   in credential headers, cookies and secret-named query items, which are masked whatever they hold.
/// - The user information of a URL (`https://ada:pass@host`, `https://TOKEN@host`) is a credential
///   wherever a URL stands (``maskingUserinfo(in:)``).
extension Redaction {
    /// How long a secret must be to be masked wherever it stands in free text; a shorter one would
    /// mask ordinary words (a password `post` in `post(id: 1)`), so it is masked only where it is a
    /// credential.
    package static let freeTextMinimum = 8

    /// `text` with every known secret masked by the rule: each of `secrets` (longest first) whole
    /// in free text when it is ``freeTextMinimum`` long, else where it is a field's credential
    /// value; and every URL's user information.
    package static func masking(_ secrets: [String], in text: String) -> String {
        var result = maskingUserinfo(in: text)
        for secret in secrets {
            result = secret.count >= freeTextMinimum ? masking(whole: secret, in: result) : maskingCredentialValues(secret, in: result)
        }
        return result
    }

    /// `text` with each occurrence of `secret` that is the whole value of a secret-named field
    /// masked: in JSON (`"password": "pass"`) or a form or query (`password=pass`).
    package static func maskingCredentialValues(_ secret: String, in text: String) -> String {
        guard !secret.isEmpty, text.contains(secret) else { return text }
        var result = ""
        var rest = text[...]
        while let found = rest.firstRange(of: secret) {
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            let endsValue = after.map { "\"&;, \n\r".contains($0) } ?? true
            result += rest[..<found.lowerBound]
            result += endsValue && isCredentialKey(before: text[..<found.lowerBound]) ? mask : String(rest[found])
            rest = text[found.upperBound...]
        }
        return result + rest
    }

    /// Whether `prefix` ends where a secret-named field's value begins: `"password": "`,
    /// `"api_key":"`, `password=`, `access_token=`.
    private static func isCredentialKey(before prefix: Substring) -> Bool {
        var rest = prefix
        let key: Substring
        if rest.last == "=" {
            rest.removeLast()
            let start = rest.lastIndex { !($0.isLetter || $0.isNumber || "_-.%".contains($0)) }.map { rest.index(after: $0) } ?? rest.startIndex
            key = rest[start...]
        } else if rest.last == "\"" {
            rest.removeLast()
            while rest.last?.isWhitespace == true { rest.removeLast() }
            guard rest.last == ":" else { return false }
            rest.removeLast()
            while rest.last?.isWhitespace == true { rest.removeLast() }
            guard rest.last == "\"" else { return false }
            rest.removeLast()
            guard let open = rest.lastIndex(of: "\"") else { return false }
            key = rest[rest.index(after: open)...]
        } else {
            return false
        }
        let name = String(key)
        return !name.isEmpty && (isSecretHeader(name) || namesPasswordOrSecret(name))
    }

    /// `text` with the user information of every URL in it masked: `https://ada:••••@host` (the
    /// user kept, so a person sees which one it was), `https://••••@host` for a user alone as long
    /// as a token (as git's URLs carry one; `ssh://git@host` keeps its user).
    package static func maskingUserinfo(in text: String) -> String {
        // Most texts (headers, bodies) have no `@` or no `://`: found in their bytes, without
        // Foundation's string search, which was most of what saving a cassette spent masking.
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: "@")), bytes.firstRange(of: "://".utf8) != nil else { return text }
        var result = ""
        var rest = text[...]
        while let scheme = rest.firstRange(of: "://") {
            result += rest[..<scheme.upperBound]
            let after = rest[scheme.upperBound...]
            // The authority runs to the first character that ends it (or ends the URL in prose).
            let end = after.firstIndex { "/?#".contains($0) || $0.isWhitespace || "\"'<>`".contains($0) } ?? after.endIndex
            let authority = after[..<end]
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                if let colon = userinfo.firstIndex(of: ":") {
                    result += userinfo[...colon] + mask
                } else {
                    // A user alone is a token when it is as long as one (`git@` is a user's name).
                    result += userinfo.count >= freeTextMinimum ? Substring(mask) : userinfo
                }
                result += after[at..<end]
            } else {
                result += authority
            }
            rest = after[end...]
        }
        return result + rest
    }

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
