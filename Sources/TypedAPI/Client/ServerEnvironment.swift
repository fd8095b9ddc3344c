import Foundation

/// Where requests go: scheme, host, port and a path prefix, under a name such as `production`.
public struct ServerEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// The environment's name, such as `production`, `staging` or `local`.
    public var name: String
    /// `http` or `https`.
    public var scheme: String
    /// The host name or address.
    public var host: String
    /// The port, or `nil` for the scheme's default.
    public var port: Int?
    /// A path that every endpoint path is placed below, such as `/api/v2`; empty for none.
    public var pathPrefix: String
    /// How requests to this environment's origin set up TLS: the system's trust store unless
    /// changed (a private CA, a client certificate, `--insecure`).
    public var tls: TLSOptions = .system

    /// Creates an environment from its parts.
    ///
    /// - Throws: ``APIError/invalidURL(_:reason:)`` naming the part that is wrong.
    public init(name: String = "default", scheme: String = "https", host: String, port: Int? = nil,
                pathPrefix: String = "") throws {
        let scheme = scheme.lowercased()
        let shown = "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(pathPrefix)"
        guard scheme == "http" || scheme == "https" else {
            throw APIError.invalidURL(shown, reason: "the scheme '\(scheme)' is not http or https")
        }
        guard !host.isEmpty else { throw APIError.invalidURL(shown, reason: "the host is empty") }
        if let bad = host.first(where: { $0 == " " || $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" }) {
            throw APIError.invalidURL(shown, reason: "the host '\(host)' contains \(URLParts.describe(bad))")
        }
        if let port, !(1...65535).contains(port) {
            throw APIError.invalidURL(shown, reason: "the port \(port) is not between 1 and 65535")
        }
        var prefix = pathPrefix
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty && !prefix.hasPrefix("/") { prefix = "/" + prefix }
        if let problem = URLParts.pathProblem(prefix) {
            throw APIError.invalidURL(shown, reason: "the path prefix '\(prefix)' \(problem)")
        }
        self.name = name
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathPrefix = prefix
    }

    /// Creates an environment from a base URL such as `https://api.example.com/v2`.
    ///
    /// - Throws: ``APIError/invalidURL(_:reason:)`` naming the part that is wrong.
    public init(name: String = "default", url given: String) throws {
        // Errors repeat the URL: never with a password it carries.
        let url = URLParts.maskingUserinfo(given)
        let trimmed = given.trimmingCharacters(in: .whitespaces)
        guard let schemeEnd = trimmed.range(of: "://") else {
            throw APIError.invalidURL(url, reason: "it has no scheme; write it as http://host or https://host")
        }
        let scheme = String(trimmed[..<schemeEnd.lowerBound])
        let rest = trimmed[schemeEnd.upperBound...]
        if let mark = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            throw APIError.invalidURL(url, reason: "a base URL cannot have a query or fragment ('\(rest[mark...])')")
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = String(rest[authorityEnd...])
        if authority.contains("@") {
            throw APIError.invalidURL(url, reason: "credentials in the URL are not supported; set username and password (or a token) instead")
        }
        var host = String(authority)
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let portText = authority[authority.index(after: colon)...]
            guard let number = Int(portText) else {
                throw APIError.invalidURL(url, reason: "the port '\(portText)' is not a number")
            }
            host = String(authority[..<colon])
            port = number
        }
        try self.init(name: name, scheme: scheme, host: host, port: port, pathPrefix: path)
    }

    /// The base URL, such as `http://127.0.0.1:8080/api`.
    public var baseURL: String {
        var text = "\(scheme)://\(host)"
        if let port { text += ":\(port)" }
        return text + pathPrefix
    }

    /// The authority, `host` or `host:port`.
    public var authority: String {
        port.map { "\(host):\($0)" } ?? host
    }

    /// The base URL.
    public var description: String { baseURL }
}

/// Checks on URL parts, with wording a person can act on.
package enum URLParts {
    /// Characters allowed in a percent-encoded path (RFC 3986 `pchar` and `/`).
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,;=:@/%".utf8.contains(byte)
        }
    }

    /// Why a path is not valid, or `nil` when it is.
    static func pathProblem(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    return "has a '%' that does not start an escape such as %20"
                }
                index += 3
                continue
            }
            if !isPathCharacter(byte) {
                let character = path.utf8.index(path.utf8.startIndex, offsetBy: index)
                let shown = path[character...].first.map(describe) ?? "a byte that is not ASCII"
                return "contains \(shown); escape values placed in a path with Endpoint.escape(_:)"
            }
            index += 1
        }
        return nil
    }

    /// `url` with its user information masked (``Redaction/maskingUserinfo(in:)``):
    /// `http://ada:••••@host/` (the user name kept, so a person sees which URL it was).
    package static func maskingUserinfo(_ url: String) -> String {
        Redaction.maskingUserinfo(in: url)
    }

    /// A character described for an error message.
    static func describe(_ character: Character) -> String {
        switch character {
        case " ": "a space"
        case "\t": "a tab"
        case "\n": "a line break"
        default: "'\(character)'"
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }

}
