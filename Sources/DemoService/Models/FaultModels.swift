/// The body of `GET /faults/status/{code}`.
public struct StatusReport: Codable, Sendable, Hashable {
    /// The status that was asked for.
    public var status: Int
    /// A sentence about it.
    public var message: String
}

/// The body of `GET /faults/slow`.
public struct SlowReport: Codable, Sendable, Hashable {
    /// How long the server waited.
    public var waitedMs: Int
}

/// The headers a request arrived with (`GET /debug/headers`), names in lower case.
public struct HeaderEcho: Codable, Sendable, Hashable {
    /// Header name → value.
    public var headers: [String: String]
}
