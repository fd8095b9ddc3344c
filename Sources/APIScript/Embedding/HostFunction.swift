/// A function the host gives to scripts, such as an endpoint call: `post(id: 1)`.
public struct HostFunction: Sendable {
    /// One parameter.
    public struct Parameter: Sendable {
        /// The argument label, or `nil` for an unlabeled (positional) parameter.
        public var label: String?
        /// The parameter's name, for help and errors.
        public var name: String
        /// The parameter's type.
        public var type: ScriptType
        /// The value used when the argument is left out, or `nil` when it is required.
        public var defaultValue: Value?

        /// Creates a parameter.
        public init(label: String?, name: String? = nil, type: ScriptType, defaultValue: Value? = nil) {
            self.label = label
            self.name = name ?? label ?? "value"
            self.type = type
            self.defaultValue = defaultValue
        }
    }

    /// The function's name.
    public var name: String
    /// Its parameters, in order.
    public var parameters: [Parameter]
    /// What it returns.
    public var returnType: ScriptType
    /// A one-line summary for help and completion.
    public var summary: String
    /// The implementation: receives the arguments in parameter order, defaults filled in.
    public var body: @Sendable ([Value]) async throws -> Value

    /// Creates a host function.
    public init(name: String, parameters: [Parameter], returnType: ScriptType, summary: String = "",
                body: @escaping @Sendable ([Value]) async throws -> Value) {
        self.name = name
        self.parameters = parameters
        self.returnType = returnType
        self.summary = summary
        self.body = body
    }

    /// `post(id: Int) -> Post`.
    public var signature: String {
        let parameters = parameters.map { parameter in
            let label = parameter.label.map { "\($0): " } ?? "_ \(parameter.name): "
            let defaultText = parameter.defaultValue.map { " = \(ValueFormatter.literal($0))" } ?? ""
            return "\(label)\(parameter.type)\(defaultText)"
        }
        return "\(name)(\(parameters.joined(separator: ", "))) -> \(returnType)"
    }
}

/// A global the host provides, such as `baseURL` or `token`; assignable when it has a setter.
public struct HostGlobal: Sendable {
    /// The name scripts use.
    public var name: String
    /// Its type.
    public var type: ScriptType
    /// A one-line summary for help and completion.
    public var summary: String
    /// Reads the current value.
    public var get: @Sendable () -> Value
    /// Sets a new value, or `nil` when the global is read-only. Throwing rejects the value.
    public var set: (@Sendable (Value) throws -> Void)?

    /// Creates a host global.
    public init(name: String, type: ScriptType, summary: String = "", get: @escaping @Sendable () -> Value,
                set: (@Sendable (Value) throws -> Void)? = nil) {
        self.name = name
        self.type = type
        self.summary = summary
        self.get = get
        self.set = set
    }
}

/// An error a host function throws to point at one of its arguments: "'x' is not a UUID".
public struct ArgumentError: Error, Sendable {
    /// The argument's position in the parameter list.
    public var index: Int
    /// What is wrong with it.
    public var message: String

    /// Creates an argument error.
    public init(index: Int, message: String) {
        self.index = index
        self.message = message
    }
}
