/// The static type of a value in a script.
public indirect enum ScriptType: Sendable, Hashable, CustomStringConvertible {
    /// `Int`.
    case int
    /// `Double`.
    case double
    /// `Bool`.
    case bool
    /// `String`.
    case string
    /// `Secret`: a string that prints as `••••`.
    case secret
    /// `Bytes`: raw data, Swift's `Data`.
    case bytes
    /// `Void`: no value.
    case void
    /// `Any`: a value whose shape is known only when it runs, such as parsed JSON.
    case any
    /// `T?`.
    case optional(ScriptType)
    /// `[T]`.
    case array(ScriptType)
    /// `[String: T]`.
    case dictionary(ScriptType)
    /// `Range<Int>` (from `..<` and `...`).
    case range
    /// A function.
    case function(parameters: [ScriptType], result: ScriptType)
    /// A stream of items of a type, such as an event stream's: `AsyncThrowingStream<BuildEvent, any Error>`,
    /// read with `for try await`.
    case stream(ScriptType)
    /// A record with declared fields, such as `Post`.
    case record(RecordType)
    /// The type of `nil` before it meets an optional.
    case nilLiteral
    /// A type that could not be worked out because of an earlier error; it matches everything so
    /// that one mistake is reported once.
    case unknown

    /// How the type is written in Swift.
    public var description: String {
        switch self {
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .string: "String"
        case .secret: "Secret"
        case .bytes: "Bytes"
        case .void: "Void"
        case .any: "Any"
        case .optional(let wrapped):
            if case .function = wrapped { "(\(wrapped))?" } else { "\(wrapped)?" }
        case .array(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        case .range: "Range<Int>"
        case .function(let parameters, let result):
            "(\(parameters.map(\.description).joined(separator: ", "))) -> \(result)"
        case .stream(let item): "AsyncThrowingStream<\(item), any Error>"
        case .record(let type): type.name
        case .nilLiteral: "nil"
        case .unknown: "_"
        }
    }

    /// The type without one level of optional.
    public var unwrapped: ScriptType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// Whether it is a stream (``stream(_:)``).
    public var isStream: Bool {
        if case .stream = self { return true }
        return false
    }

    /// Whether it is `T?`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// This type made optional (not twice).
    public var optional: ScriptType {
        switch self {
        case .optional, .unknown, .any, .nilLiteral: self
        default: .optional(self)
        }
    }

    /// Whether values of this type are checked only when they run.
    var isDynamic: Bool { self == .any || self == .unknown }

    /// Whether a value of type `other` may be used where this type is expected.
    public func accepts(_ other: ScriptType) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.unknown, _), (_, .unknown), (.any, _), (_, .any):
            return true
        case (.optional, .nilLiteral):
            return true
        case (.secret, .string):
            return true
        case (.optional(let wrapped), .optional(let otherWrapped)):
            return wrapped.accepts(otherWrapped)
        case (.optional(let wrapped), _):
            return wrapped.accepts(other)
        case (.array(let element), .array(let otherElement)):
            return element.accepts(otherElement)
        case (.dictionary(let value), .dictionary(let otherValue)):
            return value.accepts(otherValue)
        case (.stream(let item), .stream(let otherItem)):
            return item.accepts(otherItem)
        case (.function(let parameters, let result), .function(let otherParameters, let otherResult)):
            return parameters.count == otherParameters.count && result.accepts(otherResult)
                && zip(parameters, otherParameters).allSatisfy { $1.accepts($0) }
        case (.record(let type), .record(let otherType)):
            return type === otherType || type.name == otherType.name
        default:
            return false
        }
    }

    /// Whether values of this type can be compared with `<`.
    var isComparable: Bool {
        switch self {
        case .int, .double, .string, .unknown, .any: true
        default: false
        }
    }

    /// Whether values of this type can be compared with `==`.
    var isEquatable: Bool {
        switch self {
        case .function, .stream: false
        case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped): wrapped.isEquatable
        default: true
        }
    }
}
