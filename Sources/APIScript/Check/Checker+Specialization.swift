extension Checker {
    /// A host function specialised for the string literal it is called with (see
    /// ``HostFunction/specialization``): the text's problems reported at their places inside the
    /// literal. `host` itself when the first argument is not a literal (it is then checked as it
    /// runs); nil when the text has errors.
    mutating func specialize(_ host: HostFunction, arguments: [Argument]) -> HostFunction? {
        guard let specialization = host.specialization, let first = arguments.first, first.label == nil,
              case .string(let parts) = first.value.kind else { return host }
        var text = ""
        for part in parts {
            guard case .text(let piece) = part else { return host }
            text += piece
        }
        annotations.setType(.string, of: first.value)
        let result = specialization(text)
        for problem in result.problems {
            let span = span(ofLine: problem.line, column: problem.column, inLiteral: first.value.span)
            if problem.isWarning {
                warning(problem.message, span)
            } else {
                error(problem.message, span, notes: problem.suggestion.map { [.init("did you mean '\($0)'?")] } ?? [],
                      suggestion: problem.suggestion)
            }
        }
        return result.problems.contains { !$0.isWarning } ? nil : result.function ?? host
    }

    /// The offset `count` characters of a literal's text after `start`: an escape (`\"`, `\u{…}`)
    /// is one character, as is each UTF-8 sequence.
    private static func advance(_ bytes: [UInt8], from start: Int, characters count: Int, limit: Int) -> Int {
        var offset = start
        var left = count
        while left > 0, offset < limit {
            if bytes[offset] == UInt8(ascii: "\\"), offset + 1 < limit {
                offset += 2
                if bytes[offset - 1] == UInt8(ascii: "u") {
                    while offset < limit, bytes[offset - 1] != UInt8(ascii: "}") { offset += 1 }
                }
            } else {
                offset += 1
                while offset < limit, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            }
            left -= 1
        }
        return offset
    }

    /// Where line `line`, column `column` (1-based) of a string literal's text is in the source:
    /// in a multi-line literal, that line after the opening `"""`, past the closing delimiter's
    /// indentation; in a one-line literal, that column after the quote. The literal's start
    /// where it cannot be told.
    private func span(ofLine line: Int, column: Int, inLiteral literal: TextSpan) -> TextSpan {
        let bytes = Array(source.text.utf8)
        guard literal.start < literal.end, literal.end <= bytes.count, line >= 1, column >= 1 else { return literal }
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
        let isMultiLine = literal.end - literal.start >= 6 && bytes[literal.start + 1] == quote && bytes[literal.start + 2] == quote
        var offset: Int
        if isMultiLine {
            // The closing delimiter's indentation is taken off every line.
            var closing = literal.end - 3
            var indentation = 0
            while closing > literal.start, bytes[closing - 1] == UInt8(ascii: " ") || bytes[closing - 1] == UInt8(ascii: "\t") {
                closing -= 1
                indentation += 1
            }
            offset = literal.start
            var lines = 0
            while offset < literal.end, lines < line {
                if bytes[offset] == newline { lines += 1 }
                offset += 1
            }
            offset = Self.advance(bytes, from: offset + indentation, characters: column - 1, limit: literal.end)
        } else {
            guard line == 1 else { return literal }
            offset = Self.advance(bytes, from: literal.start + 1, characters: column - 1, limit: literal.end)
        }
        guard offset < literal.end - 1 else { return literal }
        var end = offset
        while end < literal.end, bytes[end] != newline, bytes[end] != UInt8(ascii: " ") { end += 1 }
        return TextSpan(start: offset, end: max(end, offset + 1))
    }
}
