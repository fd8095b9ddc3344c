/// A blog post.
public struct Post: Codable, Sendable, Hashable {
    /// The author's user id (1…10).
    public var userId: Int
    /// The post's id.
    public var id: Int
    /// The title.
    public var title: String
    /// The text.
    public var body: String

    /// Creates a post.
    public init(userId: Int, id: Int, title: String, body: String) {
        self.userId = userId
        self.id = id
        self.title = title
        self.body = body
    }
}

/// The body of `POST /posts` and `PUT /posts/{id}`.
public struct PostDraft: Codable, Sendable, Hashable {
    /// The author's user id.
    public var userId: Int
    /// The title.
    public var title: String
    /// The text.
    public var body: String

    /// Creates a draft.
    public init(userId: Int, title: String, body: String) {
        self.userId = userId
        self.title = title
        self.body = body
    }
}

/// The body of `PATCH /posts/{id}`: only what changes.
public struct PostPatch: Codable, Sendable, Hashable {
    /// A new title.
    public var title: String?
    /// A new text.
    public var body: String?

    /// Creates a patch.
    public init(title: String? = nil, body: String? = nil) {
        self.title = title
        self.body = body
    }
}

/// A comment on a post.
public struct Comment: Codable, Sendable, Hashable {
    /// The post commented on.
    public var postId: Int
    /// The comment's id.
    public var id: Int
    /// The commenter's name.
    public var name: String
    /// The commenter's e-mail address.
    public var email: String
    /// The text.
    public var body: String
}

/// A photo album.
public struct Album: Codable, Sendable, Hashable {
    /// The owner's user id.
    public var userId: Int
    /// The album's id.
    public var id: Int
    /// The title.
    public var title: String
}

/// A photo in an album.
public struct Photo: Codable, Sendable, Hashable {
    /// The album it belongs to.
    public var albumId: Int
    /// The photo's id.
    public var id: Int
    /// The title.
    public var title: String
    /// The full-size image.
    public var url: String
    /// The thumbnail.
    public var thumbnailUrl: String
}

/// A blog author, with nested address and company.
public struct Author: Codable, Sendable, Hashable {
    /// A postal address.
    public struct Address: Codable, Sendable, Hashable {
        /// The street and number.
        public var street: String
        /// The suite or flat.
        public var suite: String
        /// The city.
        public var city: String
        /// The postal code.
        public var zipcode: String
    }

    /// An employer.
    public struct Company: Codable, Sendable, Hashable {
        /// The company's name.
        public var name: String
        /// Its motto.
        public var catchPhrase: String
    }

    /// The author's id (1…10).
    public var id: Int
    /// The full name.
    public var name: String
    /// The user name.
    public var username: String
    /// The e-mail address.
    public var email: String
    /// The postal address.
    public var address: Address
    /// The phone number.
    public var phone: String
    /// The web site.
    public var website: String
    /// The employer.
    public var company: Company
}
