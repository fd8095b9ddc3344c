import Foundation

/// An HTTP method together with the payload that method may carry.
///
/// The cases make invalid requests unrepresentable: every method may carry query items, `POST`,
/// `PUT` and `PATCH` carry a body, and `GET`, `HEAD` and `DELETE` cannot: a `GET` with a body
/// cannot be written.
public enum HTTPMethod: Sendable {
    /// `GET` with optional query items.
    case get(query: [URLQueryItem] = [])
    /// `HEAD` with optional query items.
    case head(query: [URLQueryItem] = [])
    /// `POST` with a body and optional query items (`?notify=1`).
    case post(RequestBody, query: [URLQueryItem] = [])
    /// `PUT` with a body and optional query items.
    case put(RequestBody, query: [URLQueryItem] = [])
    /// `PATCH` with a body and optional query items.
    case patch(RequestBody, query: [URLQueryItem] = [])
    /// `DELETE` with optional query items, and no body.
    case delete(query: [URLQueryItem] = [])

    /// `DELETE` without query items.
    public static var delete: HTTPMethod { .delete(query: []) }

    // The misuses the cases refuse, refused by name: without these, `.delete(body)` meets the
    // `delete` property above and the compiler cannot say why ("cannot call value of
    // non-function type"), and `.get(body)` reads as a missing `query:` label.

    /// A `GET` has no body: this does not compile, and says so.
    @available(*, unavailable, message: "a GET carries no body: put the values in the query (.get(query: [URLQueryItem(name:value:)])), or send the body with .post, .put or .patch")
    public static func get(_ body: RequestBody, query: [URLQueryItem] = []) -> HTTPMethod { .get(query: query) }

    /// A `HEAD` has no body: this does not compile, and says so.
    @available(*, unavailable, message: "a HEAD carries no body: put the values in the query (.head(query: …))")
    public static func head(_ body: RequestBody, query: [URLQueryItem] = []) -> HTTPMethod { .head(query: query) }

    /// A `DELETE` has no body: this does not compile, and says so.
    @available(*, unavailable, message: "a DELETE carries no body: say what to delete in the path or the query (.delete(query: …))")
    public static func delete(_ body: RequestBody, query: [URLQueryItem] = []) -> HTTPMethod { .delete(query: query) }

    /// The method's name as it appears on the wire, such as `GET`.
    public var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        }
    }

    /// The query items the method carries.
    public var queryItems: [URLQueryItem] {
        switch self {
        case .get(let query), .head(let query), .delete(let query), .post(_, let query), .put(_, let query),
            .patch(_, let query):
            query
        }
    }

    /// The body the method carries, if any.
    public var body: RequestBody? {
        switch self {
        case .post(let body, _), .put(let body, _), .patch(let body, _): body
        case .get, .head, .delete: nil
        }
    }
}
