/// Properties and methods of built-in values, at run time.
enum Members {
    /// A member looked up by name on a value whose type is known only now (JSON, `Any`).
    static func dynamicMember(_ value: Value, _ name: String, span: TextSpan?) throws -> Value {
        switch value {
        case .record(let record):
            if let field = record[name] { return field }
            if record.type.isTuple, let position = Int(name), let field = record.value(at: position) { return field }
            // An open record keeps the service's other keys: one it did not send is nil.
            if record.type.isOpen { return record.additionalProperties[name] ?? .null }
            let suggestion = Suggestions.nearest(to: name, in: record.type.fields.map(\.name))
            throw ScriptFailure("\(record.type.name) has no member '\(name)'",
                                notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [])
        case .dictionary(let entries):
            if let property = Property(rawValue: name), ["count", "isEmpty", "keys", "values"].contains(name),
                entries[name] == nil
            {
                return try self.property(property, of: value)
            }
            guard let entry = entries[name] else {
                let suggestion = Suggestions.nearest(to: name, in: entries.keys)
                throw ScriptFailure("the object has no key '\(name)'",
                                    notes: suggestion.map { [.init("did you mean '\($0)'?")] }
                                        ?? [.init("its keys: \(entries.keys.sorted().prefix(12).joined(separator: ", "))")])
            }
            return entry
        case .null:
            throw ScriptFailure("cannot read '\(name)' of nil", notes: [.init("use '?.' to read it only when present")])
        default:
            if let property = Property(rawValue: name) { return try self.property(property, of: value) }
            throw ScriptFailure("a value of type '\(ValueFormatter.typeName(value))' has no member '\(name)'")
        }
    }

    static func property(_ property: Property, of value: Value) throws -> Value {
        switch (property, value) {
        case (.count, .array(let elements)): return .int(elements.count)
        case (.count, .string(let text)): return .int(text.count)
        case (.count, .dictionary(let entries)): return .int(entries.count)
        case (.count, .range(let lower, let upper)):
            let (count, overflow) = upper.subtractingReportingOverflow(lower)
            guard !overflow else {
                throw ScriptFailure("the range \(lower)..<\(upper) has more elements than an Int can count")
            }
            return .int(max(0, count))
        case (.count, .bytes(let bytes)): return .int(bytes.count)
        case (.isEmpty, .bytes(let bytes)): return .bool(bytes.isEmpty)
        case (.first, .bytes(let bytes)): return bytes.first.map { .int(Int($0)) } ?? .null
        case (.last, .bytes(let bytes)): return bytes.last.map { .int(Int($0)) } ?? .null
        case (.base64, .bytes(let bytes)): return .string(ByteText.base64(bytes))
        case (.hex, .bytes(let bytes)): return .string(ByteText.hex(bytes))
        case (.utf8, .bytes(let bytes)): return ByteText.utf8(bytes).map(Value.string) ?? .null
        case (.isEmpty, .array(let elements)): return .bool(elements.isEmpty)
        case (.isEmpty, .string(let text)): return .bool(text.isEmpty)
        case (.isEmpty, .dictionary(let entries)): return .bool(entries.isEmpty)
        case (.isEmpty, .range(let lower, let upper)): return .bool(upper <= lower)
        case (.first, .array(let elements)): return elements.first ?? .null
        case (.last, .array(let elements)): return elements.last ?? .null
        case (.first, .string(let text)): return text.first.map { .string(String($0)) } ?? .null
        case (.last, .string(let text)): return text.last.map { .string(String($0)) } ?? .null
        case (.keys, .dictionary(let entries)): return .array(entries.keys.sorted().map(Value.string))
        case (.values, .dictionary(let entries)): return .array(entries.keys.sorted().compactMap { entries[$0] })
        case (.lowerBound, .range(let lower, _)): return .int(lower)
        case (.upperBound, .range(_, let upper)): return .int(upper)
        case (_, .null):
            throw ScriptFailure("cannot read '\(property.rawValue)' of nil")
        default:
            throw ScriptFailure("a value of type '\(ValueFormatter.typeName(value))' has no member '\(property.rawValue)'")
        }
    }

    /// The elements of something `for … in` or a method walks over.
    static func elements(of value: Value) throws -> [Value] {
        switch value {
        case .array(let elements): return elements
        case .range(let lower, let upper): return try ScriptLimits.count(lower, upper) > 0 ? (lower..<upper).map(Value.int) : []
        case .string(let text): return text.map { .string(String($0)) }
        case .bytes(let bytes):
            try ScriptLimits.checkElements(bytes.count)
            return bytes.map { .int(Int($0)) }
        case .dictionary(let entries):
            return entries.keys.sorted().map { key in
                .record(Record(type: pairType, values: [.string(key), entries[key] ?? .null]))
            }
        case .null: throw ScriptFailure("cannot iterate over nil")
        case .stream: throw ScriptFailure("a stream is read as its items arrive, with 'for try await'")
        default: throw ScriptFailure("a value of type '\(ValueFormatter.typeName(value))' is not a sequence")
        }
    }

    static let pairType = RecordType.tuple([.init("key", .string), .init("value", .any)])

    static func subscriptValue(_ base: Value, _ index: Value) throws -> Value {
        switch (base, index) {
        case (.array(let elements), .int(let position)):
            guard position >= 0, position < elements.count else {
                throw ScriptFailure("index \(position) is out of range for an array of \(elements.count) element\(elements.count == 1 ? "" : "s")",
                                    notes: elements.isEmpty ? [.init("the array is empty")]
                                        : [.init("valid indices are 0...\(elements.count - 1)")])
            }
            return elements[position]
        case (.array(let elements), .range(let lower, let upper)):
            guard lower >= 0, upper <= elements.count, lower <= upper else {
                throw ScriptFailure("range \(lower)..<\(upper) is out of bounds for an array of \(elements.count) elements")
            }
            return .array(Array(elements[lower..<upper]))
        case (.string(let text), .int(let position)):
            guard position >= 0, position < text.count else {
                throw ScriptFailure("index \(position) is out of range for a string of \(text.count) characters")
            }
            return .string(String(text[text.index(text.startIndex, offsetBy: position)]))
        case (.string(let text), .range(let lower, let upper)):
            guard lower >= 0, upper <= text.count, lower <= upper else {
                throw ScriptFailure("range \(lower)..<\(upper) is out of bounds for a string of \(text.count) characters")
            }
            let start = text.index(text.startIndex, offsetBy: lower)
            return .string(String(text[start..<text.index(start, offsetBy: upper - lower)]))
        case (.bytes(let bytes), .int(let position)):
            guard position >= 0, position < bytes.count else {
                throw ScriptFailure("index \(position) is out of range for \(ByteText.count(bytes.count))",
                                    notes: bytes.isEmpty ? [] : [.init("valid indices are 0...\(bytes.count - 1)")])
            }
            return .int(Int(bytes[position]))
        case (.bytes(let bytes), .range(let lower, let upper)):
            guard lower >= 0, upper <= bytes.count, lower <= upper else {
                throw ScriptFailure("range \(lower)..<\(upper) is out of bounds for \(ByteText.count(bytes.count))")
            }
            return .bytes(Array(bytes[lower..<upper]))
        case (.dictionary(let entries), .string(let key)):
            return entries[key] ?? .null
        case (.record(let record), .string(let key)) where !record.type.isTuple:
            return record.value(forKey: key) ?? .null
        case (.null, _):
            throw ScriptFailure("cannot subscript nil")
        default:
            throw ScriptFailure("cannot subscript a value of type '\(ValueFormatter.typeName(base))' with '\(ValueFormatter.typeName(index))'")
        }
    }
}
