import APIScript
import TypedAPI

/// A named environment from the configuration: a base URL and variables.
public struct NamedEnvironment: Sendable, Equatable {
    /// The environment's name.
    public var name: String
    /// Its base URL.
    public var baseURL: String
    /// Variables declared as `let` in the session when it is chosen, as text (a number or
    /// `true` as JSON writes it); ``values`` holds them with their types.
    public var variables: [String: String]
    /// The variables with the types `typist.json` gives them — a number an `Int` or `Double`,
    /// `true`/`false` a `Bool`, text a `String` — as the session declares them. By default each of
    /// ``variables`` as a `String`.
    public var values: [String: Value]
    /// How requests to it set up TLS (`"tls"` in `typist.json`): a CA bundle, a client
    /// certificate, `insecure`. The command line's options win over these, field by field.
    public var tls: TLSOptions

    /// Creates an environment.
    public init(name: String, baseURL: String, variables: [String: String] = [:], tls: TLSOptions = .system) {
        self.name = name
        self.baseURL = baseURL
        self.variables = variables
        self.values = variables.mapValues(Value.string)
        self.tls = tls
    }
}
