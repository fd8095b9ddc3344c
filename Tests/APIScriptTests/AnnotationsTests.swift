@testable import APIScript
import Testing

/// The checker's findings live beside the syntax tree (``Annotations``), not in it: the tree stays
/// what the parser made (the folders' direction is held by TypistTests' `LayeringTests`).
@Suite("Checker annotations, beside the tree")
struct AnnotationsTests {
    @Test("Checking leaves the tree as parsed: a rewritten name and a type are the annotations' alone")
    func treeStaysAsParsed() throws {
        let source = ScriptSource(name: "max.api", text: "Int.max")
        let (statements, syntax) = Parser.parse(source)
        #expect(syntax.isEmpty)
        var checker = Checker(source: source, globals: GlobalTable(), isPrompt: true)
        checker.check(statements)
        #expect(checker.diagnostics.isEmpty)
        guard case .expression(let expression) = try #require(statements.first).kind else {
            Issue.record("not an expression statement")
            return
        }
        guard case .member(_, "max", _, _) = expression.kind else {
            Issue.record("the tree was changed: \(expression.kind)")
            return
        }
        guard case .integer(Int.max) = checker.annotations.kind(of: expression) else {
            Issue.record("the annotation is \(checker.annotations.kind(of: expression))")
            return
        }
        #expect(checker.annotations.type(of: expression) == .int)
    }

    @Test("A global function's default value is compiled at a later call with the input that declared it")
    func defaultValueFromAnEarlierInput() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        func evaluate(_ name: String, _ text: String) async -> Evaluation {
            await interpreter.evaluate(ScriptSource(name: name, text: text), isPrompt: true)
        }
        #expect(await evaluate("one.api", "let base = 10").errors.isEmpty)
        #expect(await evaluate("two.api", "func scaled(by factor: Int = base * 2) -> Int { factor + 1 }").errors.isEmpty)
        #expect(await evaluate("three.api", "scaled()").value == .int(21))
        #expect(await evaluate("four.api", "scaled(by: 1)").value == .int(2))

        // A failure in the default value is reported where the value is written.
        #expect(await evaluate("five.api", "func pick(index: Int = [1, 2][7]) -> Int { index }").errors.isEmpty)
        let failed = await evaluate("six.api", "pick()")
        let error = try #require(failed.errors.first)
        #expect(error.source?.name == "five.api")
        #expect(error.source.map { $0.text(of: error.span) } == "[1, 2][7]")
    }
}
