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
}
