import Foundation
import TypedAPI

// Lesson 2, a typed design: the configuration is a ServerEnvironment, the error is APIError, and
// each endpoint fixes its method and its model; the facade's one generic function takes an endpoint.

struct Post: Decodable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

extension Endpoint where Kind == Public, Response == [Post] {
    static var posts: Self { Endpoint(path: "/posts") }
}

struct BlogAPI {
    let client: APIClient

    init(baseURL: String) throws {
        client = APIClient(environment: try ServerEnvironment(url: baseURL), transport: URLSessionTransport())
    }

    func request<Response>(_ endpoint: Endpoint<Public, Response>) async throws(APIError) -> Response {
        try await client.send(endpoint)
    }
}
