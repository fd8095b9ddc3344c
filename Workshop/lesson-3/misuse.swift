import TypedAPI

// Lesson 3: what a typed design must refuse (do not edit): a private endpoint sent with no token.
// Written with write-up 3's one way to send (the endpoint and its kind's request data), so that any
// design from the article refuses it for the same reason.

func lesson3Misuse(service: AccountsService) async throws -> Int {
    let results: SearchResults = try await service.send(.search(query: "mug"), with: nil)  // expected-error: 'nil' is not compatible with expected argument type 'AccessToken'
    return results.items.count
}
