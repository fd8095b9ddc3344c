import APIScript
import TypistText

/// Reads a dynamic JSON value as a value of a model type — records from objects by their fields'
/// JSON keys — or says where it departs from the model, with the JSON path (`$.items[3].name`).
///
/// This is how a response typed by a document (an OpenAPI schema) becomes the records scripts
/// navigate: the model says what must be there, the JSON says what is.
package enum ModelConformance {
    /// Where and how a value departs from its model.
    package struct Departure: Error, Sendable, CustomStringConvertible {
        /// The JSON path, such as `$.items[3].name`.
        package var path: String
        /// What was expected and found there.
        package var reason: String

        package var description: String { "at \(path): \(reason)" }
    }

    /// `value` as a value of `type`.
    package static func conform(_ value: Value, to type: ScriptType) throws(Departure) -> Value {
        try conform(value, to: type, path: "$")
    }

    private static func conform(_ value: Value, to type: ScriptType, path: String) throws(Departure) -> Value {
        switch (type, value) {
        case (.any, _), (.unknown, _): return value
        case (.optional, .null), (.nilLiteral, .null): return .null
        case (.optional(let wrapped), _): return try conform(value, to: wrapped, path: path)
        case (.int, .int): return value
        case (.int, .double(let number)):
            // `1.0` is a whole number: JSON does not tell them apart.
            if let whole = Int(exactly: number) { return .int(whole) }
        case (.double, .double): return value
        case (.double, .int(let number)): return .double(Double(number))
        case (.string, .string), (.bool, .bool): return value
        case (.secret, .string(let text)): return .secret(text)
        case (.bytes, .string(let text)): return .bytes(Array(text.utf8))
        case (.void, _): return .void
        case (.array(let element), .array(let elements)):
            guard element != .any else { return value }
            var result: [Value] = []
            result.reserveCapacity(elements.count)
            for (index, item) in elements.enumerated() {
                result.append(try conform(item, to: element, path: "\(path)[\(index)]"))
            }
            return .array(result)
        case (.dictionary(let element), .dictionary(let entries)):
            var result: [String: Value] = [:]
            for (key, entry) in entries { result[key] = try conform(entry, to: element, path: member(path, key)) }
            return .dictionary(result)
        case (.record(let record), .dictionary(let entries)):
            var values: [Value] = []
            for field in record.fields {
                guard let entry = entries[field.key] else {
                    guard field.type.isOptional || field.type == .any else {
                        throw Departure(path: path, reason: "the key '\(TerminalText.sanitized(field.key))' (\(field.type)) is missing")
                    }
                    values.append(.null)
                    continue
                }
                values.append(try conform(entry, to: field.type, path: member(path, field.key)))
            }
            return .record(Record(type: record, values: values))
        default: break
        }
        throw Departure(path: path, reason: "expected \(type), found \(kind(of: value))")
    }

    /// `$.name`, or `$["a key"]` for a key that is not a plain name.
    private static func member(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return plain ? "\(path).\(key)" : "\(path)[\(ValueFormatter.quoted(key))]"
    }

    private static func kind(of value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Bool"
        case .int: "an Int"
        case .double: "a Double"
        case .string: "a String"
        case .array: "an array"
        case .dictionary: "an object"
        default: ValueFormatter.typeName(value)
        }
    }
}
