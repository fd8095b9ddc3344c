/// The checks that hold a running script to ``ScriptLimits``: each refusal is one runtime error
/// at its place.
extension ScriptLimits {
    /// How many elements `lower..<upper` has, refused past ``maximumElements``.
    static func count(_ lower: Int, _ upper: Int) throws -> Int {
        guard upper > lower else { return 0 }
        let (count, overflow) = upper.subtractingReportingOverflow(lower)
        guard !overflow, count <= maximumElements else {
            throw ScriptFailure("the range \(lower)..<\(upper) is too large to make into an array (more than \(NumberText.grouped(maximumElements)) elements); walk it with 'for … in' instead")
        }
        return count
    }

    /// Refuses to put `value` one level down in a container when that would nest deeper than
    /// ``maximumValueNesting``. Every value a script holds is within the limit, so each
    /// container is checked once, when it is made, by walking only what goes into it.
    @inline(__always)
    static func checkNesting(_ value: Value) throws {
        switch value {
        case .array, .dictionary, .record:
            if nesting(of: value, below: maximumValueNesting) >= maximumValueNesting { throw tooDeep }
        default:
            break
        }
    }

    /// ``checkNesting(_:)`` for each of `values`.
    static func checkNesting(_ values: [Value]) throws {
        for value in values { try checkNesting(value) }
    }

    private static var tooDeep: ScriptFailure {
        ScriptFailure("values nested deeper than \(NumberText.grouped(maximumValueNesting)) levels: an array that contains itself, built in a loop?")
    }

    /// How many levels of containers `value` has, counting up to `bound` at most.
    private static func nesting(of value: Value, below bound: Int) -> Int {
        let children: [Value]
        switch value {
        case .array(let elements): children = elements
        case .dictionary(let entries): children = Array(entries.values)
        case .record(let record): children = record.containers()
        default: return 0
        }
        guard bound > 1 else { return 1 }
        var deepest = 0
        for child in children {
            switch child {
            case .array, .dictionary, .record:
                deepest = max(deepest, nesting(of: child, below: bound - 1))
                if deepest >= bound - 1 { return bound }
            default:
                continue
            }
        }
        return 1 + deepest
    }

    /// Refuses a string about to hold more than ``maximumStringBytes`` UTF-8 bytes.
    @inline(__always)
    static func checkStringBytes(_ count: Int) throws {
        if count > maximumStringBytes { throw stringTooLong }
    }

    static var stringTooLong: ScriptFailure {
        ScriptFailure("a string may hold at most \(maximumStringBytes >> 20) MiB")
    }

    /// Refuses an array about to grow past ``maximumElements``.
    @inline(__always)
    static func checkElements(_ count: Int) throws {
        if count > maximumElements {
            throw ScriptFailure("an array may hold at most \(NumberText.grouped(maximumElements)) elements")
        }
    }
}
