import TypistText
/// Renders diagnostics in compiler style:
///
/// ```
/// smoke.api:7:18: error: Post has no member 'titel'
///     print(first.titel)
///                 ^~~~~
/// note: did you mean 'title'?
/// ```
public struct DiagnosticRenderer: Sendable {
    /// Whether to colour the severity and the underline with ANSI escapes.
    public var colors: Bool

    /// Creates a renderer.
    public init(colors: Bool = false) {
        self.colors = colors
    }

    /// One diagnostic, with its source line and underline, and its notes.
    ///
    /// Messages, notes and source lines are shown with control characters escaped: a message may
    /// quote a server's body, and a source line may hold a pasted escape.
    public func render(_ diagnostic: Diagnostic) -> String {
        var lines: [String] = []
        let label = paint(diagnostic.severity.rawValue + ":", color: color(for: diagnostic.severity))
        if let source = diagnostic.source {
            let start = source.position(at: diagnostic.span.start)
            lines.append("\(bold("\(source.name):\(start.line):\(start.column):")) \(label) \(bold(TerminalText.sanitized(diagnostic.message)))")
            lines.append(contentsOf: excerpt(source, diagnostic.span))
        } else {
            lines.append("\(label) \(bold(TerminalText.sanitized(diagnostic.message)))")
        }
        for note in diagnostic.notes {
            let noteLabel = paint("note:", color: "36")
            if let span = note.span, let source = diagnostic.source, span != diagnostic.span {
                let start = source.position(at: span.start)
                lines.append("\(source.name):\(start.line):\(start.column): \(noteLabel) \(TerminalText.sanitized(note.message))")
                lines.append(contentsOf: excerpt(source, span))
            } else {
                lines.append("\(noteLabel) \(TerminalText.sanitized(note.message))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// How many diagnostics ``render(_:)-([Diagnostic])`` shows before it sums up the rest.
    public static let maximumShown = 20
    /// How many characters of a source line an excerpt shows around its caret.
    public static let excerptWidth = 120

    /// Several diagnostics, one after another: the first ``maximumShown``, then how many more.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        var parts = diagnostics.prefix(Self.maximumShown).map(render)
        let more = diagnostics.count - Self.maximumShown
        if more > 0 {
            let errors = diagnostics.dropFirst(Self.maximumShown).count { $0.severity == .error }
            let what = errors == more ? (more == 1 ? "error" : "errors") : (more == 1 ? "diagnostic" : "diagnostics")
            parts.append("… and \(NumberText.grouped(more)) more \(what)")
        }
        return parts.joined(separator: "\n")
    }

    /// The source line (clipped to ``excerptWidth`` characters around the caret, `…` marking
    /// what is cut) and an underline of the span.
    ///
    /// A long line is cut to a window of bytes around the caret before its characters are
    /// counted, so rendering stays proportional to the excerpt, not to the line.
    private func excerpt(_ source: ScriptSource, _ span: TextSpan) -> [String] {
        let start = source.position(at: span.start)
        let end = source.position(at: span.end)
        let lineBytes = source.lineRange(start.line)
        guard !lineBytes.isEmpty || start.column == 1 else { return [] }
        // At most four bytes per character: a window of four excerpts' width on each side holds
        // everything the excerpt can show.
        let reach = Self.excerptWidth * 4
        let caretByte = min(max(span.start, lineBytes.lowerBound), lineBytes.upperBound)
        let window = max(lineBytes.lowerBound, caretByte - reach)..<min(lineBytes.upperBound, caretByte + reach)
        let before = Array(source.text(bytes: window.lowerBound..<caretByte).replacing("\t", with: " "))
        let after = Array(source.text(bytes: caretByte..<window.upperBound).replacing("\t", with: " "))
        let characters = before + after
        let caret = before.count
        let cutBefore = window.lowerBound > lineBytes.lowerBound
        let cutAfter = window.upperBound < lineBytes.upperBound
        var lower = 0
        var upper = characters.count
        if characters.count > Self.excerptWidth || cutBefore || cutAfter {
            lower = max(0, min(caret - Self.excerptWidth / 3, characters.count - Self.excerptWidth))
            upper = min(characters.count, lower + Self.excerptWidth)
        }
        let leading = (lower > 0 || cutBefore ? "…" : "") + TerminalText.sanitizedSource(String(characters[lower..<min(caret, upper)]))
        let trailing = TerminalText.sanitizedSource(String(characters[min(caret, upper)..<upper]))
            + (upper < characters.count || cutAfter ? "…" : "")
        let spanned = end.line == start.line ? end.column - start.column : characters.count - caret
        let width = max(1, min(spanned, upper - caret))
        let padding = String(repeating: " ", count: leading.count)
        let underline = "^" + String(repeating: "~", count: max(0, width - 1))
        return ["    " + leading + trailing, "    " + padding + paint(underline, color: "32")]
    }

    private func color(for severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "31"
        case .warning: "33"
        case .note: "36"
        }
    }

    private func paint(_ text: String, color: String) -> String {
        colors ? "\u{1B}[1;\(color)m\(text)\u{1B}[0m" : text
    }

    private func bold(_ text: String) -> String {
        colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}
