import Foundation
import TypedAPI

// GitHub: a request with query items and snake_case JSON.

/// How repository search results are ordered.
public enum RepositorySort: String, Sendable, CaseIterable, Codable {
    /// Most stars first.
    case stars
    /// Most recently updated first.
    case updated
}

extension JSONDecoder {
    /// A decoder for snake_case keys (`stargazers_count` → `stargazersCount`).
    public static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

extension Endpoint where Kind == Public, Response == RepositorySearch {
    /// `GET /search/repositories?q=&sort=&per_page=`: repositories matching a query; 422 when it is empty.
    public static func searchRepositories(query: String, sort: RepositorySort? = nil, perPage: Int = 30) -> Self {
        var items = [URLQueryItem(name: "q", value: query)]
        if let sort { items.append(URLQueryItem(name: "sort", value: sort.rawValue)) }
        items.append(URLQueryItem(name: "per_page", value: String(perPage)))
        return Endpoint(.get(query: items), path: "/search/repositories")
            .decoder(.snakeCase)
            .decodingErrors(as: ValidationFailure.self)
    }
}
