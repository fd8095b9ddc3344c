@testable import APIScript
import Testing

@Suite("Lexer")
struct LexerTests {
    private func kinds(_ text: String) -> [TokenKind] {
        var lexer = Lexer(source: ScriptSource(name: "t", text: text))
        return lexer.tokenize().map(\.kind)
    }

    @Test("Numbers, with underscores and prefixes")
    func numbers() {
        #expect(kinds("1_000 0x2A 0b11 0o7 3.5 1e3 1...2") == [
            .integer(1000), .integer(42), .integer(3), .integer(7), .double(3.5), .double(1000),
            .integer(1), .symbol("..."), .integer(2), .end,
        ])
    }

    @Test("Longest operators win")
    func operators() {
        #expect(kinds("a ..< b ?? c?.d != e") == [
            .identifier("a"), .symbol("..<"), .identifier("b"), .symbol("??"), .identifier("c"), .symbol("?."),
            .identifier("d"), .symbol("!="), .identifier("e"), .end,
        ])
    }

    @Test("Strings keep interpolations as spans")
    func interpolation() throws {
        let tokens = kinds(#""a\(x + 1)b""#)
        guard case .string(let segments) = tokens[0] else {
            Issue.record("expected a string")
            return
        }
        #expect(segments.count == 3)
        #expect(segments[0] == .text("a") && segments[2] == .text("b"))
    }

    @Test("Newlines are recorded on the next token; comments vanish, nested ones too")
    func layout() {
        var lexer = Lexer(source: ScriptSource(name: "t", text: "a /* x /* y */ z */ b\n// c\nd"))
        let tokens = lexer.tokenize()
        #expect(tokens.map(\.kind) == [.identifier("a"), .identifier("b"), .identifier("d"), .end])
        #expect(tokens.map(\.newlineBefore) == [false, false, true, false])
    }

    @Test("Columns count Characters, not bytes")
    func columns() {
        let source = ScriptSource(name: "t", text: "let é = \"ü\"; x")
        #expect(source.position(at: Array("let é = \"ü\"; ".utf8).count).column == 14)
    }
}

@Suite("Parser")
struct ParserTests {
    private func parse(_ text: String) -> (statements: [Stmt], diagnostics: [Diagnostic]) {
        Parser.parse(ScriptSource(name: "t", text: text))
    }

    private func shape(_ expression: Expr) -> String {
        switch expression.kind {
        case .integer(let value): "\(value)"
        case .name(let name): name
        case .binary(let op, let left, let right, _): "(\(shape(left)) \(op) \(shape(right)))"
        case .unary(let op, let operand): "(\(op)\(shape(operand)))"
        case .ternary(let a, let b, let c): "(\(shape(a)) ? \(shape(b)) : \(shape(c)))"
        case .member(let base, let name, _, let optional): "\(shape(base))\(optional ? "?." : ".")\(name)"
        case .call(let callee, let arguments): "\(shape(callee))(\(arguments.map { ($0.label.map { "\($0): " } ?? "") + shape($0.value) }.joined(separator: ", ")))"
        case .closure: "{…}"
        case .tryOptional(let inner): "try? \(shape(inner))"
        default: "?"
        }
    }

    private func expression(_ text: String) -> String {
        let result = parse(text)
        guard result.diagnostics.isEmpty, case .expression(let expression)? = result.statements.first?.kind else {
            return "error: \(result.diagnostics.map(\.message))"
        }
        return shape(expression)
    }

    @Test("Swift's precedence and associativity", arguments: [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("a ?? b ?? c", "(a ?? (b ?? c))"),
        ("a || b && c", "(a || (b && c))"),
        ("a == b && c < d", "((a == b) && (c < d))"),
        ("0 ..< n + 1", "(0 ..< (n + 1))"),
        ("x ?? 1 + 2", "(x ?? (1 + 2))"),
        ("c ? 1 : 2 + 3", "(c ? 1 : (2 + 3))"),
        ("-a * b", "((-a) * b)"),
        ("!a && b", "((!a) && b)"),
        ("try? f() ?? g", "try? (f() ?? g)"),
    ])
    func precedence(text: String, expected: String) {
        #expect(expression(text) == expected)
    }

    @Test("Postfix chains, labels and trailing closures")
    func postfix() {
        #expect(expression("a?.b.c(x: 1, 2) { $0 }") == "a?.b.c(x: 1, 2, {…})")
        #expect(expression("posts\n    .filter { $0 }\n    .count") == "posts.filter({…}).count")
    }

    @Test("A condition does not take a trailing closure")
    func conditions() {
        let result = parse("if x { y() }")
        #expect(result.diagnostics.isEmpty)
        guard case .ifStatement(let clauses, _)? = result.statements.first?.kind else {
            Issue.record("expected an if")
            return
        }
        #expect(clauses[0].body.count == 1)
    }

    @Test("Running out of input is its own kind of error", arguments: [
        "if x {", "print(1,", "let a = [1,", "\"abc", "/* open", "func f() {\n  let x = 1\n", "let s = \"\"\"\nabc\n",
    ])
    func unexpectedEnd(text: String) {
        let diagnostics = parse(text).diagnostics
        #expect(diagnostics.contains { $0.kind == .unexpectedEnd }, "\(diagnostics.map(\.message))")
    }

    @Test("A complete input is not 'unexpected end'", arguments: ["if x { }", "print(1)", "let a = [1]", "\"abc\""])
    func complete(text: String) {
        #expect(!parse(text).diagnostics.contains { $0.kind == .unexpectedEnd })
    }

    @Test("Every syntax error is reported, each at its place")
    func recovery() {
        let diagnostics = parse("let = 1\nprint(2\nlet ok = 3\nlet x = )\n").diagnostics
        #expect(diagnostics.count >= 3)
        #expect(diagnostics.map { $0.position?.line ?? 0 }.sorted().first == 1)
    }

    @Test("Deep nesting is an error, not a stack overflow")
    func depth() {
        let text = String(repeating: "(", count: 5_000) + "1" + String(repeating: ")", count: 5_000)
        #expect(parse(text).diagnostics.contains { $0.message.contains("nested too deeply") })
        let closures = String(repeating: "{ ", count: 3_000) + String(repeating: "} ", count: 3_000)
        #expect(!parse(closures).diagnostics.isEmpty)
    }
}
