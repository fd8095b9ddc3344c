import TypedAPI

/// A named environment from the configuration: a base URL and variables.
public struct NamedEnvironment: Sendable, Equatable {
    /// The environment's name.
    public var name: String
    /// Its base URL.
    public var baseURL: String
    /// Variables declared as `let` in the session when it is chosen.
    public var variables: [String: String]
    /// How requests to it set up TLS (`"tls"` in `typist.json`): a CA bundle, a client
    /// certificate, `insecure`. The command line's options win over these, field by field.
    public var tls: TLSOptions

    /// Creates an environment.
    public init(name: String, baseURL: String, variables: [String: String] = [:], tls: TLSOptions = .system) {
        self.name = name
        self.baseURL = baseURL
        self.variables = variables
        self.tls = tls
    }
}
