/// One built-in method of arrays, ranges, strings or dictionaries — the only place it is described.
///
/// The checker types a call with ``type``, the compiler runs ``implementation``, completion offers
/// ``name`` on the ``receivers``, and `:help name` shows ``declaration``, ``summary`` and ``example``.
/// A method has one row per argument-label spelling that behaves differently (`sorted()` and
/// `sorted(by:)` are two rows); spellings that only leave out an argument share one (`dropFirst()`).
struct BuiltinMethod: Sendable {
    /// The base name, `map`.
    let name: String
    /// Each accepted spelling of the argument labels (`nil` for an unlabeled argument).
    let labelings: [[String?]]
    /// The kinds of value the method is offered on (a dynamic value may use any).
    let receivers: Receivers
    /// The Swift-like declaration shown by `:help`, from the receiver's point of view.
    let declaration: String
    /// One sentence on what it returns.
    let summary: String
    /// A line to try at the prompt.
    let example: String
    /// The number of parameters of its closure argument, when it takes one (for dynamic receivers).
    let closureArity: Int
    /// The static type rule: checks the arguments against the receiver's types and gives the result.
    let type: @Sendable (inout Checker, MethodCall) -> ScriptType
    /// What runs.
    let implementation: MethodImplementation

    init(_ name: String, labels labelings: [[String?]], on receivers: Receivers, _ declaration: String,
         _ summary: String, example: String, closureArity: Int = 0,
         type: @escaping @Sendable (inout Checker, MethodCall) -> ScriptType, _ implementation: MethodImplementation) {
        self.name = name
        self.labelings = labelings
        self.receivers = receivers
        self.declaration = declaration
        self.summary = summary
        self.example = example
        self.closureArity = closureArity
        self.type = type
        self.implementation = implementation
    }

    /// Whether it changes the array it is called on.
    var isMutating: Bool {
        if case .mutating = implementation { return true }
        return false
    }

    /// Whether it calls a closure argument.
    var isHigherOrder: Bool {
        switch implementation {
        case .higherOrder, .consuming: true
        // A stream's `map` keeps its closure for later.
        case .plain: closureArity > 0
        case .mutating: false
        }
    }

    /// Whether it reads a stream, and so always suspends.
    var isConsuming: Bool {
        if case .consuming = implementation { return true }
        return false
    }

    /// `map(_:)`: a call's name and labels, as the table is keyed.
    static func key(_ name: String, _ labels: [String?]) -> String {
        "\(name)(\(labels.map { ($0 ?? "_") + ":" }.joined()))"
    }

    /// Every built-in method, in the order `:help` and completion show them.
    static let all: [BuiltinMethod] = transforms + collections + strings + mutations

    /// The methods by every key they answer to.
    static let byKey: [String: BuiltinMethod] = table(all)

    /// A stream's methods by every key they answer to.
    static let streamsByKey: [String: BuiltinMethod] = table(streams)

    /// The table for a receiver: a stream's, or everything else's.
    static func byKey(for receiver: ScriptType) -> [String: BuiltinMethod] {
        if case .stream = receiver.unwrapped { return streamsByKey }
        return byKey
    }

    private static func table(_ methods: [BuiltinMethod]) -> [String: BuiltinMethod] {
        var table: [String: BuiltinMethod] = [:]
        for method in methods {
            for labels in method.labelings {
                // The first row wins; `BuiltinMethodTableTests` fails if two rows answer to one spelling.
                let key = key(method.name, labels)
                if table[key] == nil { table[key] = method }
            }
        }
        return table
    }

    /// The methods named `name`, for `:help`: every receiver's.
    static func named(_ name: String) -> [BuiltinMethod] { (all + streams).filter { $0.name == name } }

    /// Method names offered on a kind of receiver, each once, in table order.
    static func names(on kind: Receivers) -> [String] {
        var seen = Set<String>()
        return (kind == .stream ? streams : all).filter { $0.receivers.contains(kind) && seen.insert($0.name).inserted }.map(\.name)
    }

    /// The help text for `:help`: declaration, receivers, summary and example.
    var help: String {
        "\(declaration)   on \(receivers.description)\n  \(summary)\n  example: \(example)"
    }
}

/// How a built-in method runs, given its receiver and its arguments' values.
enum MethodImplementation: Sendable {
    /// Reads its receiver and arguments and calls nothing back.
    case plain(@Sendable (Value, [Value]) throws -> Value)
    /// Calls a closure argument: `sync` when every closure argument is pure, `async` when one may
    /// call the host (an endpoint) and so suspend.
    case higherOrder(sync: @Sendable (Value, [Value]) throws -> Value,
                     async: @Sendable (Value, [Value]) async throws -> Value)
    /// Changes the array it is called on, which the compiler writes back to its place.
    case mutating(@Sendable (inout [Value], [Value]) throws -> Value)
    /// Reads the stream it is called on, which always suspends.
    case consuming(@Sendable (ScriptStream, [Value]) async throws -> Value)

    /// Runs without suspending; a higher-order method's closures must be pure.
    func call(_ receiver: Value, _ arguments: [Value]) throws -> Value {
        switch self {
        case .plain(let run): return try run(receiver, arguments)
        case .higherOrder(let run, _): return try run(receiver, arguments)
        case .mutating: throw ScriptFailure("a mutating method needs a variable")
        case .consuming: throw ControlError.suspensionRequired
        }
    }

    /// Runs, suspending only when a closure argument may call the host.
    func callAsync(_ receiver: Value, _ arguments: [Value]) async throws -> Value {
        if case .consuming(let read) = self {
            guard case .stream(let stream) = receiver else {
                throw ScriptFailure("expected a stream, found '\(ValueFormatter.typeName(receiver))'")
            }
            return try await read(stream, arguments)
        }
        guard case .higherOrder(let sync, let async) = self else { return try call(receiver, arguments) }
        let functions = arguments.compactMap { if case .function(let f) = $0 { f } else { nil } }
        if functions.allSatisfy(\.isPure) { return try sync(receiver, arguments) }
        return try await async(receiver, arguments)
    }
}

/// The kinds of value that have built-in methods and properties.
struct Receivers: OptionSet, Sendable, CustomStringConvertible {
    let rawValue: Int
    init(rawValue: Int) { self.rawValue = rawValue }

    static let array = Receivers(rawValue: 1 << 0)
    static let range = Receivers(rawValue: 1 << 1)
    static let string = Receivers(rawValue: 1 << 2)
    static let dictionary = Receivers(rawValue: 1 << 3)
    static let bytes = Receivers(rawValue: 1 << 4)
    /// Streams: items that arrive over time.
    static let stream = Receivers(rawValue: 1 << 5)
    /// Arrays, ranges and bytes: everything with elements in order that is not text.
    static let sequences: Receivers = [.array, .range, .bytes]

    /// The kind of a static type, or `nil` when it has no built-in members.
    init?(_ type: ScriptType) {
        switch type.unwrapped {
        case .array: self = .array
        case .range: self = .range
        case .string: self = .string
        case .dictionary: self = .dictionary
        case .bytes: self = .bytes
        case .stream: self = .stream
        default: return nil
        }
    }

    var description: String {
        [(Receivers.array, "Array"), (.range, "Range"), (.string, "String"), (.dictionary, "Dictionary"), (.bytes, "Bytes"),
         (.stream, "AsyncThrowingStream")]
            .filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
