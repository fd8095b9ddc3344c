@testable import APIScript
import Testing

/// Script recursion has one explicit limit, `Interpreter.maximumCallDepth`, through pure code and
/// host calls alike; a thread whose stack is too small for it ends the recursion with a
/// diagnostic, never a crash.
@Suite("Recursion limits")
struct RecursionLimitTests {
    static let countdown = "func f(_ n: Int) -> Int { n == 0 ? 0 : 1 + f(n - 1) }\n"

    /// Evaluates on the large-stack executor, as the shell does.
    private func evaluate(_ text: String, on executor: LargeStackExecutor = .shared) async throws -> Evaluation {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        return await withTaskExecutorPreference(executor) {
            await interpreter.evaluate(ScriptSource(name: "deep.api", text: text), isPrompt: true)
        }
    }

    @Test("10,000 nested calls of a simple function run")
    func atTheLimit() async throws {
        #expect(Interpreter.maximumCallDepth == 10_000)
        let result = try await evaluate(Self.countdown + "f(9999)")
        #expect(result.errors.isEmpty, "\(result.diagnostics)")
        #expect(result.value == .int(9999))
    }

    @Test("One call past the limit, and far past it, is a runtime error at the call", arguments: [10_000, 100_000, 10_000_000])
    func pastTheLimit(argument: Int) async throws {
        let result = try await evaluate(Self.countdown + "f(\(argument))")
        let error = try #require(result.errors.first)
        #expect(error.message == "calls nested deeper than 10,000: a function that calls itself without end?")
        #expect(DiagnosticRenderer().render(error).hasPrefix("deep.api:1:44: error: calls nested deeper than 10,000"))
    }

    @Test("Recursion through a host call (async frames on the heap) has the same limit")
    func throughHostCalls() async throws {
        let text = "func g(_ n: Int) -> Int { n == 0 ? fetchUser(id: 1).id : g(n - 1) }\n"
        let fine = try await evaluate(text + "g(5000)")
        #expect(fine.value == .int(1), "\(fine.diagnostics)")
        let deep = try await evaluate(text + "g(1000000)")
        #expect(deep.errors.first?.message == "calls nested deeper than 10,000: a function that calls itself without end?")
        let closure = try await evaluate("var k: (Int) -> Int = { $0 }\nk = { n in n == 0 ? fetchUser(id: 2).id : k(n - 1) }\nk(200000)")
        #expect(closure.errors.first?.message == "calls nested deeper than 10,000: a function that calls itself without end?")
    }

    @Test("A thread with a small stack ends deep recursion with a diagnostic, not a crash")
    func smallStack() async throws {
        // Big enough that the evaluation stays on it (a thread under 6 MiB hands it to the shared
        // large-stack executor), too small for 10,000 frames of a debug build.
        let small = LargeStackExecutor(stackSize: 12 << 20)
        let result = try await evaluate(Self.countdown + "f(9999)", on: small)
        let error = try #require(result.errors.first)
        #expect(error.message.hasSuffix("deep fill this thread's stack: a function that calls itself without end?"), "\(error.message)")
        // The interpreter is usable afterwards.
        let after = try await evaluate(Self.countdown + "f(10)", on: small)
        #expect(after.value == .int(10))
    }

    @Test("Cancelling a recursion through host calls stops it")
    func cancellation() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        // Spins on a thread of its own, so the pool stays free for the sleep that cancels it.
        let task = Task(executorPreference: LargeStackExecutor(stackSize: 8 << 20)) {
            await interpreter.evaluate(ScriptSource(name: "spin.api", text: """
                func g(_ n: Int) -> Int { fetchUser(id: 1).id + (n == 0 ? 0 : g(n - 1)) }
                while true { if g(100) < 0 { break } }
                """), isPrompt: true)
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.value
        #expect(result.errors.first?.kind == .cancelled)
    }
}
