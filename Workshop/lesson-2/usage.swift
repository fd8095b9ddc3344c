// Lesson 2: what any design must allow (do not edit).

func lesson2Usage(api: BlogAPI) async throws -> Int {
    let posts: [Post] = try await api.request(.posts)
    return posts.count
}
