// Lesson 2: what a typed design must refuse (do not edit): the caller choosing the method.

func lesson2Misuse(api: BlogAPI) async throws -> Int {
    let posts: [Post] = try await api.request(.posts, method: .delete)  // expected-error: extra argument 'method' in call
    return posts.count
}
