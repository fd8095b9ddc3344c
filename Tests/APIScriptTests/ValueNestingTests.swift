@testable import APIScript
import Testing

/// Values a script builds nest at most `ScriptLimits.maximumValueNesting` levels, so printing,
/// comparing, encoding and freeing them never recurse deeper than that; every way of putting a
/// value inside another is checked when it happens.
@Suite("Value nesting limit")
struct ValueNestingTests {
    private func evaluate(_ text: String) async throws -> Evaluation {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        return await interpreter.evaluate(ScriptSource(name: "nest.api", text: text), isPrompt: true)
    }

    static let message = "values nested deeper than 1,000 levels: an array that contains itself, built in a loop?"

    /// Ways of wrapping `v` one level deeper, as the body of a loop.
    static let wrappings: [(name: String, body: String)] = [
        ("array literal", "v = [v]"),
        ("dictionary literal", "v = [\"k\": v]"),
        ("append", "var w: [Any] = []; w.append(v); v = w"),
        ("insert", "var w: [Any] = [1]; w.insert(v, at: 0); v = w"),
        ("element assignment", "var w: [Any] = [1]; w[0] = v; v = w"),
        ("dictionary assignment", "var w: [String: Any] = [:]; w[\"k\"] = v; v = w"),
        ("enumerated", "v = v.enumerated()"),
    ]

    @Test("The limit is 1,000 levels")
    func limit() {
        #expect(ScriptLimits.maximumValueNesting == 1_000)
    }

    @Test("Wrapping a value past the limit is a runtime error at the wrapping",
          arguments: wrappings.indices, [1_100, 100_000])
    func pastTheLimit(_ index: Int, count: Int) async throws {
        let wrapping = Self.wrappings[index]
        let result = try await evaluate("var v: Any = [1]\nfor _ in 0..<\(count) { \(wrapping.body) }\n")
        let error = try #require(result.errors.first, "\(wrapping.name)")
        #expect(error.message == Self.message, "\(wrapping.name)")
        let rendered = DiagnosticRenderer().render(error)
        #expect(rendered.hasPrefix("nest.api:2:"), "\(wrapping.name): \(rendered)")
    }

    @Test("A value at the limit prints, converts, compares and is freed")
    func atTheLimit() async throws {
        let output = OutputBuffer()
        let interpreter = try TestHost.interpreter(output: output)
        let result = await interpreter.evaluate(ScriptSource(name: "nest.api", text: """
            var v: Any = 1
            for _ in 0..<999 { v = [v] }
            let w = v
            print(String(describing: v).count)
            expect(v == w)
            v = 0
            "done"
            """), isPrompt: true)
        #expect(result.errors.isEmpty, "\(result.diagnostics)")
        #expect(result.value == .string("done"))
        #expect(output.text == "\(999 * 2 + 1)\n")
        // One more level is refused.
        let more = await interpreter.evaluate(ScriptSource(name: "nest.api", text: "let x = [[w]]"), isPrompt: true)
        #expect(more.errors.first?.message == Self.message)
    }

    @Test("Containers of containers below the limit are built as before")
    func flatArrays() async throws {
        let result = try await evaluate("""
            var rows: [[Int]] = []
            let row = (0..<1000).map { $0 }
            for _ in 0..<1000 { rows.append(row) }
            rows.count
            """)
        #expect(result.value == .int(1000), "\(result.diagnostics)")
    }
}

/// Closures that capture closures form chains as long as a loop runs; freeing one is a loop, not
/// a recursion as deep as the chain.
@Suite("Closure chains")
struct ClosureChainTests {
    static let chain = """
        var f: () -> Int = { 0 }
        for _ in 0..<1_000_000 { let g = f; f = { g() + 1 } }
        """

    @Test("A chain of a million closures is freed when its variable is reassigned")
    func reassigned() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let result = await interpreter.evaluate(ScriptSource(name: "chain.api", text: Self.chain + "\nf = { 0 }\nf()"),
                                                isPrompt: true)
        #expect(result.errors.isEmpty, "\(result.diagnostics)")
        #expect(result.value == .int(0))
    }

    @Test("A chain of a million closures is freed with its interpreter, on a thread with a 1 MiB stack")
    func withTheInterpreter() async throws {
        try await withTaskExecutorPreference(LargeStackExecutor(stackSize: 1 << 20)) {
            var interpreter: Interpreter? = try TestHost.interpreter(output: OutputBuffer())
            let result = await interpreter?.evaluate(ScriptSource(name: "chain.api", text: Self.chain), isPrompt: true)
            #expect(result?.errors.isEmpty == true)
            interpreter = nil
        }
    }
}
