/// What a call or member access resolves to, decided by the checker and used by the compiler.
enum Callee {
    /// A host function; `arguments[i]` is the argument for parameter `i`, or `nil` for its default.
    case hostFunction(HostFunction, arguments: [Int?])
    /// A script `func` (its binding, held weakly: see ``WeakBinding``).
    case scriptFunction(WeakBinding, arguments: [Int?])
    /// A built-in global function.
    case builtin(BuiltinFunction)
    /// A method of a built-in type.
    case method(BuiltinMethod)
    /// A property of a built-in type.
    case property(Property)
    /// A record field at a known position.
    case field(Int)
    /// A member of a dynamic value, looked up by name as it runs.
    case dynamicMember(String)
    /// Calling a function value.
    case value
    /// An enum case written `.stars`, resolved to the value scripts use for it.
    case enumCase(Value)
}

/// Properties of arrays, strings, dictionaries, ranges and bytes.
enum Property: String, CaseIterable {
    case count, isEmpty, first, last, keys, values, lowerBound, upperBound, base64, hex, utf8

    /// The kinds of value that have the property.
    var receivers: Receivers {
        switch self {
        case .count, .isEmpty: [.array, .range, .string, .dictionary, .bytes]
        case .first, .last: [.array, .string, .bytes]
        case .keys, .values: .dictionary
        case .lowerBound, .upperBound: .range
        case .base64, .hex, .utf8: .bytes
        }
    }

    /// What `:help` says of it.
    var help: String {
        let text = switch self {
        case .count: "count: Int — the number of elements (characters of a string, entries of a dictionary, bytes)"
        case .isEmpty: "isEmpty: Bool — whether there are no elements"
        case .first: "first: Element? — the first element, or nil when empty"
        case .last: "last: Element? — the last element, or nil when empty"
        case .keys: "keys: [String] — a dictionary's keys, sorted"
        case .values: "values: [Value] — a dictionary's values, in the order of its sorted keys"
        case .lowerBound: "lowerBound: Int — where a range starts"
        case .upperBound: "upperBound: Int — where a range ends (not included)"
        case .base64: "base64: String — the bytes in Base64 (RFC 4648, padded)"
        case .hex: "hex: String — the bytes in lowercase hexadecimal, two digits each"
        case .utf8: "utf8: String? — the bytes read as UTF-8 text, or nil when they are not valid UTF-8"
        }
        return text + "   on " + receivers.description
    }
}

/// The members each built-in type offers, for checking, suggestions and completion.
enum BuiltinMembers {
    /// Properties plain, then method base names, each once; a record's fields.
    static func names(for type: ScriptType) -> [String] {
        if case .record(let record) = type.unwrapped { return record.fields.map(\.name) }
        guard let kind = Receivers(type) else { return [] }
        let properties = Property.allCases.filter { $0.receivers.contains(kind) }.map(\.rawValue)
        return properties + BuiltinMethod.names(on: kind).filter { !properties.contains($0) }
    }
}
