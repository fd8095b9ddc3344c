/// How deep a GraphQL text nests (`{`, `[`, `(`), read before the text is parsed: GraphQLSwift
/// parses, validates and prints by recursion, so a text of a hundred thousand `{` would end the
/// process on its stack. Such a text is refused with its place instead.
enum GraphQLNesting {
    /// Deeper than any schema or operation a service takes (GitHub limits queries far below it).
    static let limit = 100

    /// The problem of a text that nests deeper than ``limit``, at the first bracket too deep; nil
    /// for any other text.
    static func problem(in text: String) -> GraphQLProblem? {
        var depth = 0
        var line = 1
        var column = 0
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            guard let scalar = iterator.next() else { return nil }
            if scalar == "\n" {
                line += 1
                column = 0
            } else {
                column += 1
            }
            return scalar
        }
        while let scalar = next() {
            switch scalar {
            case "#":
                while let inner = next(), inner != "\n" {}
            case "\"":
                // A string, or a block string ("""…"""): brackets inside are text.
                var quotes = 1
                while let inner = next() {
                    if inner == "\"" { quotes += 1 } else { pending = inner; break }
                }
                if quotes == 3 {
                    var closing = 0
                    while let inner = next() {
                        closing = inner == "\"" ? closing + 1 : 0
                        if closing == 3 { break }
                    }
                } else if quotes == 1 {
                    while let inner = next(), inner != "\"", inner != "\n" {
                        if inner == "\\" { _ = next() }
                    }
                }
            case "{", "[", "(":
                depth += 1
                if depth > limit {
                    return GraphQLProblem(message: "the text nests deeper than \(limit) levels of {, [ and (; no schema or operation needs that many",
                                          line: line, column: column)
                }
            case "}", "]", ")":
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return nil
    }
}
