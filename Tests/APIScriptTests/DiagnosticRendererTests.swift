@testable import APIScript
import Testing

/// Rendering stays short and linear however many errors, and however long the line.
@Suite("Diagnostic rendering")
struct DiagnosticRendererTests {
    @Test("8,000 errors on one 40 KB line: the first 20, clipped, then how many more")
    func manyErrorsOnOneLine() {
        let line = String(repeating: "let=;", count: 8_000)
        let source = ScriptSource(name: "wide.api", text: line)
        let (_, diagnostics) = Parser.parse(source)
        #expect(diagnostics.count == 8_000)
        let rendered = DiagnosticRenderer().render(diagnostics)
        let lines = rendered.split(separator: "\n")
        #expect(lines.last == "… and \(NumberText.grouped(diagnostics.count - 20)) more errors")
        #expect(lines.count == 20 * 3 + 1)
        #expect(lines.allSatisfy { $0.count <= 4 + DiagnosticRenderer.excerptWidth + 2 || $0.hasPrefix("wide.api") })
    }

    @Test("An excerpt far into a long line shows the caret's neighbourhood, marked as cut on both sides")
    func clippedExcerpt() {
        let text = String(repeating: "a", count: 5_000) + " £ " + String(repeating: "b", count: 5_000)
        let source = ScriptSource(name: "long.api", text: text)
        let offset = 5_000 + 1
        let diagnostic = Diagnostic(kind: .syntax, message: "here", source: source, span: TextSpan(start: offset, end: offset + 2))
        let lines = DiagnosticRenderer().render(diagnostic).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "long.api:1:5002: error: here")
        #expect(lines[1].hasPrefix("    …a") && lines[1].hasSuffix("b…"))
        #expect(lines[1].count == 4 + 1 + DiagnosticRenderer.excerptWidth + 1)
        // The caret stands under the '£'.
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let pound = lines[1].firstIndex(of: "£").map { lines[1].distance(from: lines[1].startIndex, to: $0) }
        #expect(caret != nil && caret == pound)
    }

    @Test("Far into a long line of two-byte characters: the column counts characters, the excerpt is cut around the caret")
    func clippedMultibyteExcerpt() {
        let text = String(repeating: "é", count: 3_000) + " x " + String(repeating: "ü", count: 3_000)
        let source = ScriptSource(name: "wide.api", text: text)
        let offset = 3_000 * 2 + 1
        let diagnostic = Diagnostic(kind: .check, message: "here", source: source, span: TextSpan(start: offset, end: offset + 1))
        let lines = DiagnosticRenderer().render(diagnostic).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "wide.api:1:3002: error: here")
        #expect(lines[1].hasPrefix("    …é") && lines[1].hasSuffix("ü…"))
        #expect(lines[1].count == 4 + 1 + DiagnosticRenderer.excerptWidth + 1)
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let x = lines[1].firstIndex(of: "x").map { lines[1].distance(from: lines[1].startIndex, to: $0) }
        #expect(caret != nil && caret == x)
    }

    @Test("A caret at the very end of a long line, and on an empty last line")
    func caretAtLineEnds() {
        let text = String(repeating: "a", count: 2_000) + "\n"
        let source = ScriptSource(name: "end.api", text: text)
        let atEnd = Diagnostic(kind: .syntax, message: "end", source: source, span: TextSpan(start: 2_000, end: 2_000))
        let lines = DiagnosticRenderer().render(atEnd).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "end.api:1:2001: error: end")
        #expect(lines[1] == "    …" + String(repeating: "a", count: DiagnosticRenderer.excerptWidth))
        #expect(lines[2] == String(repeating: " ", count: 4 + 1 + DiagnosticRenderer.excerptWidth) + "^")
        let past = Diagnostic(kind: .syntax, message: "eof", source: source, span: TextSpan(start: 2_001, end: 2_001))
        #expect(DiagnosticRenderer().render(past).hasPrefix("end.api:2:1: error: eof"))
    }

    @Test("A short line is shown whole, with control characters escaped and the caret still in place")
    func shortLine() {
        let source = ScriptSource(name: "s.api", text: "let a = \u{1B}[31m + x")
        let diagnostic = Diagnostic(kind: .check, message: "x", source: source, span: TextSpan(start: 16, end: 17))
        let lines = DiagnosticRenderer().render(diagnostic).split(separator: "\n")
        let shown = "let a = \\u{1B}[31m + "
        #expect(lines[1] == "    " + shown + "x")
        #expect(lines[2] == String(repeating: " ", count: 4 + shown.count) + "^")
    }
}
