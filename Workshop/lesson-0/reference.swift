import Foundation
import TypedAPI

// Lesson 0, a typed design: each endpoint's type names the model it decodes into, so the
// compiler, not the server, catches a route asked for the wrong model.

struct Breeds: Decodable, Sendable {
    let status: String
    let message: [String: [String]]
}

struct BreedImages: Decodable, Sendable {
    let status: String
    let message: [String]
}

extension Endpoint where Kind == Public, Response == Breeds {
    /// Every breed with its sub-breeds.
    static var allBreeds: Self { Endpoint(path: "/api/breeds/list/all") }
}

extension Endpoint where Kind == Public, Response == BreedImages {
    /// Image URLs of one breed.
    static func images(of breed: String) -> Self { Endpoint(path: "/api/breed/\(Endpoint.escape(breed))/images") }
}

struct DogService {
    let client: APIClient

    /// The endpoint decides the model: there is nothing left for the caller to get wrong.
    func fetch<Model>(_ endpoint: Endpoint<Public, Model>) async throws -> Model {
        try await client.send(endpoint)
    }
}
