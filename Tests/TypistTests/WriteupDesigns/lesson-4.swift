import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Lesson 4's design as write-up 4 writes it, from the article alone: an endpoint protocol with a
// path and a method, headers as enum cases, `APIRequestFor<ResultType>` whose result type must be
// decodable from the response's data, request processing that sets the headers, response
// processing that validates the status and the content type, and a client. The article leaves a
// body-less answer's type open; here a DELETE's result is `NoContent`, which decodes from nothing.
// The lesson's usage names the client `BlogService` and its call `send(_:)`.

enum HTTPMethod: String {
    case GET, POST, PUT, DELETE
}

protocol APIEndpoint {
    var path: String { get }
    var method: HTTPMethod { get }
}

enum PostsEndpoint: APIEndpoint {
    case getPost(Int)
    case deletePost(Int)

    var path: String {
        switch self {
        case .getPost(let id), .deletePost(let id): "posts/\(id)/"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .getPost: .GET
        case .deletePost: .DELETE
        }
    }
}

typealias MIMEType = String

enum HTTPHeader {
    case accept([MIMEType])
    case contentType(MIMEType)
    case custom(String, String)

    var key: String {
        switch self {
        case .accept: "Accept"
        case .contentType: "Content-Type"
        case .custom(let key, _): key
        }
    }

    var value: String {
        switch self {
        case .accept(let types): types.joined(separator: ", ")
        case .contentType(let type): type
        case .custom(_, let value): value
        }
    }
}

protocol APIResponseDecodable {
    init?(apiResponseData: Data) throws
}

struct Post: Decodable, APIResponseDecodable {
    let userId: Int
    let id: Int
    let title: String
    let body: String

    init?(apiResponseData: Data) throws {
        self = try JSONDecoder().decode(Post.self, from: apiResponseData)
    }
}

struct NoContent: APIResponseDecodable {
    init?(apiResponseData: Data) throws {}
}

struct APIRequestFor<ResultType: APIResponseDecodable> {
    let endpoint: any APIEndpoint
    var headers: [HTTPHeader] = []
    var query: [String: String] = [:]
}

extension APIRequestFor where ResultType == Post {
    static func post(id: Int) -> Self { APIRequestFor(endpoint: PostsEndpoint.getPost(id), headers: [.accept(["application/json"])]) }
}

extension APIRequestFor where ResultType == NoContent {
    static func deletePost(id: Int) -> Self { APIRequestFor(endpoint: PostsEndpoint.deletePost(id)) }
}

enum APIFailure: Error {
    case badRequest
    case invalidResponse
    case status(Int)
    case noData
}

struct BlogService {
    let baseURL: URL

    func send<ResultType>(_ request: APIRequestFor<ResultType>) async throws -> ResultType {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(request.endpoint.path), resolvingAgainstBaseURL: false) else {
            throw APIFailure.badRequest
        }
        components.queryItems = request.query.isEmpty ? nil : request.query.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else { throw APIFailure.badRequest }
        var httpRequest = URLRequest(url: url)
        httpRequest.httpMethod = request.endpoint.method.rawValue
        for header in request.headers { httpRequest.setValue(header.value, forHTTPHeaderField: header.key) }
        let (data, response) = try await URLSession.shared.data(for: httpRequest)
        guard let http = response as? HTTPURLResponse else { throw APIFailure.invalidResponse }
        guard (200..<300).contains(http.statusCode) else { throw APIFailure.status(http.statusCode) }
        if let contentType = http.value(forHTTPHeaderField: "Content-Type") {
            for case .accept(let acceptable) in request.headers where !acceptable.contains(where: contentType.hasPrefix) {
                throw APIFailure.invalidResponse
            }
        }
        guard let result = try ResultType(apiResponseData: data) else { throw APIFailure.noData }
        return result
    }
}
