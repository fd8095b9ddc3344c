import TypedAPI

// Dogs: one route per endpoint, coupled to its model (dog.ceo style).

extension Endpoint where Kind == Public, Response == Breeds {
    /// `GET /api/breeds/list/all`: every breed with its sub-breeds.
    public static var breeds: Self { Endpoint(path: "/api/breeds/list/all").decodingErrors(as: DogError.self) }
}

extension Endpoint where Kind == Public, Response == BreedImages {
    /// `GET /api/breed/{breed}/images`: image URLs of one breed; 404 for an unknown breed.
    public static func breedImages(breed: String) -> Self {
        Endpoint(path: "/api/breed/\(escape(breed))/images").decodingErrors(as: DogError.self)
    }
}
