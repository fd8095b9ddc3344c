import Synchronization

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
        /// The enum the parameter takes, when it is one: its cases may be written `.stars`. For a
        /// parameter that takes an array (`[IssueState]`), its elements' enum: `states: [.open, .closed]`.
        public var enumeration: HostEnumeration?
        /// What the parameter allows of a value beyond its type: why it rules `value` out (a
        /// message, such as `limit must be at least 1`), or `nil` when it allows it. The checker
        /// asks it about each literal argument (`limit: 0`), so `check` reports the value at its
        /// place before anything runs; the host function still checks what it is called with.
        public var rule: (@Sendable (Value) -> String?)?
        /// Why the parameter rules out every value of a static type (`Int` where a document has an
        /// object), or `nil` when some value of it may do: the checker asks it about an argument
        /// that is not a literal; ``rule`` still judges the value.
        package var typeRule: (@Sendable (ScriptType) -> String?)?

        /// Creates a parameter.
        ///
        /// - Parameters:
        ///   - label: The argument label, or `nil` for a positional parameter.
        ///   - name: Its name for help and errors (the label when not given).
        ///   - type: Its type.
        ///   - defaultValue: The value when the argument is left out; `nil` when it is required.
        ///   - enumeration: The enum it takes, when it is one (its elements', for an array).
        ///   - rule: What it allows beyond its type (see ``rule``); `nil` for its type alone.
        public init(label: String?, name: String? = nil, type: ScriptType, defaultValue: Value? = nil,
                    enumeration: HostEnumeration? = nil, rule: (@Sendable (Value) -> String?)? = nil) {
            self.label = label
            self.name = name ?? label ?? "value"
            self.type = type
            self.defaultValue = defaultValue
            self.enumeration = enumeration
            self.rule = rule
        }
    }

    /// The function's name.
    public var name: String
    /// Its parameters, in order.
    public var parameters: [Parameter]
    /// What it returns, worked out the first time something asks (a host may derive it from
    /// Swift types, which costs start-up time for functions a script never calls).
    public var returnType: ScriptType {
        get { returns.type }
        set { returns = LazyScriptType(newValue) }
    }
    private var returns: LazyScriptType
    /// A one-line summary for help and completion.
    public var summary: String
    /// For a generic function (the shell's `pages { … }`): its result type worked out by the checker
    /// from the arguments' types, in parameter order (`nil` where left to its default); `nil` from
    /// it falls back to ``returnType``, an error thrown is the checker's error at the call.
    package var resultFromArguments: (@Sendable ([ScriptType?]) throws -> ScriptType?)?
    /// For a function whose first argument, when it is a string literal, decides the rest of its
    /// signature — GraphQL's `graphql("""query($owner: String!) { … }""", owner: "apple")`: the
    /// function for that text (its parameters after the text, its result type) and the text's
    /// problems, each at its line and column in the text. The checker asks it at each call with a
    /// literal and calls the function it returns; a call with any other text calls this one.
    package var specialization: (@Sendable (String) -> LiteralSpecialization)?
    /// Why a call has no Swift of its own and what to do instead, for `:swift` (GraphQL's
    /// `graphql("…")`, whose operation `typist generate` writes once it has a name); nil where the
    /// host writes it.
    package var swiftUnsupported: String?
    /// What a host writes for a call of this function when it is no registered endpoint of its name
    /// (the endpoint GraphQL's `graphql("…")` is specialised to, its first argument the text the
    /// endpoint already holds): opaque here, read by the host's `:swift`.
    package var swiftEndpoint: (any Sendable)?
    /// Whether the Swift a call is written as (`:swift`) does not await, such as the shell's
    /// `file(_:)` (`UploadFile(contentsOf:)`): it is written with `try` alone.
    package var isSynchronous = false
    /// Why a script should not call it (a deprecated operation), said as a warning where the
    /// checker finds a call; `nil` for a function in good standing.
    package var deprecation: String?
    /// The implementation: receives the arguments in parameter order, defaults filled in.
    public var body: @Sendable ([Value]) async throws -> Value
    /// The implementation, when it reads what an enclosing host function handed on (``HostScope``);
    /// called instead of ``body``.
    package var scopedBody: (@Sendable ([Value], HostScope) async throws -> Value)?

    /// Creates a host function; `returnType` is evaluated when it is first needed.
    public init(name: String, parameters: [Parameter], returnType: @autoclosure @escaping @Sendable () -> ScriptType,
                summary: String = "", body: @escaping @Sendable ([Value]) async throws -> Value) {
        self.name = name
        self.parameters = parameters
        self.returns = LazyScriptType(returnType)
        self.summary = summary
        self.body = body
    }

    /// Creates a host function that reads what an enclosing host function handed on to the calls
    /// in its closure (``HostScope``), given as its second parameter.
    package init(name: String, parameters: [Parameter], returnType: @autoclosure @escaping @Sendable () -> ScriptType,
                 summary: String = "", scopedBody: @escaping @Sendable ([Value], HostScope) async throws -> Value) {
        self.init(name: name, parameters: parameters, returnType: returnType(), summary: summary) { values in
            try await scopedBody(values, HostScope())
        }
        self.scopedBody = scopedBody
    }

    /// Runs the implementation with the call's scope.
    func call(_ values: [Value], scope: HostScope) async throws -> Value {
        if let scopedBody { return try await scopedBody(values, scope) }
        return try await body(values)
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

/// A type worked out once, the first time it is asked for.
final class LazyScriptType: Sendable {
    private let made = Mutex<ScriptType?>(nil)
    private let make: @Sendable () -> ScriptType

    init(_ make: @escaping @Sendable () -> ScriptType) { self.make = make }
    convenience init(_ type: ScriptType) { self.init { type } }

    var type: ScriptType {
        if let type = made.withLock({ $0 }) { return type }
        let type = make()
        made.withLock { $0 = type }
        return type
    }
}

/// A Swift enum a host function's parameter takes, such as `RepositorySort`: scripts write its cases
/// as in Swift (`sort: .stars`), and each stands for the value the host converts back (its raw value).
public struct HostEnumeration: Sendable {
    /// One case: its Swift name and the script value it stands for.
    public struct Case: Sendable {
        /// The case's name in Swift, `stars`.
        public var name: String
        /// The value the host function receives for it, such as its raw value `"stars"`.
        public var value: Value

        /// Creates a case.
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The Swift type's name, `RepositorySort`.
    public var typeName: String
    /// The cases, in declaration order.
    public var cases: [Case]

    /// Creates an enumeration.
    public init(typeName: String, cases: [Case]) {
        self.typeName = typeName
        self.cases = cases
    }

    /// The case named `name`.
    public func named(_ name: String) -> Case? { cases.first { $0.name == name } }

    /// The case whose value is `value`, for showing a value the Swift way.
    public func matching(_ value: Value) -> Case? { cases.first { $0.value == value } }
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
    /// What refused the value: its parameter's type (every error a host makes), or a rule of the
    /// endpoint's source that the type cannot state (an OpenAPI document's `minimum`), which
    /// `:explain` tells apart.
    package var reason: Reason = .type

    /// What refused a value.
    package enum Reason: Sendable {
        /// The parameter's type: the value does not convert to it.
        case type
        /// A rule of the endpoint's source beyond the type; the untyped call sends the value.
        case rule
    }

    /// Creates an argument error.
    public init(index: Int, message: String) {
        self.index = index
        self.message = message
    }

    /// An error that says what refused the value.
    package init(index: Int, message: String, reason: Reason) {
        self.init(index: index, message: message)
        self.reason = reason
    }
}

/// What a host function with a ``HostFunction/specialization`` makes of a literal.
package struct LiteralSpecialization: Sendable {
    /// One problem of the text, at its place in it.
    package struct Problem: Sendable {
        package var message: String
        /// 1-based, in the literal's text.
        package var line: Int
        package var column: Int
        package var isWarning: Bool
        /// The nearest name, when a name is unknown.
        package var suggestion: String?

        package init(message: String, line: Int, column: Int, isWarning: Bool = false, suggestion: String? = nil) {
            self.message = message
            self.line = line
            self.column = column
            self.isWarning = isWarning
            self.suggestion = suggestion
        }
    }

    /// The function for the text, whose first parameter takes the text itself; nil with errors.
    package var function: HostFunction?
    package var problems: [Problem]

    package init(function: HostFunction?, problems: [Problem]) {
        self.function = function
        self.problems = problems
    }
}
