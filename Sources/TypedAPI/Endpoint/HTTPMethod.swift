import Foundation

/// An HTTP method together with the payload that method may carry.
///
/// The cases make invalid requests unrepresentable: `GET` and `HEAD` carry query items only,
/// `POST`, `PUT` and `PATCH` carry a body, and `DELETE` carries neither. A `GET` with a body
/// cannot be written.
public enum HTTPMethod: Sendable {
    /// `GET` with optional query items.
    case get(query: [URLQueryItem] = [])
    /// `HEAD` with optional query items.
    case head(query: [URLQueryItem] = [])
    /// `POST` with a body.
    case post(RequestBody)
    /// `PUT` with a body.
    case put(RequestBody)
    /// `PATCH` with a body.
    case patch(RequestBody)
    /// `DELETE`, with neither query items nor a body.
    case delete

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

    /// The query items the method carries (empty for methods that carry a body).
    public var queryItems: [URLQueryItem] {
        switch self {
        case .get(let query), .head(let query): query
        case .post, .put, .patch, .delete: []
        }
    }

    /// The body the method carries, if any.
    public var body: RequestBody? {
        switch self {
        case .post(let body), .put(let body), .patch(let body): body
        case .get, .head, .delete: nil
        }
    }
}
