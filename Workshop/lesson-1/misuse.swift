// Lesson 1: what a typed design must refuse (do not edit): a search answer read as a list of repositories.

func lesson1Misuse(service: GitHubService) async throws -> Int {
    let repos: [Repo] = try await service.send(.search(query: "swift"))  // expected-error: cannot convert value of type 'SearchResponse' to specified type '[Repo]'
    return repos.count
}
