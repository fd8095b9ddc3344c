import TypedAPI

// Lesson 3: what any design must allow (do not edit).

func lesson3Usage(service: AccountsService, token: AccessToken) async throws -> [String] {
    let results: SearchResults = try await service.send(.search(query: "mug"), with: token)
    return results.items.map(\.title)
}
