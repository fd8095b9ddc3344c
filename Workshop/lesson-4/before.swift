import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypedAPI

// Lesson 4, the untyped stage: one processing pipeline for every request, but the caller picks the
// response type, even for a DELETE that answers 204 with no body: `misuse.swift` reads a deleted
// post out of nothing, and compiles. Your task: give each endpoint its response type — Void for an
// answer without a body — so that `misuse.swift` no longer compiles.

struct Post: Codable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

struct BlogRequest {
    var method: String
    var path: String
    var headers: [String: String] = ["Accept": "application/json"]

    static func deletePost(id: Int) -> BlogRequest { BlogRequest(method: "DELETE", path: "/posts/\(id)") }
    static func post(id: Int) -> BlogRequest { BlogRequest(method: "GET", path: "/posts/\(id)") }
}

struct BlogService {
    let baseURL: URL

    func send<Response: Decodable>(_ request: BlogRequest) async throws -> Response {
        var urlRequest = URLRequest(url: baseURL.appendingPathComponent(request.path))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: urlRequest)
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
            throw URLError(.badServerResponse)
        }
        return try JSONDecoder().decode(Response.self, from: data)
    }
}
