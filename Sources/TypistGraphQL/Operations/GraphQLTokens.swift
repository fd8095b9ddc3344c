/// GraphQL's tokens, as much as Typist reads of a text itself (the nesting it is refused for,
/// the selection set Tab completes in): names and punctuators, each with its line and column;
/// strings, block strings (`"""…"""`), comments, commas and white space skipped.
struct GraphQLTokens {
    struct Token {
        var text: String
        /// 1-based.
        var line: Int
        var column: Int
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Whether the last token ended the text.
    private(set) var atEnd = false

    mutating func next() -> Token? {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "#" {
                while index < scalars.count, scalars[index] != "\n" { advance() }
                continue
            }
            if scalar == "\"" {
                skipString()
                continue
            }
            if scalar.properties.isWhitespace || scalar == "," {
                advance()
                continue
            }
            let start = (index: index, line: line, column: column)
            if scalar == "_" || scalar.properties.isAlphabetic {
                while index < scalars.count, scalars[index] == "_" || scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
                    advance()
                }
            } else {
                advance()
            }
            atEnd = index >= scalars.count
            return Token(text: String(String.UnicodeScalarView(scalars[start.index..<index])), line: start.line, column: start.column)
        }
        return nil
    }

    /// Past a string (`"…"`, escapes included) or a block string (`"""…"""`).
    private mutating func skipString() {
        if index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
            for _ in 0..<3 { advance() }
            while index < scalars.count {
                if index + 2 < scalars.count, scalars[index] == "\"", scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                    for _ in 0..<3 { advance() }
                    return
                }
                advance()
            }
            return
        }
        advance()
        while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n" {
            if scalars[index] == "\\" { advance() }
            advance()
        }
        advance()
    }

    private mutating func advance() {
        guard index < scalars.count else { return }
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }
}
