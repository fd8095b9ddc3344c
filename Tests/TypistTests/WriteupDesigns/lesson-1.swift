import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Lesson 1's design as write-up 1 writes it, from the article alone: `Request<Response>` whose
// generic parameter is never stored (a phantom type), methods as enum cases that carry what each
// may, and an async `decode(from:)`-style send whose result is the request's response type. The
// lesson's usage names the service `GitHubService` and the factory `search(query:)`.

struct Repo: Decodable {
    let fullName: String
    let stargazersCount: Int
}

struct SearchResponse: Decodable {
    let totalCount: Int
    let items: [Repo]
}

enum HttpMethod: Equatable {
    case get([URLQueryItem])
    case put(Data?)
    case post(Data?)
    case delete
    case head

    var name: String {
        switch self {
        case .get: "GET"
        case .put: "PUT"
        case .post: "POST"
        case .delete: "DELETE"
        case .head: "HEAD"
        }
    }
}

struct Request<Response> {
    let url: URL
    let method: HttpMethod
    var headers: [String: String] = [:]

    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        switch method {
        case .post(let data), .put(let data):
            request.httpBody = data
        case .get(let items):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.queryItems = items
            request = URLRequest(url: components?.url ?? url)
        case .delete, .head:
            break
        }
        request.allHTTPHeaderFields = headers
        request.httpMethod = method.name
        return request
    }
}

extension Request where Response == SearchResponse {
    static func search(query: String) -> Self {
        Request(url: URL(fileURLWithPath: "/search/repositories"), method: .get([URLQueryItem(name: "q", value: query)]))
    }
}

struct GitHubService {
    func send<Value: Decodable>(_ request: Request<Value>) async throws -> Value {
        let (data, _) = try await URLSession.shared.data(for: request.urlRequest)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Value.self, from: data)
    }
}
