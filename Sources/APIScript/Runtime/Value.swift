/// A value in a running script.
///
/// Optionals are not boxed: a present optional is the value itself and an absent one is `.null`;
/// the static type says which names may hold `nil`.
public enum Value: Sendable {
    /// An `Int`.
    case int(Int)
    /// A `Double`.
    case double(Double)
    /// A `Bool`.
    case bool(Bool)
    /// A `String`.
    case string(String)
    /// `Bytes`: a body or field that is raw data (Swift's `Data`), never decoded as text.
    case bytes([UInt8])
    /// A string that prints as `••••` unless the host reveals it.
    case secret(String)
    /// `nil`.
    case null
    /// An array.
    case array([Value])
    /// A dictionary with string keys.
    case dictionary([String: Value])
    /// A half-open range of integers, `lower..<upper`.
    case range(Int, Int)
    /// A record: a decoded model or a tuple.
    case record(Record)
    /// A function: a closure, a script function, a host function or a key path.
    case function(Function)
    /// A stream of items that arrive over time, read with `for try await` (see ``ScriptStream``).
    case stream(ScriptStream)
    /// No value (the result of a statement or a `Void` function).
    case void

    /// Whether this is `nil`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Value: Equatable {
    /// Equality as Swift's `==`: numbers compare across `Int` and `Double`, records field by field.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)): Double(a) == b
        case (.double(let a), .int(let b)): a == Double(b)
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)), (.secret(let a), .secret(let b)),
            (.string(let a), .secret(let b)), (.secret(let a), .string(let b)):
            a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.null, .null), (.void, .void): true
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a == b
        case (.range(let a1, let a2), .range(let b1, let b2)): a1 == b1 && a2 == b2
        case (.record(let a), .record(let b)): a == b
        case (.function(let a), .function(let b)): a === b
        case (.stream(let a), .stream(let b)): a === b
        default: false
        }
    }
}
