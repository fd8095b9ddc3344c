import Foundation
import TypedAPI

// Accounts: every body wrapped in {"result": …}; `search` needs a bearer token.

extension Endpoint where Kind == Public, Response == Session {
    /// `POST /v1/login`: a session whose token opens the bearer endpoints; 401 for wrong credentials.
    public static func login(user: String, password: String) -> Self {
        Endpoint(.post(.json(Credentials(user: user, password: password))), path: "/v1/login", envelope: "result")
            .decodingErrors(as: ErrorMessage.self)
    }
}

extension Endpoint where Kind == Basic, Response == Session {
    /// `GET /v1/token` with HTTP Basic authentication: a session for a user name and password
    /// (the demo's: ada / lovelace); 401 without them or with wrong ones.
    public static var issueToken: Self {
        Endpoint(path: "/v1/token", envelope: "result").decodingErrors(as: ErrorMessage.self)
    }
}

extension Endpoint where Kind == Public, Response == [User] {
    /// `GET /v1/users`: every account holder.
    public static var users: Self { Endpoint(path: "/v1/users", envelope: "result") }
}

extension Endpoint where Kind == Public, Response == User {
    /// `GET /v1/users/{id}`: one account holder.
    public static func user(id: UUID) -> Self {
        Endpoint(path: "/v1/users/\(id.uuidString)", envelope: "result").decodingErrors(as: ErrorMessage.self)
    }
}

extension Endpoint where Kind == Public, Response == [Item] {
    /// `GET /v1/featured`: featured items.
    public static var featured: Self { Endpoint(path: "/v1/featured", envelope: "result") }
}

extension Endpoint where Kind == Bearer, Response == SearchResults {
    /// `GET /v1/search?q=`: items matching a query. Needs an access token; 401 without a valid one.
    public static func search(query: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "q", value: query)]), path: "/v1/search", envelope: "result")
            .decodingErrors(as: ErrorMessage.self)
    }
}
