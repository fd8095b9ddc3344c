/// The answer of a repository search. Keys are snake_case on the wire.
public struct RepositorySearch: Codable, Sendable, Hashable {
    /// How many repositories match in all.
    public var totalCount: Int
    /// Whether the search stopped early.
    public var incompleteResults: Bool
    /// One page of matches.
    public var items: [Repository]
}

/// A source repository.
public struct Repository: Codable, Sendable, Hashable {
    /// The repository's id.
    public var id: Int
    /// Its short name.
    public var name: String
    /// `owner/name`.
    public var fullName: String
    /// Its owner.
    public var owner: Owner
    /// How many people starred it.
    public var stargazersCount: Int
    /// Its main language, if known.
    public var language: String?
    /// Its description, if any.
    public var description: String?
}

/// A repository's owner.
public struct Owner: Codable, Sendable, Hashable {
    /// The owner's login.
    public var login: String
    /// The owner's id.
    public var id: Int
}

/// The error body of a failed search (422).
public struct ValidationFailure: Codable, Sendable, Hashable, Error {
    /// One failed field.
    public struct FieldError: Codable, Sendable, Hashable {
        /// The resource, `Search`.
        public var resource: String
        /// The field, such as `q`.
        public var field: String
        /// What is wrong, such as `missing`.
        public var code: String
    }

    /// `Validation Failed`.
    public var message: String
    /// The fields that failed.
    public var errors: [FieldError]
}
