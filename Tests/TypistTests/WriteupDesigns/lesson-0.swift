import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Lesson 0's design as write-up 0 writes it, from the article alone: a generic `Route<Model>` that
// holds only its path, and one generic fetch whose model is the route's. The article keeps its
// routes in a `Routes` namespace; here they are static members of `Route` constrained to their
// model, so that the lesson's usage can write `.allBreeds`. The article's completion handler is
// an `async throws` function, as the lesson's usage calls it.

struct Breeds: Codable {
    let status: String
    let message: [String: [String]]
}

struct BreedImages: Codable {
    let status: String
    let message: [String]
}

struct Route<Model> {
    let endpoint: String
}

extension Route where Model == Breeds {
    static var allBreeds: Route<Breeds> { Route(endpoint: "breeds/list/all") }
}

extension Route where Model == BreedImages {
    static func images(of breed: String) -> Route<BreedImages> { Route(endpoint: "breed/\(breed)/images") }
}

struct DogService {
    let baseURL: String

    enum Failure: Error {
        case badURL
    }

    func fetch<Model: Codable>(_ route: Route<Model>) async throws -> Model {
        guard let url = URL(string: baseURL + route.endpoint) else { throw Failure.badURL }
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(Model.self, from: data)
    }
}
