import APIScript
import Foundation

/// A Swift type that a script argument converts to: `Int`, `Double`, `Bool`, `String`, `UUID`,
/// `Date`, raw-value enums (`extension Sort: ScriptArgument {}` is all they need), and optionals,
/// arrays, sets and `[String: …]` dictionaries of these. A host needs only `import Typist`.
public protocol ScriptArgument: Sendable {
    /// The type scripts see.
    static var scriptType: ScriptType { get }
    /// Converts a script value, or throws a message such as "'x' is not a UUID".
    static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Self
    /// The value as a script literal (for defaults, `:swift` and help).
    var scriptValue: Value { get }
    /// Every value the type allows, when they are few and named (a raw-value enum's cases), for
    /// `:describe`, help and completion; `nil` otherwise.
    static var choices: [Value]? { get }
    /// A raw-value enum's cases by their Swift names, so that scripts may write `sort: .stars`;
    /// `nil` for other types.
    static var cases: [HostEnumeration.Case]? { get }
}

extension ScriptArgument {
    /// Most types allow too many values to list; an enum's are its cases' values.
    public static var choices: [Value]? { cases?.map(\.value) }
    /// Most types are not enums.
    public static var cases: [HostEnumeration.Case]? { nil }
}

/// Why an argument did not convert.
public struct ArgumentConversionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, such as "'x' is not a UUID".
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension Int: ScriptArgument {
    public static var scriptType: ScriptType { .int }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Int {
        if case .int(let number) = value { return number }
        throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not an Int")
    }
    public var scriptValue: Value { .int(self) }
}

extension Double: ScriptArgument {
    public static var scriptType: ScriptType { .double }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a Double")
        }
    }
    public var scriptValue: Value { .double(self) }
}

extension Bool: ScriptArgument {
    public static var scriptType: ScriptType { .bool }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Bool {
        if case .bool(let flag) = value { return flag }
        throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a Bool")
    }
    public var scriptValue: Value { .bool(self) }
}

extension String: ScriptArgument {
    public static var scriptType: ScriptType { .string }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> String {
        switch value {
        case .string(let text), .secret(let text): return text
        default: throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a String")
        }
    }
    public var scriptValue: Value { .string(self) }
}

extension UUID: ScriptArgument {
    public static var scriptType: ScriptType { .string }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> UUID {
        guard case .string(let text) = value else { throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a UUID") }
        guard let uuid = UUID(uuidString: text) else {
            throw ArgumentConversionError("'\(text)' is not a UUID (expected the form D4F28578-51BD-40F4-A8BD-387668E06EF8)")
        }
        return uuid
    }
    public var scriptValue: Value { .string(uuidString) }
}

extension Date: ScriptArgument {
    public static var scriptType: ScriptType { .string }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Date {
        guard case .string(let text) = value, let date = ISO8601DateFormatter().date(from: text) else {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a date; write it as ISO 8601, such as \"2026-11-22T09:30:00Z\"")
        }
        return date
    }
    public var scriptValue: Value { .string(ISO8601DateFormatter().string(from: self)) }
}

extension Optional: ScriptArgument where Wrapped: ScriptArgument {
    public static var scriptType: ScriptType { Wrapped.scriptType.optional }
    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Wrapped? {
        if value.isNull { return nil }
        return try Wrapped.fromScript(value)
    }
    public var scriptValue: Value { map(\.scriptValue) ?? .null }
    public static var choices: [Value]? { Wrapped.choices }
    public static var cases: [HostEnumeration.Case]? { Wrapped.cases }
}

extension Array: ScriptArgument where Element: ScriptArgument {
    /// Arrays of any argument type: `tags: ["a", "b"]`.
    public static var scriptType: ScriptType { .array(Element.scriptType) }
    public static func fromScript(_ value: APIScript.Value) throws(ArgumentConversionError) -> [Element] {
        guard case .array(let elements) = value else {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not an array")
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try Element.fromScript(element))
            } catch {
                throw ArgumentConversionError("element \(index): \(error.message)")
            }
        }
        return result
    }
    public var scriptValue: APIScript.Value { .array(map(\.scriptValue)) }
    /// An array has no few values of its own to list.
    public static var choices: [APIScript.Value]? { nil }
    /// An array of a raw-value enum takes its cases element by element: `states: [.open, .closed]`.
    public static var cases: [HostEnumeration.Case]? { Element.cases }
}

extension Set: ScriptArgument where Element: ScriptArgument {
    /// Sets are arrays in scripts; a repeated element counts once.
    public static var scriptType: ScriptType { .array(Element.scriptType) }
    public static func fromScript(_ value: APIScript.Value) throws(ArgumentConversionError) -> Set<Element> {
        Set(try [Element].fromScript(value))
    }
    /// In a stable order (by the elements' text), so defaults and `:swift` read the same each run.
    public var scriptValue: APIScript.Value {
        .array(map(\.scriptValue).sorted { ValueFormatter.literal($0) < ValueFormatter.literal($1) })
    }
    /// A set has no few values of its own to list.
    public static var choices: [APIScript.Value]? { nil }
    /// A set of a raw-value enum takes its cases element by element, as an array does.
    public static var cases: [HostEnumeration.Case]? { Element.cases }
}

extension Dictionary: ScriptArgument where Key == String, Value: ScriptArgument {
    /// `[String: T]` for any argument type `T`: `filters: ["state": "open"]`.
    public static var scriptType: ScriptType { .dictionary(Value.scriptType) }
    public static func fromScript(_ value: APIScript.Value) throws(ArgumentConversionError) -> [String: Value] {
        guard case .dictionary(let entries) = value else {
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not a dictionary")
        }
        var result: [String: Value] = [:]
        for (key, entry) in entries {
            do {
                result[key] = try Value.fromScript(entry)
            } catch {
                throw ArgumentConversionError("\(ValueFormatter.quoted(key)): \(error.message)")
            }
        }
        return result
    }
    public var scriptValue: APIScript.Value { .dictionary(mapValues(\.scriptValue)) }
}

extension ScriptArgument where Self: RawRepresentable & CaseIterable, RawValue == String {
    /// Raw-value enums are strings in scripts, checked against their cases.
    public static var scriptType: ScriptType { .string }

    public static func fromScript(_ value: Value) throws(ArgumentConversionError) -> Self {
        guard case .string(let text) = value, let result = Self(rawValue: text) else {
            let cases = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ArgumentConversionError("\(ValueFormatter.literal(value)) is not one of \(cases)")
        }
        return result
    }

    public var scriptValue: Value { .string(rawValue) }

    /// The cases by their Swift names, with their raw values, in declaration order.
    public static var cases: [HostEnumeration.Case]? {
        allCases.map { HostEnumeration.Case(name: SwiftTypeName.caseName(of: $0), value: $0.scriptValue) }
    }
}
