import APIScript
import Foundation
import TypedAPI

extension Shell {
    /// The record type of `response`: the last HTTP exchange.
    static let exchangeType = RecordType(name: "Exchange", fields: [
        .init("method", .string), .init("url", .string), .init("status", .int),
        .init("headers", .dictionary(.string)), .init("duration", .double), .init("body", .string),
    ])

    /// The names the session itself defines. Each is `session.name`; the bare name too, unless
    /// an endpoint has it (a host's names win). No variable may take one.
    static let sessionGlobalNames = Set(sessionGlobalOrder)
    /// The same, in the order `:help` lists them.
    static let sessionGlobalOrder = ["baseURL", "token", "apiKey", "username", "password", "headers", "cookies",
                                     "timeout", "concurrency", "response", "last", "_"]

    /// Registers a session property as `session.name`, and as `name` when no endpoint has it.
    func registerSessionGlobal(_ global: HostGlobal) throws {
        try interpreter.register(global, qualifiedBy: QualifiedName.session)
    }

    /// The encoded `user:password` of Basic authentication is a secret of its own: masked where
    /// it shows (an `Authorization` echoed back). `:curl` writes Basic as `-u "user:${TYPIST_PASSWORD}"`.
    static func rememberBasic(_ session: Session) {
        let credentials = session.credentials
        guard let username = credentials.username, let password = credentials.password else { return }
        let encoded = String(BasicCredentials(username: username, password: password).authorization.dropFirst("Basic ".count))
        session.remember(secret: encoded, as: "TYPIST_BASIC_CREDENTIALS")
    }

    /// A session credential as a script variable: `nil` or a `String`; a secret one reads back as
    /// `••••` and is masked from the moment it is set, read by `:save` from `remembered`.
    static func credential(_ name: String, secret: Bool, _ summary: String,
                           _ field: WritableKeyPath<SessionCredentials, String?> & Sendable, session: Session,
                           remembered variable: String?) -> HostGlobal {
        HostGlobal(
            name: name, type: .optional(secret ? .secret : .string), summary: summary,
            get: { session.credentials[keyPath: field].map { secret ? Value.secret($0) : Value.string($0) } ?? .null },
            set: { value in
                switch value {
                case .string(let text), .secret(let text):
                    session.update { $0.credentials[keyPath: field] = text }
                    if let variable { session.remember(secret: text, as: variable) }
                    rememberBasic(session)
                case .null: session.update { $0.credentials[keyPath: field] = nil }
                default: throw SessionError("\(name) must be a String")
                }
            })
    }

    func registerSessionGlobals() throws {
        let client = client
        let session = session
        let hostHeaders = hostHeaders
        try registerSessionGlobal(HostGlobal(
            name: "baseURL", type: .string, summary: "where requests go, such as http://127.0.0.1:8080",
            get: { .string(client.environment.baseURL) },
            set: { value in
                guard case .string(let text) = value else { throw SessionError("baseURL must be a String") }
                client.environment = try Shell.moving(client.environment, to: text, session: session)
            }))
        try registerSessionGlobal(Self.credential("token", secret: true, "the access token for bearer endpoints (shown as ••••)",
                                                 \.token, session: session, remembered: "TYPIST_TOKEN"))
        try registerSessionGlobal(Self.credential("apiKey", secret: true, "the API key for API-key endpoints (shown as ••••)",
                                                 \.apiKey, session: session, remembered: "TYPIST_API_KEY"))
        try registerSessionGlobal(Self.credential("username", secret: false, "the user name for Basic endpoints",
                                                 \.username, session: session, remembered: nil))
        try registerSessionGlobal(Self.credential("password", secret: true, "the password for Basic endpoints (shown as ••••)",
                                                 \.password, session: session, remembered: "TYPIST_PASSWORD"))
        try registerSessionGlobal(HostGlobal(
            name: "cookies", type: .dictionary(.secret), summary: "the cookies servers set, by name (values shown as ••••); `cookies = [:]` clears them",
            get: {
                var byName: [String: Value] = [:]
                for cookie in session.cookies.cookies() { byName[cookie.name] = .secret(cookie.value) }
                return .dictionary(byName)
            },
            set: { value in
                guard case .dictionary(let entries) = value, entries.isEmpty else {
                    throw SessionError("cookies can only be cleared (cookies = [:]); servers set them")
                }
                session.cookies.removeAll()
            }))
        try registerSessionGlobal(HostGlobal(
            name: "headers", type: .dictionary(.string), summary: "extra headers sent with every request",
            get: { .dictionary(session.read(\.userHeaders).mapValues(Value.string)) },
            set: { value in
                guard case .dictionary(let entries) = value else { throw SessionError("headers must be [String: String]") }
                var headers: [String: String] = [:]
                for (name, value) in entries {
                    guard case .string(let text) = value else { throw SessionError("header '\(name)' must be a String") }
                    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }) else {
                        throw SessionError("'\(name)' is not a valid header name")
                    }
                    headers[name] = text
                    if Redaction.isSecretHeader(name) {
                        // The whole value, and the credential after its scheme ("Bearer …").
                        let variable = "TYPIST_HEADER_" + SecretNames.screamingSnakeCase(name)
                        session.remember(secret: text, as: variable)
                        if let space = text.firstIndex(of: " ") {
                            session.remember(secret: String(text[text.index(after: space)...]).trimmingCharacters(in: .whitespaces),
                                           as: variable + "_CREDENTIAL")
                        }
                    }
                }
                session.update { $0.userHeaders = headers }
                // The host's headers stay; the session's come after them and win.
                client.defaultHeaders = hostHeaders + headers.keys.sorted().map { .custom(name: $0, value: headers[$0] ?? "") }
            }))
        try registerSessionGlobal(HostGlobal(
            name: "timeout", type: .double, summary: "seconds a call may take",
            get: {
                let (seconds, attoseconds) = client.timeout.components
                return .double(Double(seconds) + Double(attoseconds) / 1e18)
            },
            set: { value in
                let seconds: Double
                switch value {
                case .double(let number): seconds = number
                case .int(let number): seconds = Double(number)
                default: throw SessionError("timeout must be a number of seconds")
                }
                guard seconds > 0, seconds <= 86_400 else { throw SessionError("timeout must be between 0 and 86400 seconds") }
                client.timeout = .milliseconds(Int(seconds * 1000))
            }))
        let limit = interpreter.concurrencyLimit
        try registerSessionGlobal(HostGlobal(
            name: "concurrency", type: .int,
            summary: "the most endpoint calls concurrentMap has in flight at once (1…256, 8 to start with)",
            get: { .int(limit.value) },
            set: { value in
                guard case .int(let count) = value, (1...ConcurrencyLimit.maximum).contains(count) else {
                    throw SessionError("concurrency must be a whole number from 1 to \(ConcurrencyLimit.maximum)")
                }
                limit.value = count
            }))
        let last = HostGlobal(name: "last", type: .any, summary: "the last result at the prompt", get: { session.read(\.last) })
        try registerSessionGlobal(last)
        try interpreter.register(HostGlobal(name: "_", type: .any, summary: last.summary, get: last.get))
        try registerSessionGlobal(HostGlobal(
            name: "response", type: .optional(.record(Self.exchangeType)),
            summary: "the last HTTP exchange: method, url, status, headers, duration, body",
            get: {
                guard let exchange = session.read(\.lastExchange) else { return .null }
                var headers: [String: Value] = [:]
                for header in exchange.responseHeaders { headers[header.name.lowercased()] = .string(header.value) }
                let (seconds, attoseconds) = exchange.duration.components
                return .record(Record(type: Self.exchangeType, values: [
                    .string(exchange.method), .string(exchange.url), .int(exchange.status ?? 0), .dictionary(headers),
                    .double(Double(seconds) + Double(attoseconds) / 1e18),
                    .string(String(decoding: exchange.responseBody, as: UTF8.self)),
                ]))
            }))
    }
}
