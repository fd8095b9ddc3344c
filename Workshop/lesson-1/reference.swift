import Foundation
import TypedAPI

// Lesson 1, a typed design: the endpoint's second generic parameter is its response (a phantom
// type), and HTTPMethod's cases carry only what each method may.

struct Repo: Decodable, Sendable {
    let fullName: String
    let stargazersCount: Int
}

struct SearchResponse: Decodable, Sendable {
    let totalCount: Int
    let items: [Repo]
}

extension Endpoint where Kind == Public, Response == SearchResponse {
    /// `GET /search/repositories?q=`: snake_case keys on the wire.
    static func search(query: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "q", value: query)]), path: "/search/repositories")
            .decoder(.snakeCase)
    }
}

extension JSONDecoder {
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

struct GitHubService {
    let client: APIClient

    func send<Response>(_ endpoint: Endpoint<Public, Response>) async throws -> Response {
        try await client.send(endpoint)
    }
}
