/// Hooks into every call an ``APIClient`` makes. Every method has a default that does nothing.
public protocol APIClientDelegate: Sendable {
    /// Called before a request is sent: sign it, add headers, log it.
    ///
    /// - Throws: Any error; it stops the call as ``APIError/invalidRequest(_:reason:)``.
    func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws

    /// Called after a call failed: answer `true` to send it again.
    ///
    /// - Parameters:
    ///   - client: The client that sent it.
    ///   - request: The request that failed.
    ///   - error: Why it failed.
    ///   - attempt: How many times it has been sent, 1 the first time.
    func client(_ client: APIClient, shouldRetry request: PreparedRequest, after error: APIError,
                attempt: Int) async -> Bool

    /// Called for every response that arrives, redirects included, with secrets redacted.
    func client(_ client: APIClient, didReceive exchange: Exchange)
}

extension APIClientDelegate {
    /// Leaves the request as it is.
    public func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {}

    /// Never retries.
    public func client(_ client: APIClient, shouldRetry request: PreparedRequest, after error: APIError,
                       attempt: Int) async -> Bool { false }

    /// Does nothing.
    public func client(_ client: APIClient, didReceive exchange: Exchange) {}
}
