import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypedAPI

// Lesson 0, the untyped stage: routes are strings, and the caller picks the model to decode.
// Nothing ties a route to its model, so `misuse.swift` compiles — and fails only when it runs.
// Your task: couple each route with its model (write-up 0's Route<Model>; TypedAPI's Endpoint),
// so that `usage.swift` still compiles and `misuse.swift` no longer does.

struct Breeds: Decodable, Sendable {
    let status: String
    let message: [String: [String]]
}

struct BreedImages: Decodable, Sendable {
    let status: String
    let message: [String]
}

enum DogRoute {
    case allBreeds
    case images(of: String)

    var path: String {
        switch self {
        case .allBreeds: "/api/breeds/list/all"
        case .images(let breed): "/api/breed/\(breed)/images"
        }
    }
}

struct DogService {
    let baseURL: URL

    /// The caller chooses `Model`: the route has no say.
    func fetch<Model: Decodable>(_ route: DogRoute) async throws -> Model {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent(route.path))
        return try JSONDecoder().decode(Model.self, from: data)
    }
}
