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
        var tokens = GraphQLTokens(text)
        while let token = tokens.next() {
            switch token.text {
            case "{", "[", "(":
                depth += 1
                if depth > limit {
                    return GraphQLProblem(message: "the text nests deeper than \(limit) levels of {, [ and (; no schema or operation needs that many",
                                          line: token.line, column: token.column)
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
