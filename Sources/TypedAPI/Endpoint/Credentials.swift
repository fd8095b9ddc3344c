import Foundation

/// An access token. It prints as `••••` so that it never lands in output or logs by accident.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringLiteral
{
    /// The token itself. Read it only to send it.
    public let rawValue: String

    /// Wraps a token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps a token literal (for tests and examples).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Always `••••`.
    public var description: String { Redaction.mask }
    /// Always `AccessToken(••••)`.
    public var debugDescription: String { "AccessToken(\(Redaction.mask))" }
}

/// An API key and where the service expects it.
public struct APIKeyCredential: Sendable, Hashable, CustomStringConvertible {
    /// Where an API key travels.
    public enum Placement: Sendable, Hashable {
        /// In a header named ``APIKeyCredential/name``.
        case header
        /// In a query item named ``APIKeyCredential/name``.
        case query
    }

    /// The header or query item name, such as `X-API-Key`.
    public let name: String
    /// The key. Read it only to send it.
    public let value: String
    /// Where the key travels.
    public let placement: Placement

    /// Creates a credential.
    public init(name: String = "X-API-Key", value: String, placement: Placement = .header) {
        self.name = name
        self.value = value
        self.placement = placement
    }

    /// The name with the value masked.
    public var description: String { "\(name): \(Redaction.mask)" }
}

/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct BasicCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name; it may not contain a `:`.
    public let username: String
    /// The password. Read it only to send it.
    public let password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Basic <base64 of username:password>`, as the `Authorization` header carries it.
    public var authorization: String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// The user name with the password masked.
    public var description: String { "\(username):\(Redaction.mask)" }
}

/// How secrets are shown.
public enum Redaction {
    /// What a secret prints as.
    public static let mask = "••••"

    /// Header names whose values are always secrets.
    public static let alwaysSensitiveHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Headers on nearly every exchange that carry no credential, as clients and servers spell them.
    static let commonPlainHeaders: Set<String> = [
        "Accept", "Accept-Encoding", "User-Agent", "Content-Type", "Content-Length", "Content-Encoding", "Date",
        "Server", "Connection", "Host", "Transfer-Encoding", "Location", "Cache-Control", "ETag", "Vary",
        "accept", "accept-encoding", "user-agent", "content-type", "content-length", "content-encoding", "date",
        "server", "connection", "host", "transfer-encoding", "location", "cache-control", "etag", "vary",
    ]

    /// Standard headers whose names have a credential's word but whose values are none, masked
    /// they would say what the server did not: CORS's `Access-Control-Allow-Credentials: true`, an
    /// `Idempotency-Key` (a request's own id), WebSocket's handshake nonce, HPKP's public pins.
    static let plainDespiteTheirWords: Set<String> = [
        "access-control-allow-credentials", "idempotency-key", "sec-websocket-key", "public-key-pins", "public-key-pins-report-only",
    ]

    /// Words that mark a name as carrying a credential, wherever they stand in it.
    static let secretWords: Set<String> = [
        "token", "secret", "password", "passwd", "pwd", "auth", "authorization", "session", "cookie", "credential",
        "credentials", "signature", "apikey", "key", "sid",
    ]

    /// Words that make a name a credential's even where a document says what is a secret: no
    /// service names data so. (`token`, `key` and `session` alone are not among them: Kinto's
    /// `_token` is a page cursor, a sort `key` is data.)
    static let unmistakableSecretWords: Set<String> = ["password", "passwd", "passphrase", "secret"]

    /// Whether a name says password or secret (`password`, `client_secret`, `X-Passphrase`): the
    /// one rule by name that still holds for a document's parameters, whose other credentials its
    /// security schemes name.
    package static func namesPasswordOrSecret(_ name: String) -> Bool {
        words(of: name).contains { unmistakableSecretWords.contains($0) }
    }

    /// Whether a header's (or parameter's) value is a secret by its name: the headers above, and
    /// any whose name has a word for a token, key, password, session or signature (`X-Api-Key`,
    /// `X-Auth-Token`, `Private-Token`, `X-Session-Id`, `apiKey`; not `Author`). Such values print
    /// as ``mask`` and never follow a redirect to another origin.
    public static func isSecretHeader(_ name: String) -> Bool {
        // The headers of every call, answered without taking the name apart.
        if commonPlainHeaders.contains(name) { return false }
        let lowercased = name.lowercased()
        if alwaysSensitiveHeaders.contains(lowercased) { return true }
        if plainDespiteTheirWords.contains(lowercased) { return false }
        return words(of: name).contains { secretWords.contains($0) }
    }

    /// `X-Api-Key` → x, api, key; `apiKey` → api, key.
    static func words(of name: String) -> [String] {
        // Nearly every name is ASCII, and a document's thousands of parameters are each asked
        // about at start-up: bytes, not characters and their Unicode properties.
        name.utf8.allSatisfy { $0 < 0x80 } ? asciiWords(of: name) : characterWords(of: name)
    }

    /// ``words(of:)`` for an ASCII name, byte by byte: the same words.
    static func asciiWords(of name: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previous: UInt8 = 0
        func endWord() {
            guard !current.isEmpty else { return }
            words.append(String(decoding: current, as: UTF8.self))
            current.removeAll(keepingCapacity: true)
        }
        for byte in name.utf8 {
            let isUpper = (0x41...0x5A).contains(byte)
            if isUpper || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) {
                if isUpper, (0x61...0x7A).contains(previous) { endWord() }
                current.append(isUpper ? byte | 0x20 : byte)
            } else {
                endWord()
            }
            previous = byte
        }
        endWord()
        return words
    }

    /// ``words(of:)`` for any name, character by character.
    static func characterWords(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current += character.lowercased()
            }
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
