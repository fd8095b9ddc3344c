/// What kind of access an endpoint needs, and how that access is attached to a request.
///
/// Kinds are caseless enums. A kind's ``RequestData`` is what the caller must hand to
/// ``APIClient/send(_:with:)``; for ``Public`` it is `Void`, so `send(_:)` is enough, while a
/// ``Bearer`` endpoint cannot be sent without an ``AccessToken`` — the compiler demands it.
/// Hosts add their own kinds by conforming a caseless enum.
public protocol EndpointKind: SendableMetatype {
    /// The data this kind needs for every request, such as an access token.
    associatedtype RequestData: Sendable

    /// Attaches the request data to a request before it is sent.
    ///
    /// - Parameters:
    ///   - request: The request being built.
    ///   - data: The caller's request data.
    /// - Throws: When the data cannot be used; the error is reported as
    ///   ``APIError/invalidRequest(_:reason:)``.
    static func prepare(_ request: inout PreparedRequest, with data: RequestData) throws
}

/// An endpoint anyone may call: nothing is attached.
public enum Public: EndpointKind {
    /// Public endpoints need no data.
    public static func prepare(_ request: inout PreparedRequest, with data: Void) {}
}

/// An endpoint that needs an OAuth-style bearer token: `Authorization: Bearer <token>`.
public enum Bearer: EndpointKind {
    /// Sets the `Authorization` header from the token.
    public static func prepare(_ request: inout PreparedRequest, with token: AccessToken) {
        request.setHeader(.authorization("Bearer \(token.rawValue)"))
    }
}

/// An endpoint that needs a user name and password, sent as HTTP Basic authentication.
///
/// The credentials travel in `Authorization`, which is masked everywhere and never follows a
/// redirect to another origin.
public enum Basic: EndpointKind {
    /// Sets the `Authorization` header; a user name with a `:` is refused (RFC 7617 cannot carry it).
    public static func prepare(_ request: inout PreparedRequest, with credentials: BasicCredentials) throws {
        guard !credentials.username.contains(":") else {
            throw BasicCredentialsError(message: "a user name for Basic authentication cannot contain ':'")
        }
        request.setHeader(.authorization(credentials.authorization))
    }
}

/// Basic credentials that cannot be sent.
public struct BasicCredentialsError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// An endpoint that needs an API key, in a header or a query item.
public enum APIKey: EndpointKind {
    /// Adds the key where the credential says, marked as a secret.
    public static func prepare(_ request: inout PreparedRequest, with key: APIKeyCredential) {
        switch key.placement {
        case .header:
            request.setHeader(.custom(name: key.name, value: key.value), sensitive: true)
        case .query:
            request.appendQueryItem(name: key.name, value: key.value, sensitive: true)
        }
    }
}
