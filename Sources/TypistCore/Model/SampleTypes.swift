import APIScript

/// The type model inferred from a JSON sample: what `:model` declares as Swift.
///
/// It builds the same model the registry builds from Swift types (``ScriptType`` and
/// ``RecordType``), so one renderer writes both. Objects become records named from their keys
/// (`owner` → `Owner`, the elements of `items` → `Item`), with fields named as Swift would
/// (`full_name` → `fullName`, the key kept for `CodingKeys`); the records of an array merge into
/// one; a field null or missing somewhere is optional; numbers are `Int` unless some are not
/// whole; a place whose values differ in kind is dynamic JSON (`.any`). Only `null` seen is
/// `.nilLiteral`, and only empty arrays `[.unknown]`: nothing says their type yet.
enum SampleTypes {
    /// Nesting is bounded by the value's own (and JSON's 512 levels); this bounds the work too.
    private static let maximumDepth = 64

    /// The type of `value`, its top-level record (or an array's records) named `rootName`.
    static func infer(_ value: Value, rootName: String) -> ScriptType {
        switch value {
        case .array(let elements) where elements.contains(where: \.isObject):
            return .array(merged(elements.map { infer($0, key: rootName, name: rootName, depth: 1) }))
        default:
            return infer(value, key: rootName, name: rootName, depth: 0)
        }
    }

    /// - Parameters:
    ///   - key: The key the value is held under, which names it.
    ///   - name: The record's name, when it is one and is not named from `key`.
    private static func infer(_ value: Value, key: String, name: String? = nil, depth: Int) -> ScriptType {
        guard depth < maximumDepth else { return .any }
        switch value {
        case .null, .void, .function, .stream: return .nilLiteral
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string, .secret, .bytes: return .string
        case .range: return .array(.int)
        case .array(let elements):
            let element = SwiftNames.singular(key)
            return .array(merged(elements.map { infer($0, key: element, depth: depth + 1) }))
        case .dictionary(let entries):
            let fields = entries.keys.sorted().map { key in
                (key, infer(entries[key] ?? .null, key: key, depth: depth + 1))
            }
            return .record(record(named: name ?? SwiftNames.type(key), fields))
        case .record(let record):
            let fields = record.type.fields.enumerated().map { index, field in
                (field.key, infer(record.value(at: index) ?? .null, key: field.key, depth: depth + 1))
            }
            return .record(self.record(named: name ?? SwiftNames.type(key), fields))
        }
    }

    /// The types of an array's elements as one; `[.unknown]` for none.
    private static func merged(_ types: [ScriptType]) -> ScriptType {
        types.dropFirst().reduce(types.first ?? .unknown, merge)
    }

    /// One type for values seen as `a` in one place and as `b` in another.
    static func merge(_ a: ScriptType, _ b: ScriptType) -> ScriptType {
        if a == b { return a }
        switch (a, b) {
        case (.nilLiteral, _): return b.optional
        case (_, .nilLiteral): return a.optional
        case (.optional(let x), _): return merge(x, b.unwrapped).optional
        case (_, .optional(let y)): return merge(a, y).optional
        case (.int, .double), (.double, .int): return .double
        case (.array(.unknown), .array): return b
        case (.array, .array(.unknown)): return a
        case (.array(let x), .array(let y)): return .array(merge(x, y))
        case (.record(let x), .record(let y)): return .record(merge(x, y))
        default: return .any
        }
    }

    /// One record with the fields of both: those only one has are optional.
    private static func merge(_ x: RecordType, _ y: RecordType) -> RecordType {
        var fields = x.fields.map { ($0.key, $0.type) }
        var position: [String: Int] = [:]
        for (index, field) in fields.enumerated() { position[field.0] = index }
        var seen: Set<String> = []
        for field in y.fields {
            seen.insert(field.key)
            if let index = position[field.key] {
                fields[index].1 = merge(fields[index].1, field.type)
            } else {
                position[field.key] = fields.count
                fields.append((field.key, field.type.optional))
            }
        }
        for index in fields.indices where !seen.contains(fields[index].0) { fields[index].1 = fields[index].1.optional }
        return record(named: x.name, fields)
    }

    /// A record whose fields are named after their keys as Swift would, each name once.
    private static func record(named name: String, _ keyed: [(key: String, type: ScriptType)]) -> RecordType {
        var taken: Set<String> = []
        let fields = keyed.map { key, type in
            var property = SwiftNames.property(key)
            while taken.contains(property) { property += "_" }
            taken.insert(property)
            return RecordType.Field(property, type, key: key)
        }
        return RecordType(name: name, fields: fields)
    }
}

private extension Value {
    var isObject: Bool {
        switch self {
        case .dictionary, .record: true
        default: false
        }
    }
}
