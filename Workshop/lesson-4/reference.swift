import Foundation
import TypedAPI

// Lesson 4, a typed design: each endpoint states its method, headers and response type (the
// write-up's APIRequestFor<T>); a DELETE answered with 204 is Endpoint<Public, Void> (TypedAPI's
// choice: the write-up leaves it open), and the client validates status and content type.

struct Post: Codable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

extension Endpoint where Kind == Public, Response == Post {
    static func post(id: Int) -> Self { Endpoint(path: "/posts/\(id)", headers: [.accept(["application/json"])]) }
}

extension Endpoint where Kind == Public, Response == Void {
    static func deletePost(id: Int) -> Self { Endpoint(.delete, path: "/posts/\(id)") }
}

struct BlogService {
    let client: APIClient

    func send<Response>(_ endpoint: Endpoint<Public, Response>) async throws -> Response {
        try await client.send(endpoint)
    }
}
