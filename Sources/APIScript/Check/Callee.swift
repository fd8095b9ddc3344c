/// What a call or member access resolves to, decided by the checker and used by the compiler.
enum Callee {
    /// A host function; `arguments[i]` is the argument for parameter `i`, or `nil` for its default.
    case hostFunction(HostFunction, arguments: [Int?])
    /// A script `func`.
    case scriptFunction(Binding, arguments: [Int?])
    /// A built-in global function.
    case builtin(BuiltinFunction)
    /// A method of a built-in type.
    case method(Method)
    /// A property of a built-in type.
    case property(Property)
    /// A record field at a known position.
    case field(Int)
    /// A member of a dynamic value, looked up by name as it runs.
    case dynamicMember(String)
    /// Calling a function value.
    case value
}

/// The built-in global functions.
enum BuiltinFunction: String, CaseIterable {
    case print, expect, env, int = "Int", double = "Double", string = "String", json, typeOf = "type", abs, min, max

    var summary: String {
        switch self {
        case .print: "print(_ items: Any..., separator: String = \" \", terminator: String = \"\\n\")"
        case .expect: "expect(_ condition: Bool, _ message: String = \"\") — stops the script when false"
        case .env: "env(_ name: String) -> String? — an environment variable"
        case .int: "Int(_ value) -> Int? — from a String (nil when not a number) or a Double"
        case .double: "Double(_ value) -> Double? — from a String or an Int"
        case .string: "String(_ value) -> String — any value as text"
        case .json: "json(_ text: String) -> Any — parse JSON into dynamic values"
        case .typeOf: "type(of: value) -> String — the value's type name"
        case .abs: "abs(_ x) -> the same type"
        case .min: "min(_ a, _ b, …) -> the smallest"
        case .max: "max(_ a, _ b, …) -> the largest"
        }
    }
}

/// Methods of arrays, strings, dictionaries and ranges.
enum Method: String, CaseIterable {
    case map, filter, compactMap, reduce, sorted, forEach, contains, allSatisfy, prefix, suffix, reversed, joined
    case min, max, enumerated, dropFirst, dropLast, uppercased, lowercased, hasPrefix, hasSuffix, split
    case firstWhere = "first(where:)", lastWhere = "last(where:)", countWhere = "count(where:)"
    case mapValues, randomElement, shuffled, trimmed = "trimmingWhitespace"
    case append, appendContentsOf = "append(contentsOf:)", insert = "insert(_:at:)", removeAt = "remove(at:)"
    case removeFirst, removeLast, removeAll

    /// Whether the method changes the array it is called on.
    var isMutating: Bool {
        switch self {
        case .append, .appendContentsOf, .insert, .removeAt, .removeFirst, .removeLast, .removeAll: true
        default: false
        }
    }

    /// Whether the method takes a function argument.
    var isHigherOrder: Bool {
        switch self {
        case .map, .filter, .compactMap, .reduce, .forEach, .allSatisfy, .firstWhere, .lastWhere, .countWhere,
            .mapValues:
            true
        default: false
        }
    }
}

/// Properties of arrays, strings, dictionaries and ranges.
enum Property: String, CaseIterable {
    case count, isEmpty, first, last, keys, values, lowerBound, upperBound
}

/// The members each built-in type offers, for checking and completion.
enum BuiltinMembers {
    static let array = ["count", "isEmpty", "first", "last", "map", "filter", "compactMap", "reduce", "sorted",
                        "forEach", "contains", "allSatisfy", "prefix", "suffix", "reversed", "joined", "min", "max",
                        "enumerated", "dropFirst", "dropLast", "first(where:)", "last(where:)", "count(where:)",
                        "randomElement", "shuffled", "append", "insert", "remove(at:)", "removeFirst", "removeLast",
                        "removeAll"]
    static let string = ["count", "isEmpty", "first", "last", "uppercased", "lowercased", "hasPrefix", "hasSuffix",
                         "contains", "split", "reversed", "prefix", "suffix", "dropFirst", "dropLast",
                         "trimmingWhitespace"]
    static let dictionary = ["count", "isEmpty", "keys", "values", "mapValues", "contains", "filter", "map"]
    static let range = ["count", "isEmpty", "lowerBound", "upperBound", "map", "filter", "reduce", "contains",
                        "reversed", "forEach"]

    /// Member names for completion: properties plain, methods with `(`.
    static func names(for type: ScriptType) -> [String] {
        let list: [String]
        switch type.unwrapped {
        case .array: list = array
        case .string: list = string
        case .dictionary: list = dictionary
        case .range: list = range
        case .record(let record): return record.fields.map(\.name)
        default: return []
        }
        return list.map { $0.hasSuffix(":)") ? String($0.prefix { $0 != "(" }) : $0 }
    }
}
