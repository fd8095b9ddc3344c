import TypedAPI

/// What the shell's session holds for endpoint kinds: the access token and an API key.
public struct SessionCredentials: Sendable {
    /// The bearer token, if any.
    public var token: String?
    /// The API key, if any.
    public var apiKey: String?
    /// The user name for Basic endpoints, if any.
    public var username: String?
    /// The password for Basic endpoints, if any.
    public var password: String?

    /// Creates credentials.
    public init(token: String? = nil, apiKey: String? = nil, username: String? = nil, password: String? = nil) {
        self.token = token
        self.apiKey = apiKey
        self.username = username
        self.password = password
    }

    /// Whether any credential is held (a token, an API key, a user name or a password).
    package var holdsAny: Bool {
        [token, apiKey, username, password].contains { $0.map { !$0.isEmpty } ?? false }
    }
}

/// An endpoint kind whose request data the shell can take from the session.
///
/// `Public`, `Bearer` and `APIKey` conform; a host's own kind conforms to be registered.
public protocol ShellKind: EndpointKind {
    /// The request data for a call, or an error that says how to provide it.
    ///
    /// - Parameters:
    ///   - session: The session's credentials.
    ///   - function: The script function's signature, such as `search(query:)`, for messages.
    static func requestData(from session: SessionCredentials, calling function: String) throws -> RequestData
}

/// A kind's request data is missing: the message says how to provide it.
public struct MissingCredentials: Error, Sendable, CustomStringConvertible {
    /// What to do.
    public var message: String

    /// Creates the error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension Public: ShellKind {
    /// Nothing is needed.
    public static func requestData(from session: SessionCredentials, calling function: String) {}
}

extension Bearer: ShellKind {
    /// The session's token.
    public static func requestData(from session: SessionCredentials, calling function: String) throws -> AccessToken {
        guard let token = session.token, !token.isEmpty else {
            throw MissingCredentials("\(function) needs an access token: set `token = …`")
        }
        return AccessToken(token)
    }
}

extension Basic: ShellKind {
    /// The session's user name and password.
    public static func requestData(from session: SessionCredentials, calling function: String) throws -> BasicCredentials {
        guard let username = session.username, !username.isEmpty, let password = session.password else {
            throw MissingCredentials("\(function) needs a user name and password: set `username = …` and `password = …`")
        }
        return BasicCredentials(username: username, password: password)
    }
}

extension APIKey: ShellKind {
    /// The session's API key, sent as `X-API-Key`.
    public static func requestData(from session: SessionCredentials, calling function: String) throws -> APIKeyCredential {
        guard let key = session.apiKey, !key.isEmpty else {
            throw MissingCredentials("\(function) needs an API key: set `apiKey = …`")
        }
        return APIKeyCredential(value: key)
    }
}
