import APIScript
import TypistText

/// Whether a value fits the type a document gives an argument that scripts pass as any JSON — an
/// object (`permissions: {read: [String], write: [String]}`), a list of them, a map — so that a
/// value the schema rules out (`data: 42` where `data` is an object, a misspelt key of an object
/// whose keys the schema lists) is an error at the argument before anything is sent, as the
/// generated Swift's types would make it one at compile time.
///
/// The type is the one ``SchemaTypes`` lowers the schema to (the same records `generate` writes):
/// a record takes a dictionary or a record with its keys, its non-optional fields present, and
/// other keys only where it is open (`additionalProperties`); `Any` takes anything.
package enum SchemaConformance {
    /// How deep a value is followed; below, the service decides (a value is at most as deep as
    /// the script that built it, and a self-referring schema has no depth of its own).
    private static let maximumDepth = 64

    /// Why `type` rules out `value` for the argument `label` — `permissions.read must be a list of
    /// strings (the document's type), not a string` — or nil when it allows it.
    package static func violation(of value: Value, to type: ScriptType, label: String) -> String? {
        violation(of: value, to: type, path: label, depth: 0)
    }

    /// Why no value of the static type `found` can fit `type` (`Int` where the document has an
    /// object), or nil when some can: the checker's question about an argument that is not a
    /// literal.
    package static func violation(ofType found: ScriptType, to type: ScriptType, label: String) -> String? {
        guard let expected = kind(of: type), let given = kind(of: found) else { return nil }
        if found.isOptional, !type.isOptional, found.unwrapped != .any { return nil }  // an optional's `!`/`??` is the checker's own error
        if compatible(given, expected) {
            switch (type.unwrapped, found.unwrapped) {
            case (.array(let element), .array(let foundElement)):
                return violation(ofType: foundElement, to: element, label: label + "[]")
            default:
                return nil
            }
        }
        return "\(label) must be \(phrase(type)) (the document's type), not \(article(found))"
    }

    private static func violation(of value: Value, to type: ScriptType, path: String, depth: Int) -> String? {
        guard depth < maximumDepth else { return nil }
        switch (type, value) {
        case (.any, _), (.unknown, _): return nil
        case (.optional, .null), (.nilLiteral, .null): return nil
        case (.optional(let wrapped), _): return violation(of: value, to: wrapped, path: path, depth: depth)
        case (.int, .int), (.double, .int), (.double, .double), (.bool, .bool), (.string, .string), (.string, .secret),
             (.secret, .string), (.secret, .secret), (.bytes, .bytes):
            return nil
        case (.int, .double(let number)) where number.rounded() == number && abs(number) < 9.0e15:
            return nil
        case (.array(let element), .array(let values)):
            for (index, item) in values.enumerated() {
                if let problem = violation(of: item, to: element, path: "\(path)[\(index)]", depth: depth + 1) { return problem }
            }
            return nil
        case (.dictionary(let element), .dictionary(let entries)):
            for key in entries.keys.sorted() {
                if let item = entries[key], let problem = violation(of: item, to: element, path: member(path, key), depth: depth + 1) { return problem }
            }
            return nil
        case (.dictionary(let element), .record(let record)):
            return violation(of: .dictionary(jsonEntries(of: record)), to: .dictionary(element), path: path, depth: depth)
        case (.record(let recordType), .dictionary(let entries)):
            return violation(of: entries, to: recordType, path: path, depth: depth)
        case (.record(let recordType), .record(let record)):
            if record.type === recordType || record.type.name == recordType.name { return nil }
            // A value a response gave, sent back: its keys are the service's (an `id` the document
            // marks readOnly), which it ignores where it does not take them; its types are checked.
            return violation(of: jsonEntries(of: record), to: recordType, path: path, depth: depth, keepsOtherKeys: true)
        default:
            return "\(path) must be \(phrase(type)) (the document's type), not \(article(of: value))"
        }
    }

    /// An object against a record's fields: each key known (or the record open), each value of
    /// its field's type, each required field there.
    private static func violation(of entries: [String: Value], to record: RecordType, path: String, depth: Int,
                                  keepsOtherKeys: Bool = false) -> String? {
        let fields = record.fields
        let keys = Set(fields.map(\.key))
        for key in entries.keys.sorted() where !keys.contains(key) {
            guard let additional = record.additionalProperties else {
                if keepsOtherKeys { continue }
                let names = fields.map(\.key)
                let hint = Suggestions.nearest(to: key, in: names).map { " (did you mean \(ValueFormatter.quoted($0))?)" }
                    ?? (names.isEmpty ? "" : " (its keys: \(names.map { ValueFormatter.quoted(TerminalText.sanitized($0)) }.joined(separator: ", ")))")
                return "\(path) has no key \(ValueFormatter.quoted(TerminalText.sanitized(key))) in the document\(hint)"
            }
            if let item = entries[key], let problem = violation(of: item, to: additional, path: member(path, key), depth: depth + 1) { return problem }
        }
        for field in fields {
            guard let item = entries[field.key] else {
                if !field.type.isOptional, field.type != .any, field.defaultValue == nil {
                    return "\(path) needs the key \(ValueFormatter.quoted(TerminalText.sanitized(field.key))) (the document requires it)"
                }
                continue
            }
            if let problem = violation(of: item, to: field.type, path: member(path, field.key), depth: depth + 1) { return problem }
        }
        return nil
    }

    /// A record value's JSON object: its fields under their keys (nil ones left out, as they are
    /// sent) and the keys it kept.
    private static func jsonEntries(of record: Record) -> [String: Value] {
        var entries = record.additionalProperties
        for (index, field) in record.type.fields.enumerated() {
            if let value = record.value(at: index), value != .null { entries[field.key] = value }
        }
        return entries
    }

    private static func member(_ path: String, _ key: String) -> String {
        let shown = TerminalText.sanitized(key)
        return ScriptNames.problem(with: key) == nil ? "\(path).\(shown)" : "\(path)[\(ValueFormatter.quoted(shown))]"
    }

    /// The document's type in words, as `:describe` lists it beside the parameter: `an object
    /// with the keys read, write`, `a list of objects with the keys name, url`.
    package static func summary(of type: ScriptType) -> String { phrase(type) }

    // MARK: Words

    private enum Kind { case number, integer, bool, string, bytes, list, object, null }

    /// What JSON a type is, or nil where it takes anything.
    private static func kind(of type: ScriptType) -> Kind? {
        switch type.unwrapped {
        case .int: .integer
        case .double: .number
        case .bool: .bool
        case .string, .secret: .string
        case .bytes: .bytes
        case .array: .list
        case .dictionary, .record: .object
        case .nilLiteral: .null
        default: nil
        }
    }

    private static func compatible(_ found: Kind, _ expected: Kind) -> Bool {
        found == expected || (expected == .number && found == .integer) || (expected == .integer && found == .number)
    }

    /// `an object with the keys read, write`, `a list of strings`, `a number`.
    private static func phrase(_ type: ScriptType, plural: Bool = false) -> String {
        let text: String
        switch type.unwrapped {
        case .int: text = plural ? "integers" : "an integer"
        case .double: text = plural ? "numbers" : "a number"
        case .bool: text = plural ? "booleans" : "a boolean"
        case .string, .secret: text = plural ? "strings" : "a string"
        case .bytes: text = plural ? "files" : "a file"
        case .array(let element): text = (plural ? "lists of " : "a list of ") + phrase(element, plural: true)
        case .dictionary(let element):
            text = (plural ? "objects" : "an object") + (element.unwrapped == .any ? "" : " of " + phrase(element, plural: true))
        case .record(let record):
            let keys = record.fields.prefix(6).map { TerminalText.sanitized($0.key) }
            let more = record.fields.count > 6 ? ", …" : ""
            text = (plural ? "objects" : "an object") + (keys.isEmpty ? "" : " with the keys \(keys.joined(separator: ", "))\(more)")
        default: text = plural ? "values" : "a value"
        }
        return text
    }

    private static func article(_ type: ScriptType) -> String {
        switch type.unwrapped {
        case .int: "an Int"
        case .double: "a Double"
        case .bool: "a Bool"
        case .string, .secret: "a String"
        case .bytes: "Bytes"
        case .array: "a list (\(type))"
        case .dictionary: "a dictionary (\(type))"
        case .record(let record): "a \(record.name)"
        default: "a \(type)"
        }
    }

    private static func article(of value: Value) -> String {
        switch value {
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .string(let text): text.unicodeScalars.count <= 40 ? ValueFormatter.quoted(TerminalText.sanitized(text)) : "a string"
        case .secret: "a secret"
        case .null: "nil"
        case .array: "a list"
        case .dictionary: "a dictionary"
        case .record(let record): "a \(record.type.name)"
        case .bytes: "bytes"
        default: "a value of another kind"
        }
    }
}
