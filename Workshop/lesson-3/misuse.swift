import TypedAPI

// Lesson 3: what a typed design must refuse (do not edit): a private endpoint sent without its token.

func lesson3Misuse(service: AccountsService) async throws -> Int {
    let results: SearchResults = try await service.send(.search(query: "mug"))  // expected-error: requires the types 'AccessToken' and '()' be equivalent
    return results.items.count
}
