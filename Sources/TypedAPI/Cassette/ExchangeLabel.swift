/// What an exchange is, in the host's words: the endpoint it was made through and the Swift type
/// its response decodes into. A ``CassetteTransport`` writes it beside each recorded exchange, so
/// that a cassette can be checked against today's types without the network.
///
/// ``APIClient`` fills in ``responseType`` for every call (for a stream, the type of one item); a
/// host (or the shell) that names its endpoints passes ``endpoint`` in the call's ``CallContext``:
///
/// ```swift
/// try await client.send(.posts, context: CallContext(label: ExchangeLabel(endpoint: "posts")))
/// ```
public struct ExchangeLabel: Sendable, Hashable {
    /// The endpoint's name, such as `posts`.
    public var endpoint: String?
    /// The Swift type the response decodes into, such as `[Post]` (a stream's item type, such as
    /// `BuildEvent`).
    public var responseType: String?

    /// Creates a label.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's name.
    ///   - responseType: The Swift type the response decodes into.
    public init(endpoint: String? = nil, responseType: String? = nil) {
        self.endpoint = endpoint
        self.responseType = responseType
    }

    /// `label` with the Swift type the response decodes into, unless it names one or there is
    /// none (a stream's items nobody declared a type for).
    static func label<Response>(_ label: ExchangeLabel?, decoding type: Response.Type) -> ExchangeLabel? {
        guard var label else { return nil }
        if label.responseType == nil, type != StreamItemBytes.self { label.responseType = String(describing: type) }
        return label
    }
}
