/// What one call is, handed explicitly to every stage it passes: each of the client's
/// ``APIClientMiddleware``s and its transport (``HTTPTransport/exchange(_:context:)``), as
/// swift-openapi-runtime hands its middlewares the operation's ID.
///
/// ```swift
/// let context = CallContext(label: ExchangeLabel(endpoint: "posts"))
/// let posts = try await client.send(.posts, context: context)
/// ```
///
/// The client fills in what it knows — the Swift type the response decodes into, whether the body
/// is read whole or as it arrives, how many redirects came before an exchange. A caller hands
/// values of its own to its middlewares with a ``CallContextKey``.
public struct CallContext: Sendable {
    /// The endpoint's name, if the caller gave one, and the Swift type its response (a stream's
    /// item) decodes into: what a ``CassetteTransport`` writes beside the exchange. `nil` for a
    /// call that is no endpoint's in the host's words (an untyped request): the client leaves it so.
    public var label: ExchangeLabel?
    /// A preview: nothing may leave. The client asks no delegate (which might sign or retry over
    /// the network), and a request that reaches the transport is refused — a middleware answers.
    public var isDryRun: Bool
    /// How the response's body is read: whole, or as it arrives (a stream).
    public internal(set) var delivery: TransportRequest.Delivery = .whole
    /// How many redirects the call followed before this exchange: 0 for its first.
    public internal(set) var redirects = 0
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - label: The endpoint's name and response type, as far as the caller knows them; `nil`
    ///     for none.
    ///   - isDryRun: Whether nothing may be sent (a preview whose middleware answers).
    public init(label: ExchangeLabel? = ExchangeLabel(), isDryRun: Bool = false) {
        self.label = label
        self.isDryRun = isDryRun
    }

    /// The value handed on under `key`, if any.
    public subscript<Key: CallContextKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// The key of a value a caller hands its middlewares in a ``CallContext``.
///
/// ```swift
/// enum TraceID: CallContextKey { typealias Value = String }
/// var context = CallContext()
/// context[TraceID.self] = "a1b2"
/// ```
public protocol CallContextKey {
    /// The type of the value.
    associatedtype Value: Sendable
}
