/// Makes a dynamic value (JSON read at run time) into the type a declaration annotates, or says
/// where it does not fit: `let id: Int = r.json["id"]` with `1.5` in the body is an error naming
/// the value and its place in the JSON, never a `Double` behind an `Int`.
enum DynamicConformance {
    /// `value` as `type`; whole numbers become `Int`, numbers `Double`, as JSONDecoder reads them.
    static func conform(_ value: Value, to type: ScriptType) throws -> Value {
        try conform(value, to: type, path: "")
    }

    private static func conform(_ value: Value, to type: ScriptType, path: String) throws -> Value {
        switch (type, value) {
        case (.any, _), (.unknown, _): return value
        case (.optional, .null): return value
        case (.optional(let wrapped), _): return try conform(value, to: wrapped, path: path)
        case (.int, .int), (.double, .double), (.bool, .bool), (.string, .string), (.secret, .secret), (.bytes, .bytes):
            return value
        case (.int, .double(let number)):
            guard let whole = Int(exactly: number) else { throw mismatch(value, type, path) }
            return .int(whole)
        case (.double, .int(let number)): return .double(Double(number))
        case (.secret, .string(let text)): return .secret(text)
        case (.array(let element), .array(let elements)):
            return .array(try elements.enumerated().map { index, item in try conform(item, to: element, path: path + "[\(index)]") })
        case (.dictionary(let element), .dictionary(let entries)):
            var result: [String: Value] = [:]
            for (key, item) in entries { result[key] = try conform(item, to: element, path: path + "[\(ValueFormatter.quoted(key))]") }
            return .dictionary(result)
        case (.record(let record), .record(let found)) where found.type.name == record.name:
            return value
        default:
            throw mismatch(value, type, path)
        }
    }

    private static func mismatch(_ value: Value, _ type: ScriptType, _ path: String) -> ScriptFailure {
        let shown = ValueFormatter.literal(value)
        let what = value == .null ? "nil" : (shown.count > 60 ? String(shown.prefix(57)) + "…" : shown) + " (\(ValueFormatter.typeName(value)))"
        let place = path.isEmpty ? "the value" : "the value at \(path)"
        return ScriptFailure("\(place) is \(what), not \(type)",
                             notes: [.init(value == .null ? "declare it '\(type)?' where nil may come" : "declare the type the data has, or convert it (Int(…), String(…))")])
    }
}
