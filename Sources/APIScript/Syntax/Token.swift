/// The reserved words of the language.
enum Keyword: String, Sendable, CaseIterable {
    case `let`, `var`, `if`, `else`, `guard`, `for`, `in`, `while`, `break`, `continue`, `func`, `return`
    case `true`, `false`, `nil`, `try`
}

/// One piece of a string literal.
enum StringSegment: Sendable, Equatable {
    /// Literal text, escapes already processed.
    case text(String)
    /// An interpolated expression: the source span between `\(` and `)`.
    case interpolation(TextSpan)
}

/// What a token is.
enum TokenKind: Sendable, Equatable {
    case identifier(String)
    case keyword(Keyword)
    /// `$0`, `$1` …
    case dollar(Int)
    case integer(Int)
    case double(Double)
    case string([StringSegment])
    /// Punctuation and operators, by their spelling: `(`, `+=`, `..<`, `?.` …
    case symbol(String)
    case end

    var symbol: String? {
        if case .symbol(let text) = self { return text }
        return nil
    }
}

/// A token and where it is.
struct Token: Sendable {
    var kind: TokenKind
    var span: TextSpan
    /// Whether a line break comes between this token and the one before.
    var newlineBefore: Bool
    /// Whether white space (or a comment) comes right before this token.
    var spaceBefore: Bool
    /// Whether white space comes right after this token.
    var spaceAfter = false

    func isSymbol(_ text: String) -> Bool { kind == .symbol(text) }
    func isKeyword(_ keyword: Keyword) -> Bool { kind == .keyword(keyword) }
    func isIdentifier(_ name: String) -> Bool { kind == .identifier(name) }

    /// Whether it can follow a `.` as a member's name: an identifier or a keyword (`.default`).
    var isMemberName: Bool {
        switch kind {
        case .identifier, .keyword: true
        default: false
        }
    }
}
