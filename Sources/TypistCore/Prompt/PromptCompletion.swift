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
        let completions = interpreter.completions(for: text, cursor: text.utf8.count)
        return PromptCompletion(candidates: completions.candidates, appendsSpace: !completions.areMembers)
    }
}
