import TypedAPI

// Blog: a generic client over REST resources (JSONPlaceholder style), with CRUD.

extension Endpoint where Kind == Public, Response == [Post] {
    /// `GET /posts`: all 100 posts.
    public static var posts: Self { Endpoint(path: "/posts") }

    /// `GET /big?count=`: `count` generated posts (about 364 bytes each), for performance work.
    public static func bigPosts(count: Int) -> Self {
        Endpoint(.get(query: [.init(name: "count", value: String(count))]), path: "/big")
    }
}

extension Endpoint where Kind == Public, Response == Post {
    /// `GET /posts/{id}`: one post; 404 when there is none.
    public static func post(id: Int) -> Self { Endpoint(path: "/posts/\(id)") }

    /// `POST /posts`: creates a post (201) and answers it with its new id.
    public static func createPost(userId: Int, title: String, body: String) -> Self {
        Endpoint(.post(.json(PostDraft(userId: userId, title: title, body: body))), path: "/posts")
            .accepting(statusCodes: 200..<300)
    }

    /// `PUT /posts/{id}`: replaces a post.
    public static func updatePost(id: Int, userId: Int, title: String, body: String) -> Self {
        Endpoint(.put(.json(PostDraft(userId: userId, title: title, body: body))), path: "/posts/\(id)")
    }

    /// `PATCH /posts/{id}`: changes a post's title.
    public static func patchPost(id: Int, title: String) -> Self {
        Endpoint(.patch(.json(PostPatch(title: title))), path: "/posts/\(id)")
    }
}

extension Endpoint where Kind == Public, Response == Void {
    /// `DELETE /posts/{id}`: deletes a post; 204 No Content.
    public static func deletePost(id: Int) -> Self { Endpoint(.delete, path: "/posts/\(id)") }
}

extension Endpoint where Kind == Public, Response == [Comment] {
    /// `GET /posts/{id}/comments`: the five comments of a post.
    public static func comments(postId: Int) -> Self { Endpoint(path: "/posts/\(postId)/comments") }

    /// `GET /comments` (every comment, 500) or `GET /comments?postId=`: the flat route.
    public static func allComments(postId: Int? = nil) -> Self {
        Endpoint(.get(query: postId.map { [.init(name: "postId", value: String($0))] } ?? []), path: "/comments")
    }
}

extension Endpoint where Kind == Public, Response == [Album] {
    /// `GET /albums`: all 100 albums.
    public static var albums: Self { Endpoint(path: "/albums") }
}

extension Endpoint where Kind == Public, Response == [Photo] {
    /// `GET /photos?albumId=`: the photos of one album.
    public static func photos(albumId: Int) -> Self {
        Endpoint(.get(query: [.init(name: "albumId", value: String(albumId))]), path: "/photos")
    }
}

extension Endpoint where Kind == Public, Response == [Author] {
    /// `GET /users`: the ten authors.
    public static var authors: Self { Endpoint(path: "/users") }
}

extension Endpoint where Kind == Public, Response == Author {
    /// `GET /users/{id}`: one author, with nested address and company.
    public static func author(id: Int) -> Self { Endpoint(path: "/users/\(id)") }
}
