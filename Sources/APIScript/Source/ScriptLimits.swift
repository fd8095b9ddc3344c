/// Sizes a script may not exceed, so that a tiny script cannot ask for a huge allocation: each is
/// a runtime error at its place, never an allocation failure. Documented in the language reference.
public enum ScriptLimits {
    #if TYPIST_FUZZ_SMALL_LIMITS
    // The evaluation fuzzer (`Scripts/fuzz eval`) builds with these: the same checks at one
    // hundredth of the sizes, so that an input that fills an array or a string to its limit
    // costs milliseconds, not seconds, and a campaign's million runs fit in hours.
    public static let maximumElements = 100_000
    public static let maximumStringBytes = 2 << 20
    #else
    /// Elements an array made by a script may hold (a range walked by a method, `map`, `+`).
    public static let maximumElements = 10_000_000
    /// UTF-8 bytes a string made by `+` may hold.
    public static let maximumStringBytes = 256 << 20
    #endif
    /// Levels of nesting a script's syntax may have: parentheses, operators (a chain
    /// `1 + 1 + …` or `a.b.c…` nests one level per link), closures, blocks, type annotations
    /// and string interpolations. Past it the parser reports one error, so that no pass over the
    /// syntax tree recurses deeper than this.
    public static let maximumSyntaxNesting = 256
    /// Levels of nesting a value a script builds may have (`[[[…]]]`, records in arrays …).
    /// Values decoded from JSON nest at most 512 levels.
    public static let maximumValueNesting = 1_000

    /// How many elements `lower..<upper` has, refused past ``maximumElements``.
    static func count(_ lower: Int, _ upper: Int) throws -> Int {
        guard upper > lower else { return 0 }
        let (count, overflow) = upper.subtractingReportingOverflow(lower)
        guard !overflow, count <= maximumElements else {
            throw ScriptFailure("the range \(lower)..<\(upper) is too large to make into an array (more than \(RunContext.grouped(maximumElements)) elements); walk it with 'for … in' instead")
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
        ScriptFailure("values nested deeper than \(RunContext.grouped(maximumValueNesting)) levels: an array that contains itself, built in a loop?")
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
            throw ScriptFailure("an array may hold at most \(RunContext.grouped(maximumElements)) elements")
        }
    }
}
