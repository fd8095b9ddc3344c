import Foundation

/// Takes the secrets out of an exchange before it is written: credential headers (by the rule of
/// ``Redaction/isSecretHeader(_:)``: `Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key` …),
/// query items with such names, the password in a URL's user information, and every known secret
/// value wherever it stands whole — in headers, the URL and both bodies, as written, JSON-escaped
/// and percent-encoded.
struct CassetteRedactor {
    /// The secret values to find, longest first, each in every form it may be written in.
    private(set) var secrets: [String] = []
    /// The values learned so far, as given (a request's credentials are learned on every call).
    private var learned: Set<String> = []

    /// Adds secrets, as written and in the forms a body or a URL carries them.
    mutating func learn(_ values: some Sequence<String>) {
        var known: Set<String>?
        for value in values {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed != Redaction.mask, learned.insert(trimmed).inserted else { continue }
            if known == nil { known = Set(secrets) }
            for form in Redaction.writtenForms(of: trimmed) where known?.insert(form).inserted == true { secrets.append(form) }
        }
        if known != nil { secrets.sort { $0.utf8.count > $1.utf8.count } }
    }

    /// Learns the secrets a request carries in its credential headers and URL.
    mutating func learn(from entry: Cassette.Entry) {
        var found: [String] = []
        // What the client sent as a credential, and the cookies the server set. (Other response
        // headers with such names are masked where they stand but teach nothing: their values
        // are not secrets to find elsewhere.)
        for header in entry.requestHeaders where Self.isCredential(header.name) {
            found += Self.credentialValues(header)
        }
        for header in Self.responseHeaders(of: entry) where header.isNamed("Set-Cookie") {
            found += Self.credentialValues(header)
        }
        // A password needs an `@`, a query a `?`: most URLs have neither, and are not parsed.
        if entry.url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }),
           let components = URLComponents(string: entry.url) {
            if let password = components.password { found.append(password) }
            for item in components.queryItems ?? [] where Redaction.isSecretHeader(item.name) {
                if let value = item.value { found.append(value) }
            }
        }
        learn(found)
    }

    /// The entry with every secret masked, and what was masked listed in its redactions.
    func redact(_ entry: Cassette.Entry) -> Cassette.Entry {
        var entry = entry
        var redactions: [String] = entry.redactions
        func note(_ what: String) { if !redactions.contains(what) { redactions.append(what) } }
        entry.requestHeaders = entry.requestHeaders.map { header in
            let masked = mask(header)
            if masked.value != header.value { note(header.name) }
            return masked
        }
        let url = maskURL(entry.url)
        if url != entry.url { note("url") }
        entry.url = url
        if let body = entry.requestBody {
            let masked = maskBytes(body)
            if masked != body { note("request body") }
            entry.requestBody = masked
        }
        if case .response(let status, let reason, let headers, let body) = entry.outcome {
            let maskedHeaders = headers.map { header in
                let masked = mask(header)
                if masked.value != header.value { note(header.name) }
                return masked
            }
            let maskedBody = maskBytes(body)
            if maskedBody != body { note("response body") }
            entry.outcome = .response(status: status, reason: reason, headers: maskedHeaders, body: maskedBody)
        } else if case .failure(var failure) = entry.outcome {
            failure.detail = maskText(failure.detail)
            entry.outcome = .failure(failure)
        }
        if var interruption = entry.interruption {
            interruption.detail = maskText(interruption.detail)
            entry.interruption = interruption
        }
        entry.redactions = redactions
        return entry
    }

    // MARK: Headers

    private static func isCredential(_ name: String) -> Bool { Redaction.isSecretHeader(name) }

    private static func responseHeaders(of entry: Cassette.Entry) -> [Cassette.Header] {
        if case .response(_, _, let headers, _) = entry.outcome { return headers }
        return []
    }

    /// The secret parts of a credential header's value.
    private static func credentialValues(_ header: Cassette.Header) -> [String] {
        let name = header.name.lowercased()
        let value = header.value
        switch name {
        case "cookie":
            return value.split(separator: ";").compactMap { pair in
                pair.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init)
            }
        case "set-cookie":
            let first = value.split(separator: ";", maxSplits: 1).first ?? ""
            return first.split(separator: "=", maxSplits: 1).dropFirst().first.map { [String($0)] } ?? []
        default:
            // `Bearer abc`, `Basic dXNlcjpwYXNz` (and the password inside), or the value itself.
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return [value] }
            var values = [String(parts[1])]
            if parts[0].lowercased() == "basic", let decoded = Data(base64Encoded: String(parts[1])),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                values.append(String(pair[pair.index(after: colon)...]))
            }
            return values
        }
    }

    /// A credential header with its secret part masked: the scheme of an `Authorization`, the
    /// names and attributes of cookies kept; other headers with secrets masked where they stand.
    private func mask(_ header: Cassette.Header) -> Cassette.Header {
        guard Self.isCredential(header.name) else { return .init(name: header.name, value: maskText(header.value)) }
        let mask = Redaction.mask
        let value: String
        switch header.name.lowercased() {
        case "cookie":
            value = header.value.split(separator: ";").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? "\(parts[0])=\(mask)" : String(pair)
            }.joined(separator: ";")
        case "set-cookie":
            var parts = header.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            if let first = parts.first, let equals = first.firstIndex(of: "=") {
                parts[0] = String(first[...equals]) + mask
            }
            value = parts.joined(separator: ";")
        default:
            let parts = header.value.split(separator: " ", maxSplits: 1)
            value = parts.count == 2 && parts[0].allSatisfy(\.isLetter) ? "\(parts[0]) \(mask)" : mask
        }
        return .init(name: header.name, value: value)
    }

    // MARK: URLs and bodies

    /// A URL with its user's password, its secret-named query items and every known secret in a
    /// query value masked. Each value is read decoded (`%2B`, and `+` as a form writes a space),
    /// so a secret with `+ / $ ? =` in it is found whatever encoding carried it; items that hold
    /// none keep their bytes.
    private func maskURL(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return maskText(url) }
        if components.password != nil { components.password = Redaction.mask }
        if let query = components.percentEncodedQuery {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { return String(item) }
                let name = String(parts[0])
                let value = String(parts[1])
                if Redaction.isSecretHeader(name.removingPercentEncoding ?? name) { return name + "=" + Self.encodedMask }
                let readings = [value.removingPercentEncoding, value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding]
                for decoded in readings.compactMap({ $0 }) {
                    let masked = maskText(decoded)
                    if masked != decoded { return name + "=" + (masked.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? Self.encodedMask) }
                }
                return String(item)
            }
            components.percentEncodedQuery = items.joined(separator: "&")
        }
        return maskText(components.string ?? url)
    }

    /// RFC 3986's unreserved characters: what a masked query value keeps as it is.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    private static let encodedMask = Redaction.mask.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "masked"

    /// Text with its secrets masked by the one rule (``Redaction/masking(_:in:)``): the shell's.
    private func maskText(_ text: String) -> String {
        Redaction.masking(secrets, in: text)
    }

    /// A body with its secrets masked: as text where it is UTF-8 (the rule of ``maskText(_:)``);
    /// a binary body, which has no words or fields, wherever the bytes of a secret as long as
    /// ``Redaction/freeTextMinimum`` stand.
    func maskBytes(_ bytes: Data) -> Data {
        guard !secrets.isEmpty, !bytes.isEmpty else { return bytes }
        if let text = String(validating: bytes, as: UTF8.self) {
            let masked = maskText(text)
            return masked == text ? bytes : Data(masked.utf8)
        }
        var data = Data(bytes)  // indices from 0
        for secret in secrets where secret.count >= Redaction.freeTextMinimum {
            let needle = Data(secret.utf8)
            var from = data.startIndex
            while let found = data.range(of: needle, in: from..<data.endIndex) {
                data.replaceSubrange(found, with: Data(Redaction.mask.utf8))
                from = found.lowerBound + Redaction.mask.utf8.count
            }
        }
        return data
    }
}
