import TypedAPI

/// The session's middleware for what it keeps of every exchange: the last one, for `:last` and
/// `response` (a whole answer; a stream's body is its items), and the cookies the session holds,
/// masked from then on like a token.
struct SessionLog: APIClientMiddleware {
    let session: Session

    func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
        let started = ContinuousClock.now
        let answer = try await next(request, context)
        if case .whole(let body) = answer.body {
            let exchange = Exchange(request: request, response: answer.head, body: body, duration: ContinuousClock.now - started)
            session.update { $0.lastExchange = exchange }
        }
        // A cookie's value is a credential: masked from here on, like a token.
        for cookie in session.cookies.cookies() {
            session.remember(secret: cookie.value, as: "TYPIST_COOKIE_" + SecretNames.screamingSnakeCase(cookie.name))
        }
        return answer
    }

    /// A session's middleware chain, in order: a later page's link, a preview's answer, the log
    /// (which sees what was really exchanged), the host's own stages, and last the preview's
    /// keeper (which sees every stage's `prepare`).
    static func chain(for session: Session, host: [any APIClientMiddleware]) -> [any APIClientMiddleware] {
        [PageStage(), PreviewStage(), SessionLog(session: session)] + host + [PreviewKeeper()]
    }
}
