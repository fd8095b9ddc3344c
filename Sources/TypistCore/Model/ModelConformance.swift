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
        /// Whether it is a key the model does not declare: the value can still be typed.
        package var isUndeclaredKey = false

        package var description: String { "at \(path): \(reason)" }
    }

    /// `value` as a value of `type`.
    package static func conform(_ value: Value, to type: ScriptType) throws(Departure) -> Value {
        try conform(value, to: type, path: "$")
    }

    /// `value` as a value of `type`, at `path` for an error.
    private static func conform(_ value: Value, to type: ScriptType, path: String) throws(Departure) -> Value {
        do throws(Misfit) {
            return try conformed(value, to: type)
        } catch {
            throw Departure(path: error.steps.reversed().reduce(path) { path, step in
                switch step {
                case .index(let index): "\(path)[\(index)]"
                case .key(let key): member(path, key)
                }
            }, reason: error.reason)
        }
    }

    /// A departure found below the value being read: its place is made only if one is found
    /// (making a path for each of a million elements took most of a big response's time).
    private struct Misfit: Error {
        enum Step {
            case index(Int)
            case key(String)
        }

        /// From the departure outwards.
        var steps: [Step] = []
        var reason: String

        func at(_ step: Step) -> Misfit {
            var outer = self
            outer.steps.append(step)
            return outer
        }
    }

    private static func conformed(_ value: Value, to type: ScriptType) throws(Misfit) -> Value {
        switch (type, value) {
        case (.any, _), (.unknown, _): return value
        case (.optional, .null), (.nilLiteral, .null): return .null
        case (.optional(let wrapped), _): return try conformed(value, to: wrapped)
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
                do throws(Misfit) {
                    result.append(try conformed(item, to: element))
                } catch {
                    throw error.at(.index(index))
                }
            }
            return .array(result)
        case (.dictionary(let element), .dictionary(let entries)):
            var result: [String: Value] = [:]
            for (key, entry) in entries { result[key] = try conformed(entry, to: element, key: key) }
            return .dictionary(result)
        case (.record(let record), .dictionary(let entries)):
            var values: [Value] = []
            values.reserveCapacity(record.fields.count)
            for field in record.fields {
                guard let entry = entries[field.key] else {
                    // The document's default stands for an absent key, as the generated Swift's
                    // `decodeIfPresent(…) ?? default` has it.
                    if let defaultValue = field.defaultValue {
                        values.append(defaultValue)
                        continue
                    }
                    guard field.type.isOptional || field.type == .any else {
                        throw Misfit(reason: "the key '\(TerminalText.sanitized(field.key))' (\(field.type)) is missing")
                    }
                    values.append(.null)
                    continue
                }
                values.append(try conformed(entry, to: field.type, key: field.key))
            }
            // An open record keeps every other key the service sent, as its document types them.
            guard let additionalType = record.additionalProperties else {
                return .record(Record(type: record, values: values))
            }
            var additional: [String: Value] = [:]
            let declared = Set(record.fields.map(\.key))
            for (key, entry) in entries where !declared.contains(key) {
                additional[key] = try conformed(entry, to: additionalType, key: key)
            }
            return .record(Record(type: record, values: values, additionalProperties: additional))
        default: break
        }
        throw Misfit(reason: "expected \(type), found \(kind(of: value))")
    }

    /// A member's value, its key added to the place of a departure below it.
    private static func conformed(_ value: Value, to type: ScriptType, key: String) throws(Misfit) -> Value {
        do throws(Misfit) {
            return try conformed(value, to: type)
        } catch {
            throw error.at(.key(key))
        }
    }

    /// Every place `value` departs from `type`, in document order and at most `limit`: what
    /// ``conform(_:to:)`` would stop at, and keys a record's model does not declare (which it
    /// passes over). For `--validate`.
    package static func departures(_ value: Value, from type: ScriptType, limit: Int) -> [Departure] {
        var found: [Departure] = []
        collect(value, type, path: "$", into: &found, limit: limit)
        return found
    }

    private static func collect(_ value: Value, _ type: ScriptType, path: String, into found: inout [Departure], limit: Int) {
        guard found.count < limit else { return }
        switch (type, value) {
        case (.any, _), (.unknown, _), (.void, _), (.optional, .null), (.nilLiteral, .null):
            return
        case (.optional(let wrapped), _):
            collect(value, wrapped, path: path, into: &found, limit: limit)
        case (.array(let element), .array(let elements)):
            for (index, item) in elements.enumerated() where found.count < limit {
                collect(item, element, path: "\(path)[\(index)]", into: &found, limit: limit)
            }
        case (.dictionary(let element), .dictionary(let entries)):
            for key in entries.keys.sorted() where found.count < limit {
                collect(entries[key] ?? .null, element, path: member(path, key), into: &found, limit: limit)
            }
        case (.record(let record), .dictionary(let entries)):
            for field in record.fields where found.count < limit {
                if let entry = entries[field.key] {
                    collect(entry, field.type, path: member(path, field.key), into: &found, limit: limit)
                } else if !(field.type.isOptional || field.type == .any || field.defaultValue != nil) {
                    found.append(Departure(path: path, reason: "the key '\(TerminalText.sanitized(field.key))' (\(field.type)) is missing"))
                }
            }
            let declared = Set(record.fields.map(\.key))
            for key in entries.keys.sorted() where !declared.contains(key) && found.count < limit {
                // The document allows other keys of an open record: only their type is checked.
                if let additionalType = record.additionalProperties {
                    collect(entries[key] ?? .null, additionalType, path: member(path, key), into: &found, limit: limit)
                } else {
                    found.append(Departure(path: member(path, key), reason: "a key \(record.name) does not declare", isUndeclaredKey: true))
                }
            }
        default:
            do throws(Departure) {
                _ = try conform(value, to: type, path: path)
            } catch {
                found.append(error)
            }
        }
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
