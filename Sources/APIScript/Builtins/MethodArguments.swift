/// Reading a built-in method's argument values, with one message per kind of mistake.
enum MethodArguments {
    static func function(_ arguments: [Value], _ index: Int = 0) throws -> Function {
        guard index < arguments.count, case .function(let function) = arguments[index] else {
            throw ScriptFailure("expected a closure argument")
        }
        return function
    }

    /// A count (`prefix(3)`): not negative; `value` when it is left out.
    static func count(_ arguments: [Value], default value: Int) throws -> Int {
        guard let first = arguments.first else { return value }
        guard case .int(let number) = first else { throw ScriptFailure("expected an Int argument") }
        guard number >= 0 else { throw ScriptFailure("the count must not be negative (\(number))") }
        return number
    }

    static func string(_ arguments: [Value], default value: String? = nil) throws -> String {
        guard let first = arguments.first else {
            if let value { return value }
            throw ScriptFailure("expected a String argument")
        }
        switch first {
        case .string(let text), .secret(let text): return text
        default: throw ScriptFailure("expected a String argument, found '\(ValueFormatter.typeName(first))'")
        }
    }

    /// Dictionary entries, for methods that keep a dictionary a dictionary.
    static func entries(_ value: Value) -> [String: Value]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    /// `(key, value)` pairs kept by a filter, as a dictionary again.
    static func dictionary(from pairs: [Value]) -> Value {
        var result: [String: Value] = [:]
        for case .record(let pair) in pairs {
            if case .string(let key)? = pair.value(at: 0) { result[key] = pair.value(at: 1) ?? .null }
        }
        return .dictionary(result)
    }
}
