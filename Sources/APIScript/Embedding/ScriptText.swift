/// Reads the structure of script text for tools that rewrite it (the shell's `:save`): where the
/// top-level declarations are, where a name is used, where the final expression starts.
///
/// Positions are UTF-8 byte offsets into the text. Text with syntax errors gives empty answers.
package enum ScriptText {
    /// A top-level `let`/`var`/`func` name and where it is written.
    public struct Declaration: Sendable, Equatable {
        /// The declared name.
        public var name: String
        /// Where the name is written.
        public var span: TextSpan
    }

    /// The names declared at the top level, in order.
    public static func topLevelDeclarations(in text: String) -> [Declaration] {
        guard let statements = parse(text) else { return [] }
        return statements.compactMap { statement in
            switch statement.kind {
            case .declaration(_, let name, let span, _, _): Declaration(name: name, span: span)
            case .function(let syntax): Declaration(name: syntax.name, span: syntax.nameSpan)
            default: nil
            }
        }
    }

    /// Every place one of `names` is used as a value (`last`, `x.title`, `f(x)`), in order; a
    /// member or label with the same spelling is not a use.
    public static func uses(of names: Set<String>, in text: String) -> [TextSpan] {
        guard let statements = parse(text) else { return [] }
        var spans: [TextSpan] = []
        SyntaxWalker.forEach(in: statements) { expression in
            if case .name(let name) = expression.kind, names.contains(name) { spans.append(expression.span) }
        }
        return spans.sorted { $0.start < $1.start }
    }

    /// Where the last statement starts when it is an expression (whose value the prompt shows).
    public static func finalExpressionStart(in text: String) -> Int? {
        guard let last = parse(text)?.last, case .expression = last.kind else { return nil }
        return last.span.start
    }

    private static func parse(_ text: String) -> [Stmt]? {
        let (statements, diagnostics) = Parser.parse(ScriptSource(name: "<text>", text: text))
        return diagnostics.contains { $0.severity == .error } ? nil : statements
    }
}
