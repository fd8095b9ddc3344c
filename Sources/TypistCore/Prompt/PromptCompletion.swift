/// What Tab offers at the end of a prompt's text: the candidates for the word before the cursor
/// (each replaces that word), and whether a space follows a single completed candidate.
///
/// The core answers it (``Shell/completions(before:)``); a front end shows it — the readline
/// prompt as Tab's list, an app's console as a menu.
public struct PromptCompletion: Sendable, Equatable {
    /// Candidates that replace the word being completed.
    public var candidates: [String]
    /// Whether a space follows a single completed candidate (not after a member name).
    public var appendsSpace: Bool

    /// Creates a completion.
    public init(candidates: [String], appendsSpace: Bool) {
        self.candidates = candidates
        self.appendsSpace = appendsSpace
    }

    /// The characters that end the word a completion replaces: candidates stand for what follows
    /// the last of them before the cursor (readline splits words at the same characters).
    public static let wordBreakCharacters = " \t\n\"\\'`@><=;|&{}()[].,:+-*/%!?"
}

extension Shell {
    /// What Tab offers for `text`, the input before the cursor: a command's argument after
    /// `:name `, else the language's completions from the Swift types (before any call).
    public func completions(before text: String) -> PromptCompletion {
        // While an input runs, the interpreter is its alone: nothing is offered.
        ifNoOtherInput { completionsWhileIdle(before: text) } ?? PromptCompletion(candidates: [], appendsSpace: false)
    }

    private func completionsWhileIdle(before text: String) -> PromptCompletion {
        if let command = MetaCommand.completion(after: text, shell: self) { return command }
        return expressionCompletions(before: text)
    }

    /// What Tab offers in an expression: a path inside `file("…`, else the language's completions.
    func expressionCompletions(before text: String) -> PromptCompletion {
        if let inLiteral = literalCompleters.firstNonNil({ $0(text) }) { return inLiteral }
        if let path = Self.filePathTyped(before: text) {
            var candidates = MetaCommand.pathCandidates(path, extensions: [])
            // One file: its string is done, as a shell closes a quoted name (a folder goes on).
            if candidates.count == 1, let only = candidates.first, !only.hasSuffix("/") { candidates = [only + "\""] }
            return PromptCompletion(candidates: candidates, appendsSpace: false)
        }
        let completions = interpreter.completions(for: text, cursor: text.utf8.count)
        return PromptCompletion(candidates: completions.candidates, appendsSpace: !completions.areMembers)
    }

    /// Adds what Tab offers inside a string literal an extension reads (GraphQL's fields inside
    /// `graphql("{ …`): given the text before the cursor, candidates, or nil where it has none.
    package func add(literalCompleter: @escaping @Sendable (String) -> PromptCompletion?) {
        literalCompleters.append(literalCompleter)
    }

    /// The path typed so far when the text ends inside `file("…` (a string literal with no escape
    /// or interpolation yet), else nil.
    static func filePathTyped(before text: String) -> String? {
        guard let match = text.firstMatch(of: /(?:^|[^A-Za-z0-9_.])file\(\s*"([^"\\]*)$/) else { return nil }
        return String(match.output.1)
    }
}
