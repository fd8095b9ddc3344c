import Foundation
import TypedAPI

// Lesson 3's design as write-up 3 writes it, from the article alone: each kind says what request
// data it needs, and the one way to send an endpoint takes that data (the article's
// `publisher(for:using:)`), with no convenience for kinds that need none.

struct Item: Decodable, Sendable {
    let id: Int
    let title: String
}

struct SearchResults: Decodable, Sendable {
    let query: String
    let items: [Item]
}

extension Endpoint where Kind == Bearer, Response == SearchResults {
    static func search(query: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "q", value: query)]), path: "/v1/search", envelope: "result")
    }
}

struct AccountsService {
    let client: APIClient

    func send<K: EndpointKind, R>(_ endpoint: Endpoint<K, R>, with requestData: K.RequestData) async throws -> R {
        try await client.send(endpoint, with: requestData)
    }
}
