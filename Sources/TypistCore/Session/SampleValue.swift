import APIScript

/// Placeholder values of a type, for a preview's call whose sample JSON the Swift type did not take
/// (see ``Preview``): nothing is sent, and the rest of
/// the expression still has something of the right shape to work on — arrays hold one placeholder
/// element, so a call made for each element of an answer is shown once.
enum SampleValue {
    static func of(_ type: ScriptType, depth: Int = 0) -> Value {
        switch type {
        case .int: return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .secret: return .secret("")
        case .bytes: return .bytes([])
        case .void: return .void
        case .optional, .nilLiteral, .any, .unknown, .function: return .null
        // One element, so that calls made for each element of an answer show (once).
        case .array(let element): return depth < 8 ? .array([of(element, depth: depth + 1)]) : .array([])
        case .dictionary: return .dictionary([:])
        case .range: return .range(0, 0)
        // One item, so that what is done with each item shows (once).
        case .stream(let item): return .stream(ScriptStream(origin: "a preview", values: [of(item, depth: depth + 1)]))
        case .record(let record):
            guard depth < 8 else { return .null }
            return .record(Record(type: record, values: record.fields.map { of($0.type, depth: depth + 1) }))
        }
    }
}

extension ScriptType {
    /// Whether a value of this type holds an array somewhere (records looked into a few levels deep).
    var containsArray: Bool { containsArray(depth: 0) }

    private func containsArray(depth: Int) -> Bool {
        guard depth < 8 else { return false }
        switch self {
        case .array: return true
        case .optional(let wrapped): return wrapped.containsArray(depth: depth + 1)
        case .dictionary(let value): return value.containsArray(depth: depth + 1)
        case .record(let record): return record.fields.contains { $0.type.containsArray(depth: depth + 1) }
        default: return false
        }
    }
}
