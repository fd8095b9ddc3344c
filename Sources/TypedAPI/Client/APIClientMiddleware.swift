/// A stage every call of an ``APIClient`` passes through, in the order of
/// ``APIClient/Configuration/middlewares``: recording and replay, previews, logs, metrics.
///
/// A middleware sees each exchange — the request as it is sent (redirects each their own
/// exchange, streams too) and the call's ``CallContext`` — and either hands it on with `next` or
/// answers itself. Both methods have defaults that change nothing.
///
/// ```swift
/// struct Counting: APIClientMiddleware {
///     let count: Mutex<Int>
///     func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
///         count.withLock { $0 += 1 }
///         return try await next(request, context)
///     }
/// }
/// ```
public protocol APIClientMiddleware: Sendable {
    /// The rest of the chain: the next middleware, else the transport.
    typealias Next = @Sendable (PreparedRequest, CallContext) async throws -> TransportResponse

    /// Called once per call (a stream: once per connection, a reconnection included), after the
    /// request is built and before the delegate's ``APIClientDelegate/client(_:willSend:)`` (which
    /// signs what is sent): change the request. It runs in a dry run too, so a preview shows what
    /// it adds.
    ///
    /// - Throws: Any error; it stops the call as ``APIError/invalidRequest(_:reason:)``.
    func prepare(_ request: inout PreparedRequest, context: CallContext) throws

    /// Called for each exchange of a call: hand it on with `next`, or answer.
    ///
    /// - Parameters:
    ///   - request: The request as it is sent (the jar's cookies added).
    ///   - context: The call.
    ///   - next: The rest of the chain.
    /// - Returns: The answer; its body whole or streamed as ``CallContext/delivery`` asks.
    /// - Throws: Any error: a ``TransportFailure`` reads as the transport's, an ``APIError`` as it is.
    func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse
}

extension APIClientMiddleware {
    /// Leaves the request as it is.
    public func prepare(_ request: inout PreparedRequest, context: CallContext) throws {}

    /// Hands the exchange on.
    public func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
        try await next(request, context)
    }
}
