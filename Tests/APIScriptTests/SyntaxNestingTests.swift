@testable import APIScript
import Testing

/// Syntax has one explicit nesting limit, `ScriptLimits.maximumSyntaxNesting`, counted the same
/// way for every construct that nests — including chains that the parser builds in a loop but
/// the checker, compiler and teardown walk recursively. Each case is checked and run at the
/// limit on a thread with a 1 MiB stack (a host's thread, not the shell's large one), and past it
/// (just past, and 100,000 deep): exactly one error, with its place, and no crash.
@Suite("Syntax nesting limit")
struct SyntaxNestingTests {
    /// One construct that nests: its script for a nesting of `n`, and the value it evaluates to
    /// (when it is meant to run).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let script: @Sendable (Int) -> String
        let value: (@Sendable (Int) -> Value)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "parentheses", script: { String(repeating: "(", count: $0) + "1" + String(repeating: ")", count: $0) },
             value: { _ in .int(1) }),
        Case(name: "prefix !", script: { String(repeating: "!", count: $0) + "true" },
             value: { .bool($0 % 2 == 0) }),
        Case(name: "prefix -", script: { "let r = " + String(repeating: "- ", count: $0) + "x\nr" },
             value: { .int($0 % 2 == 0 ? 1 : -1) }),
        Case(name: "try?", script: { String(repeating: "try? ", count: $0) + "x" }, value: { _ in .int(1) }),
        Case(name: "?? chain", script: { String(repeating: "o ?? ", count: $0) + "0" }, value: { _ in .int(0) }),
        Case(name: "+ chain", script: { String(repeating: "x + ", count: $0) + "x" }, value: { .int($0 + 1) }),
        Case(name: "member and call chain", script: { "\"x\"" + String(repeating: ".lowercased()", count: $0 / 2) },
             value: { _ in .string("x") }),
        Case(name: "optional chain", script: { "s" + String(repeating: "?.lowercased()", count: $0 / 2) },
             value: { _ in .string("x") }),
        Case(name: "member chain", script: { "a" + String(repeating: ".b", count: $0) }, value: nil),
        Case(name: "call chain", script: { "f" + String(repeating: "()", count: $0) }, value: nil),
        Case(name: "subscript chain", script: { "a" + String(repeating: "[0]", count: $0) }, value: nil),
        Case(name: "force-unwrap chain", script: { "s" + String(repeating: "!", count: $0) }, value: nil),
        Case(name: "ternary", script: { String(repeating: "true ? 1 : ", count: $0) + "2" }, value: { _ in .int(1) }),
        Case(name: "array literal", script: { String(repeating: "[", count: $0) + "1" + String(repeating: "]", count: $0) },
             value: { n in (0..<n).reduce(Value.int(1)) { inner, _ in .array([inner]) } }),
        Case(name: "dictionary literal",
             script: { String(repeating: "[\"k\": ", count: $0) + "1" + String(repeating: "]", count: $0) }, value: nil),
        // A closure nests twice: its body is a statement that holds an expression.
        Case(name: "closures", script: { String(repeating: "{ ", count: $0 / 2) + "1" + String(repeating: " }", count: $0 / 2) },
             value: nil),
        Case(name: "if blocks",
             script: { String(repeating: "if true { ", count: $0) + "x = 2" + String(repeating: " }", count: $0) + "\nx" },
             value: { _ in .int(2) }),
        Case(name: "string interpolation",
             script: { String(repeating: "\"\\(", count: $0) + "1" + String(repeating: ")\"", count: $0) },
             value: { _ in .string("1") }),
        Case(name: "array type",
             script: { "let t: " + String(repeating: "[", count: $0) + "Int" + String(repeating: "]", count: $0) + " = []\n1" },
             value: { _ in .int(1) }),
        Case(name: "function type", script: { "let t: " + String(repeating: "() -> ", count: $0) + "Int = 1" }, value: nil),
    ]

    static let stackSize = 1 << 20
    static let prelude = "var x = 1\nlet o: Int? = nil\nlet s: String? = \"x\"\n"

    /// Checks and runs `text` on a thread with a 1 MiB stack.
    private func evaluate(_ text: String) async throws -> Evaluation {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        return await withTaskExecutorPreference(LargeStackExecutor(stackSize: Self.stackSize)) {
            await interpreter.evaluate(ScriptSource(name: "deep.api", text: Self.prelude + text), isPrompt: true)
        }
    }

    private func nestingErrors(_ result: Evaluation) -> [Diagnostic] {
        result.diagnostics.filter { $0.message.contains("nested too deeply") }
    }

    @Test("The limit is 256 levels")
    func limit() {
        #expect(ScriptLimits.maximumSyntaxNesting == 256)
    }

    @Test("At the limit, each construct checks and runs", arguments: cases)
    func atTheLimit(_ nesting: Case) async throws {
        let depth = ScriptLimits.maximumSyntaxNesting - 6
        let result = try await evaluate(nesting.script(depth))
        #expect(nestingErrors(result).isEmpty, "\(result.diagnostics.prefix(2))")
        if let expected = nesting.value {
            #expect(result.errors.isEmpty, "\(result.diagnostics.prefix(2))")
            #expect(result.value == expected(depth))
        }
    }

    @Test("Past the limit, and far past it, each construct is one error with its place",
          arguments: cases, [ScriptLimits.maximumSyntaxNesting + 1, 100_000])
    func pastTheLimit(_ nesting: Case, depth: Int) async throws {
        let result = try await evaluate(nesting.script(depth))
        let errors = nestingErrors(result)
        #expect(errors.count == 1, "\(result.diagnostics.prefix(3))")
        #expect(result.errors.count == 1, "\(result.diagnostics.prefix(3))")
        let rendered = DiagnosticRenderer().render(try #require(errors.first))
        #expect(rendered.hasPrefix("deep.api:4:"), "\(rendered.prefix(200))")
        #expect(rendered.contains("error: ") && rendered.contains("nested too deeply (more than 256 levels)"))
        // The excerpt is clipped around the caret, not the whole 100,000-level line.
        #expect(rendered.count < 600, "\(rendered.count) characters")
    }

    @Test("The statements after a too-deep one are still parsed")
    func recovery() async throws {
        let deep = String(repeating: "(", count: 1000) + "1" + String(repeating: ")", count: 1000)
        let result = try await evaluate(deep + "\nlet = 3\n")
        #expect(result.errors.count == 2, "\(result.diagnostics)")
        #expect(result.errors.last.map { DiagnosticRenderer().render($0) }?.hasPrefix("deep.api:5:5: error: expected a name") == true,
                "\(result.diagnostics)")
    }
}

/// Evaluations may be given a budget of counted steps; completion reads values within one.
@Suite("Step limit")
struct StepLimitTests {
    @Test("An evaluation past its step limit stops with a runtime error, and the next one runs")
    func stepLimit() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        interpreter.stepLimit = 50_000
        for script in ["while true {}", "var n = 0\nfor i in 0..<1_000_000 { n += i }",
                       "func f(_ n: Int) -> Int { n < 2 ? n : f(n - 1) + f(n - 2) }\nf(40)",
                       "(0..<300_000_000).filter { $0 < 0 }.count", "(0..<1_000_000).map { $0 + 1 }.count"] {
            let result = await interpreter.evaluate(ScriptSource(name: "steps.api", text: script), isPrompt: true)
            #expect(result.errors.first?.message == "stopped after 50,000 steps, the most this evaluation may take",
                    "\(script): \(result.diagnostics)")
        }
        let fine = await interpreter.evaluate(ScriptSource(name: "steps.api", text: "(0..<1000).map { $0 }.count"), isPrompt: true)
        #expect(fine.value == .int(1000))
    }

    @Test("Completion of a dynamic value that loops forever gives up within its budget", .timeLimit(.minutes(1)))
    func completionBudget() throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let text = "json(String({ () -> Int in while true {}; return 1 }())).co"
        let completions = interpreter.completions(for: text, cursor: text.utf8.count)
        #expect(completions.candidates.isEmpty)
        // Without a loop, the same kind of expression completes from its value.
        let plain = "json(\"{\\\"count\\\": 1}\").co"
        #expect(interpreter.completions(for: plain, cursor: plain.utf8.count).candidates == ["count"])
    }
}
