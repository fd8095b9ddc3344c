// Lesson 1: what any design must allow (do not edit).

func lesson1Usage(service: GitHubService) async throws -> [String] {
    let page: SearchResponse = try await service.send(.search(query: "swift"))
    return page.items.map(\.fullName)
}
