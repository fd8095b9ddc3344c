/// Every breed with its sub-breeds (`GET /api/breeds/list/all`).
public struct Breeds: Codable, Sendable, Hashable {
    /// `success`.
    public var status: String
    /// Breed name → sub-breed names.
    public var message: [String: [String]]
}

/// Image URLs of one breed (`GET /api/breed/{breed}/images`).
public struct BreedImages: Codable, Sendable, Hashable {
    /// `success`.
    public var status: String
    /// Image URLs.
    public var message: [String]
}

/// The error body of the dog routes.
public struct DogError: Codable, Sendable, Hashable, Error {
    /// `error`.
    public var status: String
    /// What went wrong.
    public var message: String
    /// The HTTP status.
    public var code: Int
}
