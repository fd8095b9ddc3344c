import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypedAPI

// Lesson 2, the untyped stage: routes and methods are enums, but any route may be sent with any
// method and decoded as any model: `misuse.swift` deletes the post list and compiles.
// Your task: make the method part of each endpoint (TypedAPI's Endpoint), so the caller cannot pick it.

struct Post: Decodable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

enum BlogRoute {
    case posts
    case comments(postId: Int)
    var path: String {
        switch self {
        case .posts: "/posts"
        case .comments(let postId): "/comments?postId=\(postId)"
        }
    }
}

enum BlogMethod: String { case get = "GET", post = "POST", delete = "DELETE" }

struct APIConfig { let baseURL: URL }

struct HTTPError: Error { let status: Int }

struct BlogAPI {
    let config: APIConfig

    func request<T: Decodable>(_ route: BlogRoute, method: BlogMethod = .get) async throws -> T {
        guard let url = URL(string: config.baseURL.absoluteString + route.path) else { throw HTTPError(status: 0) }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw HTTPError(status: status) }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
