// Lesson 4: what any design must allow (do not edit).

func lesson4Usage(service: BlogService) async throws -> String {
    let post: Post = try await service.send(.post(id: 1))
    _ = try await service.send(.deletePost(id: 1))
    return post.title
}
