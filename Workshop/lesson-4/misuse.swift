// Lesson 4: what a typed design must refuse (do not edit): a post read out of the answer to a DELETE,
// whose request fixes another result type (TypedAPI's is Void: a 204 has no body).

func lesson4Misuse(service: BlogService) async throws -> String {
    let deleted: Post = try await service.send(.deletePost(id: 1))  // expected-error: to specified type 'Post'
    return deleted.title
}
