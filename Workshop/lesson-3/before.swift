import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypedAPI

// Lesson 3, the untyped stage: the token is an optional argument, so a private endpoint can be sent
// without one — `misuse.swift` compiles, and the server answers 401 at run time.
// Your task: give each endpoint a kind whose request data the client requires (write-up 3's
// EndpointKind; TypedAPI's Endpoint<Bearer, …> and AccessToken), so that `misuse.swift` no longer compiles.

struct Item: Decodable, Sendable {
    let id: Int
    let title: String
}

struct SearchResults: Decodable, Sendable {
    let query: String
    let items: [Item]
}

struct Envelope<Wrapped: Decodable>: Decodable {
    let result: Wrapped
}

struct AccountsRequest {
    var path: String
    static func search(query: String) -> AccountsRequest { AccountsRequest(path: "/v1/search?q=\(query)") }
}

struct AccountsService {
    let baseURL: URL

    func send<Response: Decodable>(_ request: AccountsRequest, with token: AccessToken? = nil) async throws -> Response {
        guard let url = URL(string: baseURL.absoluteString + request.path) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        if let token { urlRequest.setValue("Bearer \(token.rawValue)", forHTTPHeaderField: "Authorization") }
        let (data, _) = try await URLSession.shared.data(for: urlRequest)
        return try JSONDecoder().decode(Envelope<Response>.self, from: data).result
    }
}
