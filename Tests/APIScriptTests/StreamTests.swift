@testable import APIScript
import Synchronization
import Testing

/// Streams in scripts: `for try await`, the stream methods, their static types, and the source
/// opened only when read and closed as soon as the reader stops.
@Suite("Streams in scripts")
struct StreamTests {
    /// A source of 1, 2, 3 … that counts how often it is opened, how many items are taken from it
    /// and how often it is closed (its iterator dropped). With `failAfter`, it throws after that
    /// many items; with `endless`, it never ends (and waits a little between items).
    final class Source: Sendable {
        struct Counts: Equatable {
            var opened = 0
            var taken = 0
            var closed = 0
        }
        let counts = Mutex(Counts())

        var snapshot: Counts { counts.withLock { $0 } }

        func open(count: Int, failAfter: Int? = nil) -> any AsyncSequence<Value, any Error> {
            counts.withLock { $0.opened += 1 }
            return Items(source: self, count: count, failAfter: failAfter)
        }

        struct Items: AsyncSequence {
            typealias Element = Value
            typealias Failure = any Error
            let source: Source
            let count: Int
            let failAfter: Int?

            func makeAsyncIterator() -> Iterator { Iterator(items: self, closer: Closer(source: source)) }
        }

        struct Iterator: AsyncIteratorProtocol {
            let items: Items
            let closer: Closer
            var next = 1

            mutating func next() async throws -> Value? {
                if let failAfter = items.failAfter, next > failAfter {
                    throw TestFailure(message: "GET http://test/ticks: the connection dropped\nafter \(failAfter) items")
                }
                guard items.count < 0 || next <= items.count else { return nil }
                if items.count < 0 { try await Task.sleep(for: .milliseconds(1)) }
                items.source.counts.withLock { $0.taken += 1 }
                defer { next += 1 }
                return .int(next)
            }
        }

        /// Counts a close when the iterator holding it goes.
        final class Closer: Sendable {
            let source: Source
            init(source: Source) { self.source = source }
            deinit { source.counts.withLock { $0.closed += 1 } }
        }
    }

    /// The test host with `ticks(count:)` (a stream of 1…count; -1 for endless) and
    /// `failingTicks(after:)`, both over `source`.
    private func interpreter(_ source: Source, output: OutputBuffer = OutputBuffer()) throws -> Interpreter {
        let interpreter = try TestHost.interpreter(output: output)
        try interpreter.register(HostFunction(
            name: "ticks", parameters: [.init(label: "count", type: .int, defaultValue: .int(5))], returnType: .stream(.int)
        ) { arguments in
            guard case .int(let count) = arguments[0] else { return .null }
            return .stream(ScriptStream(origin: "ticks(count:)") { source.open(count: count) })
        })
        try interpreter.register(HostFunction(
            name: "failingTicks", parameters: [.init(label: "after", type: .int)], returnType: .stream(.int)
        ) { arguments in
            guard case .int(let after) = arguments[0] else { return .null }
            return .stream(ScriptStream(origin: "failingTicks(after:)") { source.open(count: 100, failAfter: after) })
        })
        return interpreter
    }

    @Test("for try await reads every item in order, then closes the source")
    func readsInOrder() async throws {
        let source = Source()
        let output = OutputBuffer()
        let interpreter = try interpreter(source, output: output)
        _ = try await interpreter.evaluate("for try await tick in ticks(count: 4) { print(tick * 10) }")
        #expect(output.text == "10\n20\n30\n40\n")
        #expect(source.snapshot == .init(opened: 1, taken: 4, closed: 1))
    }

    @Test("Nothing is opened until the stream is read; each read opens it anew")
    func coldAndRereadable() async throws {
        let source = Source()
        let interpreter = try interpreter(source)
        _ = try await interpreter.evaluate("let s = ticks(count: 3)")
        #expect(source.snapshot.opened == 0)
        #expect(try await interpreter.evaluate("s.reduce(0) { $0 + $1 }") == .int(6))
        #expect(try await interpreter.evaluate("s.reduce(0) { $0 + $1 }") == .int(6))
        #expect(source.snapshot == .init(opened: 2, taken: 6, closed: 2))
    }

    @Test("break, return and a prefix's last item close the source without reading on")
    func leavingEarlyCloses() async throws {
        let source = Source()
        let interpreter = try interpreter(source)
        _ = try await interpreter.evaluate("var seen = 0; for try await t in ticks(count: 100) { seen = t; if t == 2 { break } }")
        #expect(try await interpreter.evaluate("seen") == .int(2))
        #expect(source.snapshot == .init(opened: 1, taken: 2, closed: 1))

        _ = try await interpreter.evaluate("func firstOver(_ n: Int) -> Int { for try await t in ticks(count: 100) { if t > n { return t } }; return 0 }")
        #expect(try await interpreter.evaluate("firstOver(4)") == .int(5))
        #expect(source.snapshot == .init(opened: 2, taken: 7, closed: 2))

        // The third item ends the prefix: a fourth is never asked for.
        _ = try await interpreter.evaluate("var got: [Int] = []; for try await t in ticks(count: -1).prefix(3) { got.append(t) }")
        #expect(try await interpreter.evaluate("got") == .array([.int(1), .int(2), .int(3)]))
        #expect(source.snapshot == .init(opened: 3, taken: 10, closed: 3))

        // `prefix(0)` reads nothing, so it does not even connect.
        _ = try await interpreter.evaluate("for try await t in ticks().prefix(0) { print(t) }")
        #expect(source.snapshot.opened == 3)
    }

    @Test("map, filter, dropFirst and prefix run per item as it arrives, in the order written")
    func stages() async throws {
        let source = Source()
        let output = OutputBuffer()
        let interpreter = try interpreter(source, output: output)
        _ = try await interpreter.evaluate(##"for try await s in ticks(count: 10).dropFirst(2).filter({ $0 % 2 == 1 }).map({ "#\($0)" }).prefix(2) { print(s) }"##)
        #expect(output.text == "#3\n#5\n")
        // 1 and 2 dropped, 3 kept, 4 filtered, 5 kept and the prefix's last: five taken.
        #expect(source.snapshot == .init(opened: 1, taken: 5, closed: 1))
        // A prefix before a filter counts what reaches it.
        #expect(try await interpreter.evaluate("ticks(count: 10).prefix(4).filter { $0 > 2 }.reduce(0) { $0 + $1 }") == .int(7))
    }

    @Test("first(where:), contains(where:) and allSatisfy stop reading at their answer")
    func consumingMethods() async throws {
        let source = Source()
        let interpreter = try interpreter(source)
        #expect(try await interpreter.evaluate("ticks(count: -1).first { $0 * $0 > 10 }") == .int(4))
        #expect(source.snapshot == .init(opened: 1, taken: 4, closed: 1))
        #expect(try await interpreter.evaluate("ticks(count: 3).first(where: { $0 > 5 })") == .null)
        #expect(try await interpreter.evaluate("ticks(count: -1).contains { $0 == 2 }") == .bool(true))
        #expect(try await interpreter.evaluate("ticks(count: 3).contains { $0 == 9 }") == .bool(false))
        #expect(try await interpreter.evaluate("ticks(count: -1).allSatisfy { $0 < 3 }") == .bool(false))
        #expect(try await interpreter.evaluate("ticks(count: 3).allSatisfy { $0 < 9 }") == .bool(true))
        let counts = source.snapshot
        #expect(counts.opened == counts.closed && counts.opened == 6)
    }

    @Test("The checker knows each stream's item type", arguments: [
        ("ticks()", "AsyncThrowingStream<Int, any Error>"),
        (#"ticks().map { "\($0)" }"#, "AsyncThrowingStream<String, any Error>"),
        ("ticks().filter { $0 > 1 }.prefix(2).dropFirst()", "AsyncThrowingStream<Int, any Error>"),
        ("ticks().first { $0 > 1 }", "Int?"),
        ("ticks().contains { $0 > 1 }", "Bool"),
        ("ticks().reduce(0.5) { $0 + Double($1) }", "Double"),
    ])
    func staticTypes(text: String, type: String) throws {
        let interpreter = try interpreter(Source())
        #expect(try interpreter.staticType(of: text).get().description == type)
    }

    @Test("Misuse is refused before anything runs, with what to write instead", arguments: [
        ("for t in ticks() { print(t) }", "a stream is read as its items arrive: write 'for try await x in ticks()'"),
        ("for try await t in [1, 2] { print(t) }", "'for try await' reads a stream; '[Int]' is not one: write 'for x in [1, 2]'"),
        ("for try await t in ticks() { print(t.count) }", "value of type 'Int' has no member 'count'"),
        ("ticks().sorted()", "a stream has no 'sorted': its items arrive one at a time; read them with 'for try await', or narrow the stream with prefix, filter, map or dropFirst"),
        ("ticks().map { $0 }.count", "value of type 'AsyncThrowingStream<Int, any Error>' has no member 'count'"),
        ("ticks().filter { $0 }", "cannot convert value of type 'Int' to expected type 'Bool'"),
        ("[1, 2].concurrentMap { ticks(count: $0) }", "concurrentMap collects each closure's value, and a stream's items have not arrived yet; read the streams one after another with 'for try await', or take what you need from each first (such as '.prefix(3)' inside a 'for try await')"),
        ("for try t in ticks() { }", "expected 'await' after 'for try': a stream is read with 'for try await x in …'"),
    ])
    func refused(text: String, message: String) throws {
        let source = Source()
        let interpreter = try interpreter(source)
        let diagnostics = interpreter.check(ScriptSource(name: "t.api", text: text), isPrompt: true)
        #expect(diagnostics.first?.message == message, "\(diagnostics.map(\.message))")
        #expect(source.snapshot.opened == 0)
    }

    @Test("A source that fails mid-way: the items before it ran, the error is at the loop's stream, the source is closed")
    func failureMidWay() async throws {
        let source = Source()
        let output = OutputBuffer()
        let interpreter = try interpreter(source, output: output)
        let text = "for try await t in failingTicks(after: 2) {\n    print(t)\n}"
        let result = await interpreter.evaluate(ScriptSource(name: "t.api", text: text))
        #expect(output.text == "1\n2\n")
        let error = try #require(result.errors.first)
        #expect(error.message == "GET http://test/ticks: the connection dropped")
        #expect(error.notes.map(\.message) == ["after 2 items"])
        #expect(error.kind == .host)
        #expect(text.utf8.dropFirst(error.span.start).prefix(error.span.end - error.span.start).elementsEqual("failingTicks(after: 2)".utf8))
        #expect(source.snapshot.closed == 1)
        // A consuming method's failure is at its call.
        let first = await interpreter.evaluate(ScriptSource(name: "t.api", text: "let x = failingTicks(after: 1).first { $0 > 5 }"))
        #expect(first.errors.first?.message == "GET http://test/ticks: the connection dropped")
    }

    /// Stream "a" gives its item only once stream "b" has given one; if nothing lets "b" run while
    /// "a" waits, it gives up after 60 s and says so.
    final class Rendezvous: Sendable {
        struct State {
            var bGave = false
            var waiting: CheckedContinuation<Void, Never>?
            var gaveUp = false
        }
        let state = Mutex(State())

        func items(_ name: String) -> any AsyncSequence<Value, any Error> {
            AsyncThrowingStream<Value, any Error>(unfolding: { [self] in
                if name == "b" {
                    let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard !state.bGave else { return nil }
                        state.bGave = true
                        defer { state.waiting = nil }
                        return state.waiting
                    }
                    waiting?.resume()
                    return state.withLock { $0.bGave } ? .int(2) : nil
                }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            let ready = self.state.withLock { state -> Bool in
                                if state.bGave { return true }
                                state.waiting = continuation
                                return false
                            }
                            if ready { continuation.resume() }
                        }
                    }
                    group.addTask {
                        try? await Task.sleep(for: .seconds(60))
                        let stuck = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                            defer { state.waiting = nil }
                            if state.waiting != nil { state.gaveUp = true }
                            return state.waiting
                        }
                        stuck?.resume()
                    }
                    await group.next()
                    group.cancelAll()
                }
                return .int(1)
            })
        }
    }

    @Test("Under concurrentMap, a stream waiting for its next item lets the other elements run")
    func concurrentReads() async throws {
        let rendezvous = Rendezvous()
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        try interpreter.register(HostFunction(
            name: "pair", parameters: [.init(label: "name", type: .string)], returnType: .stream(.int)
        ) { arguments in
            guard case .string(let name) = arguments[0] else { return .null }
            return .stream(ScriptStream(origin: "pair(name:)") { rendezvous.items(name) })
        })
        let result = try await interpreter.evaluate(#"["a", "b"].concurrentMap { pair(name: $0).first { _ in true } ?? 0 }"#)
        #expect(result == .array([.int(1), .int(2)]))
        #expect(!rendezvous.state.withLock { $0.gaveUp }, "stream a held the script's turn while it waited")
    }

    @Test("Cancelling the task that reads an endless stream closes its source")
    func cancellationCloses() async throws {
        let source = Source()
        let interpreter = try interpreter(source)
        let task = Task { await interpreter.evaluate(ScriptSource(name: "t.api", text: "for try await t in ticks(count: -1) { }")) }
        while source.snapshot.taken < 3 { await Task.yield() }
        task.cancel()
        let result = await task.value
        #expect(result.errors.first?.kind == .cancelled)
        #expect(source.snapshot.closed == 1)
    }

    @Test("Completion after a stream offers exactly its methods, and inside a for try await the item's members")
    func completion() throws {
        let interpreter = try interpreter(Source())
        let line = "ticks()."
        let offered = Set(interpreter.completions(for: line, cursor: line.utf8.count).candidates)
        #expect(offered == ["map", "filter", "prefix", "dropFirst", "first", "contains", "allSatisfy", "reduce"])
        let loop = "for try await u in failingTicks(after: 1).map({ fetchUser(id: $0) }) { u.na"
        #expect(interpreter.completions(for: loop, cursor: loop.utf8.count).candidates == ["name"])
    }

    @Test("A stream's value prints as what it reads, and is not compared")
    func valueText() async throws {
        let source = Source()
        let interpreter = try interpreter(source)
        #expect(try await interpreter.evaluate("\"\\(ticks())\"") == .string("(stream of ticks(count:))"))
        let diagnostics = interpreter.check(ScriptSource(name: "t.api", text: "ticks() == ticks()"), isPrompt: true)
        #expect(!diagnostics.isEmpty)
        #expect(source.snapshot.opened == 0)
    }
}
