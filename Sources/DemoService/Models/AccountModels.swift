import Foundation

/// A logged-in session (`POST /v1/login`).
public struct Session: Codable, Sendable, Hashable {
    /// The bearer token for endpoints that need one.
    public var token: String
    /// Seconds until the token expires.
    public var expiresIn: Int
}

/// The body of `POST /v1/login`.
public struct Credentials: Codable, Sendable, Hashable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// An account holder.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The user's id.
    public var id: UUID
    /// The full name.
    public var name: String
    /// The Twitter handle.
    public var twitterHandle: String
    /// The GitHub user name.
    public var gitHubUsername: String
}

/// Something for sale.
public struct Item: Codable, Sendable, Hashable {
    /// The item's id.
    public var id: Int
    /// Its title.
    public var title: String
    /// Its price.
    public var price: Double
    /// Its tags.
    public var tags: [String]
}

/// The answer of `GET /v1/search`.
public struct SearchResults: Codable, Sendable, Hashable {
    /// The query as received.
    public var query: String
    /// How many items match.
    public var total: Int
    /// The matching items.
    public var items: [Item]
}

/// The error body of the account routes and of many faults: `{"error": …}`.
public struct ErrorMessage: Codable, Sendable, Hashable, Error {
    /// What went wrong.
    public var error: String
}
