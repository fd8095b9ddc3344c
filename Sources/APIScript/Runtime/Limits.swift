/// Sizes a script may not exceed, so that a tiny script cannot ask for a huge allocation: each is
/// a runtime error at its place, never an allocation failure. Documented in the language reference.
public enum ScriptLimits {
    /// Elements an array made by a script may hold (a range walked by a method, `map`, `+`).
    public static let maximumElements = 10_000_000
    /// UTF-8 bytes a string made by `+` may hold.
    public static let maximumStringBytes = 256 << 20

    /// How many elements `lower..<upper` has, refused past ``maximumElements``.
    static func count(_ lower: Int, _ upper: Int) throws -> Int {
        guard upper > lower else { return 0 }
        let (count, overflow) = upper.subtractingReportingOverflow(lower)
        guard !overflow, count <= maximumElements else {
            throw ScriptFailure("the range \(lower)..<\(upper) is too large to make into an array (more than \(RunContext.grouped(maximumElements)) elements); walk it with 'for … in' instead")
        }
        return count
    }

    /// Refuses an array about to grow past ``maximumElements``.
    @inline(__always)
    static func checkElements(_ count: Int) throws {
        if count > maximumElements {
            throw ScriptFailure("an array may hold at most \(RunContext.grouped(maximumElements)) elements")
        }
    }
}
