import TypedAPI

/// The session's middleware for `pages { … }`: a call whose context holds a ``PageFollower`` goes
/// to the page it names (before the host's delegate signs it), and each answer's headers are handed
/// back to it.
struct PageStage: APIClientMiddleware {
    func prepare(_ request: inout PreparedRequest, context: CallContext) throws {
        try context[PageKey.self]?.willSend(&request)
    }

    func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
        let answer = try await next(request, context)
        context[PageKey.self]?.didReceive(headers: HTTPHeader.list(answer.head.headerFields))
        return answer
    }
}

/// The key a page follower travels under in a ``TypedAPI/CallContext``.
enum PageKey: CallContextKey {
    typealias Value = PageFollower
}
