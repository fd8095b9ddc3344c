import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypedAPI

// Lesson 1, the untyped stage: a request is a method, a path and optional parts; the caller picks
// the response type, and any method may carry a body. `misuse.swift` compiles and fails at run time.
// Your task: give the request a phantom response type (write-up 1's Request<Response>; TypedAPI's
// Endpoint<Kind, Response>) so that `misuse.swift` no longer compiles.

struct Repo: Decodable, Sendable {
    let fullName: String
    let stargazersCount: Int
}

struct SearchResponse: Decodable, Sendable {
    let totalCount: Int
    let items: [Repo]
}

struct GitHubRequest {
    var method = "GET"
    var path: String
    var query: [URLQueryItem] = []
    var body: Data?

    static func search(query: String) -> GitHubRequest {
        GitHubRequest(path: "/search/repositories", query: [URLQueryItem(name: "q", value: query)])
    }
}

struct GitHubService {
    let baseURL: URL

    func send<Response: Decodable>(_ request: GitHubRequest) async throws -> Response {
        var components = URLComponents(url: baseURL.appendingPathComponent(request.path), resolvingAgainstBaseURL: false)
        components?.queryItems = request.query
        guard let url = components?.url else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        let (data, _) = try await URLSession.shared.data(for: urlRequest)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Response.self, from: data)
    }
}
