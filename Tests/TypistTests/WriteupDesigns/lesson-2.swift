import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Lesson 2's design as write-up 2 writes it, from the article alone: HTTP methods and routes as
// enums, one HTTPError, an APIConfig of scheme and host, one generic request whose T the caller
// infers, and an API facade that builds each request (its method included) from a route. The
// lesson's usage names the facade `BlogAPI` and calls it with a route: `api.request(.posts)`.

enum HTTPMethod: String {
    case GET, POST, DELETE, PUT, PATCH

    func callAsFunction() -> String { rawValue }
}

enum Routes: String {
    case posts = "/posts"
    case comments = "/comments"

    func callAsFunction() -> String { rawValue }

    var method: HTTPMethod { .GET }
}

enum HTTPError: Error {
    case failedResponse
    case failedDecoding
    case invalidUrl
    case invalidData
}

struct APIConfig {
    let scheme: String
    let host: String
}

struct Post: Decodable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

protocol HTTPClient {
    func request<T: Decodable>(request: URLRequest) async throws(HTTPError) -> T
}

struct APIFetcher: HTTPClient {
    func request<T: Decodable>(request: URLRequest) async throws(HTTPError) -> T {
        guard let (data, response) = try? await URLSession.shared.data(for: request) else { throw .failedResponse }
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200...299).contains(status) else { throw .failedResponse }
        guard let value = try? JSONDecoder().decode(T.self, from: data) else { throw .failedDecoding }
        return value
    }
}

struct BlogAPI {
    let apiConfig: APIConfig
    let apiFetcher: any HTTPClient

    func request<T: Decodable>(_ route: Routes) async throws(HTTPError) -> T {
        var components = URLComponents()
        components.scheme = apiConfig.scheme
        components.host = apiConfig.host
        components.path = route()
        guard let url = components.url else { throw .invalidUrl }
        var request = URLRequest(url: url)
        request.httpMethod = route.method()
        return try await apiFetcher.request(request: request)
    }
}
