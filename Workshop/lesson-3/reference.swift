import Foundation
import TypedAPI

// Lesson 3, a typed design: the endpoint's kind says what it needs; the envelope is unwrapped by
// the endpoint; the service sends an endpoint only with its kind's request data.

struct Item: Decodable, Sendable {
    let id: Int
    let title: String
}

struct SearchResults: Decodable, Sendable {
    let query: String
    let items: [Item]
}

extension Endpoint where Kind == Bearer, Response == SearchResults {
    /// `GET /v1/search?q=`: needs a token; the answer is under "result".
    static func search(query: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "q", value: query)]), path: "/v1/search", envelope: "result")
    }
}

struct AccountsService {
    let client: APIClient

    /// Endpoints whose kind needs nothing.
    func send<Kind: EndpointKind, Response>(_ endpoint: Endpoint<Kind, Response>) async throws -> Response
    where Kind.RequestData == Void {
        try await client.send(endpoint)
    }

    /// Endpoints whose kind needs data, such as a Bearer endpoint's AccessToken.
    func send<Kind: EndpointKind, Response>(_ endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData) async throws -> Response {
        try await client.send(endpoint, with: data)
    }
}
