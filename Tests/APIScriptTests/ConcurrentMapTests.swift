@testable import APIScript
import Synchronization
import Testing

/// `concurrentMap`: endpoint calls overlap, script code never runs in parallel, results keep
/// their order, and the first error stops the rest.
@Suite("concurrentMap")
struct ConcurrentMapTests {
    /// Counts calls in flight; the first `barrier` calls wait until that many are in flight at
    /// once, which a map that did not overlap its calls could never reach (it would wait out the
    /// 60 s fallback and the count would show it).
    final class Probe: Sendable {
        struct State {
            var inFlight = 0
            var most = 0
            var started: [Int] = []
            var arrived = 0
            var waiting: [CheckedContinuation<Void, Never>] = []
        }
        let state = Mutex(State())
        let barrier: Int
        init(barrier: Int) { self.barrier = barrier }

        func call(_ value: Int) async throws -> Value {
            let wait = state.withLock { state -> Bool in
                state.inFlight += 1
                state.most = max(state.most, state.inFlight)
                state.started.append(value)
                state.arrived += 1
                return state.arrived <= barrier
            }
            if wait { await waitForBarrier() }
            defer { state.withLock { $0.inFlight -= 1 } }
            if value == 404 { throw TestFailure(message: "GET http://test/items/404: 404 Not Found") }
            if value == 0 { try await Task.sleep(for: .seconds(60)) }
            await Task.yield()
            return .int(value * 10)
        }

        private func waitForBarrier() async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let open = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                            state.waiting.append(continuation)
                            if state.arrived >= self.barrier || state.waiting.count >= self.barrier {
                                defer { state.waiting = [] }
                                return state.waiting
                            }
                            return []
                        }
                        for waiter in open { waiter.resume() }
                    }
                }
                group.addTask {
                    // Only reached when calls do not overlap: the test then fails on the count.
                    try? await Task.sleep(for: .seconds(60))
                    let stuck = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                        defer { state.waiting = [] }
                        return state.waiting
                    }
                    for waiter in stuck { waiter.resume() }
                }
                await group.next()
                group.cancelAll()
            }
        }

        var most: Int { state.withLock { $0.most } }
        var started: [Int] { state.withLock { $0.started } }
    }

    private func interpreter(_ probe: Probe, concurrency: Int = 8) throws -> Interpreter {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        interpreter.concurrency = concurrency
        try interpreter.register(HostFunction(
            name: "item", parameters: [.init(label: "id", type: .int)], returnType: .int) { arguments in
            guard case .int(let id) = arguments[0] else { return .null }
            return try await probe.call(id)
        })
        return interpreter
    }

    @Test("Recursion through concurrentMap names three elements and counts the other levels in one note")
    func recursionNotes() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        // Twelve levels, then a failing call: the same notes as ten thousand levels deep, in a moment.
        let result = await interpreter.evaluate(ScriptSource(name: "deep.api", text: """
            func f(_ n: Int) -> Int { n == 12 ? fetchUser(id: 404).id : [1].concurrentMap { _ in f(n + 1) }.count }
            f(0)
            """), isPrompt: false)
        let error = try #require(result.errors.first)
        #expect(error.message.contains("404"), "\(error.message)")
        #expect(error.notes.map(\.message).filter { $0.hasPrefix("in concurrentMap") }.count == 3, "\(error.notes.map(\.message))")
        #expect(error.notes.last?.message == "… and 9 more levels of concurrentMap around these", "\(error.notes.map(\.message))")
    }

    @Test("Up to the limit of calls are in flight at once, results come back in order")
    func overlapsInOrder() async throws {
        let probe = Probe(barrier: 5)
        let interpreter = try interpreter(probe)
        let value = try await interpreter.evaluate("(1...20).concurrentMap(limit: 5) { item(id: $0) + 1 }")
        #expect(value == .array((1...20).map { .int($0 * 10 + 1) }))
        #expect(probe.most == 5)
    }

    @Test("The session's concurrency caps any limit a script asks for, and is the default")
    func sessionCap() async throws {
        let capped = Probe(barrier: 3)
        let interpreter = try interpreter(capped, concurrency: 3)
        _ = try await interpreter.evaluate("(1...12).concurrentMap(limit: 50) { item(id: $0) }")
        #expect(capped.most == 3)
        let defaulted = Probe(barrier: 4)
        let other = try self.interpreter(defaulted, concurrency: 4)
        _ = try await other.evaluate("[1, 2, 3, 4, 5, 6, 7, 8].concurrentMap { item(id: $0) }")
        #expect(defaulted.most == 4)
    }

    @Test("The first error names its element and stops the calls not yet started; try? makes one element nil")
    func errors() async throws {
        let probe = Probe(barrier: 1)
        let interpreter = try interpreter(probe)
        let failed = await interpreter.evaluate(ScriptSource(name: "s.api", text: "let r = [1, 404, 3, 4, 5, 6].concurrentMap(limit: 1) { item(id: $0) }"),
                                                isPrompt: false)
        let error = try #require(failed.errors.first)
        #expect(error.message.contains("404 Not Found"), "\(error.message)")
        #expect(error.notes.contains { $0.message == "in concurrentMap, for element 1 of 6: 404" }, "\(error.notes)")
        #expect(probe.started == [1, 404], "calls after the failure were not started: \(probe.started)")
        let tolerant = try await interpreter.evaluate("[1, 404, 3].concurrentMap { try? item(id: $0) }")
        #expect(tolerant == .array([.int(10), .null, .int(30)]))
    }

    @Test("Script code runs one call at a time: a captured var adds up exactly; nested concurrentMaps finish")
    func serialScriptCode() async throws {
        let interpreter = try interpreter(Probe(barrier: 0))
        let total = try await interpreter.evaluate("""
            var total = 0
            let done = (1...100).concurrentMap { i in
                let value = item(id: i)
                total += value
                return i
            }
            total + done.count
            """)
        #expect(total == .int((1...100).reduce(0) { $0 + $1 * 10 } + 100))
        let nested = try await interpreter.evaluate("(1...4).concurrentMap { i in (1...3).concurrentMap { j in item(id: i * j) } }.map { $0.reduce(0, +) }")
        #expect(nested == .array((1...4).map { i in .int((1...3).reduce(0) { $0 + i * $1 * 10 }) }))
    }

    @Test("Cancelling the evaluation (Ctrl-C) cancels every call in flight")
    func cancellation() async throws {
        let probe = Probe(barrier: 0)
        let interpreter = try interpreter(probe)
        let task = Task { await interpreter.evaluate(ScriptSource(name: "<input>", text: "[0, 0, 0, 0].concurrentMap { item(id: $0) }"), isPrompt: true) }
        while probe.started.count < 4 { await Task.yield() }
        task.cancel()
        let result = await task.value
        #expect(result.failed)
        #expect(result.value == nil)
    }

    @Test("Checked like map: the closure's result is the element type, the limit an Int; a pure closure just maps")
    func checking() async throws {
        let interpreter = try interpreter(Probe(barrier: 0))
        #expect(try interpreter.staticType(of: "[1, 2].concurrentMap { item(id: $0) > 5 }").get() == .array(.bool))
        guard case .failure(let error) = interpreter.staticType(of: "[1].concurrentMap(limit: \"x\") { item(id: $0) }") else {
            Issue.record("a String limit was accepted")
            return
        }
        #expect(error.diagnostics.first?.message.contains("String") == true, "\(error.diagnostics)")
        #expect(try await interpreter.evaluate("(1...3).concurrentMap { $0 * 2 }") == .array([.int(2), .int(4), .int(6)]))
        let zero = await interpreter.evaluate(ScriptSource(name: "<input>", text: "[1].concurrentMap(limit: 0) { item(id: $0) }"), isPrompt: true)
        #expect(zero.errors.first?.message == "concurrentMap's limit must be a positive Int")
    }
}
