// Lesson 4: what a typed design must refuse (do not edit): a post read out of a 204 No Content.

func lesson4Misuse(service: BlogService) async throws -> String {
    let deleted: Post = try await service.send(.deletePost(id: 1))  // expected-error: cannot convert value of type '()' to specified type 'Post'
    return deleted.title
}
