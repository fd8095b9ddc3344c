import APIScript

/// Placeholder values of a type, for dry runs (`:curl`, `:swift`): nothing is sent, and the rest of
/// the expression still has something of the right shape to work on.
enum SampleValue {
    static func of(_ type: ScriptType, depth: Int = 0) -> Value {
        switch type {
        case .int: return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .secret: return .secret("")
        case .void: return .void
        case .optional, .nilLiteral, .any, .unknown, .function: return .null
        case .array: return .array([])
        case .dictionary: return .dictionary([:])
        case .range: return .range(0, 0)
        case .record(let record):
            guard depth < 8 else { return .null }
            return .record(Record(type: record, values: record.fields.map { of($0.type, depth: depth + 1) }))
        }
    }
}
