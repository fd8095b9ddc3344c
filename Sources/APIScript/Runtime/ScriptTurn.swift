import Synchronization

/// Whose turn it is to run script code, while `concurrentMap` has several calls in flight.
///
/// The interpreter's runtime (frames, boxes, step counts) is used by one task at a time. Calls of
/// `concurrentMap`'s closure run as tasks of a group, and each holds the turn while it runs script
/// code, handing it on only while it waits for the host (an endpoint's answer): script code never
/// runs in parallel, the network waits overlap — as in an event loop. The turn also orders memory:
/// what one task wrote before handing the turn on, the next one reads.
///
/// A shell takes a turn of its own the same way for each input, so that a host calling it from
/// several tasks gets its inputs one after another.
package final class ScriptTurn: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// What the current task's script code runs under: the turn of `concurrentMap`'s calls, and
    /// the host scope of the closure it is in — the interpreter's one task-local value, since
    /// closures are compiled once and called from any task.
    struct RunScope: Sendable {
        /// The turn the task runs script code under, when it is one of `concurrentMap`'s calls.
        var turn: ScriptTurn?
        /// What an enclosing host function handed to the host calls of its closure.
        var host = HostScope()
    }

    @TaskLocal static var scope = RunScope()

    /// The turn the current task runs script code under, when it is one of `concurrentMap`'s calls.
    static var current: ScriptTurn? { scope.turn }

    package init() {}

    /// Takes the turn if it is free, without waiting.
    package func tryAcquire() -> Bool {
        state.withLock { state -> Bool in
            if state.held { return false }
            state.held = true
            return true
        }
    }

    /// Waits for the turn and takes it.
    package func acquire() async {
        // Mostly the turn is free (calls hand it on while they wait): take it without suspending.
        if tryAcquire() { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if !state.held {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the turn to the next task waiting, or frees it.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `operation` (a host call, given its scope) without the turn, when the current task
    /// holds one, and takes it back after, whatever the outcome.
    static func yielding<T>(_ operation: (HostScope) async throws -> T) async throws -> T {
        let scope = scope
        guard let turn = scope.turn else { return try await operation(scope.host) }
        turn.release()
        let result: Result<T, any Error>
        do {
            result = .success(try await operation(scope.host))
        } catch {
            result = .failure(error)
        }
        await turn.acquire()
        return try result.get()
    }
}

/// `concurrentMap(limit:_:)`: the closure called for every element, at most `limit` calls in
/// flight, results in the elements' order; the first error cancels the calls still running.
enum ConcurrentMap {
    /// The next element to start, shared by the workers.
    final class Cursor: Sendable {
        private let position = Atomic<Int>(0)

        func next(below count: Int) -> Int? {
            let index = position.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < count ? index : nil
        }
    }

    /// The most calls a session may have in flight, whatever it asks for.
    static let maximumLimit = 256

    static func run(_ elements: [Value], limit: Int, _ transform: Function) async throws -> [Value] {
        let width = max(1, min(limit, maximumLimit, elements.count))
        let outer = ScriptTurn.current
        let turn = ScriptTurn()
        // The caller holds the outer turn while its script runs; the calls need it handed on.
        outer?.release()
        let result: Result<[Value], any Error>
        do {
            var scope = ScriptTurn.scope
            scope.turn = turn
            result = .success(try await ScriptTurn.$scope.withValue(scope) {
                // `width` workers, each taking the next element until none is left: a task per
                // worker rather than per element.
                let cursor = Cursor()
                return try await withThrowingTaskGroup(of: [(Int, Value)].self) { group in
                    for _ in 0..<width {
                        group.addTask {
                            var done: [(Int, Value)] = []
                            await turn.acquire()
                            defer { turn.release() }
                            while let index = cursor.next(below: elements.count) {
                                let element = elements[index]
                                do {
                                    done.append((index, try await transform.callAsync([element])))
                                } catch {
                                    throw Self.annotated(error, index: index, of: elements.count, element: element)
                                }
                            }
                            return done
                        }
                    }
                    var results = [Value](repeating: .null, count: elements.count)
                    while let done = try await group.next() {
                        for (index, value) in done { results[index] = value }
                    }
                    return results
                }
            })
        } catch {
            result = .failure(error)
        }
        if let outer { await outer.acquire() }
        return try result.get()
    }

    /// The error with a note naming the element it was for.
    private static func annotated(_ error: any Error, index: Int, of count: Int, element: Value) -> any Error {
        var shown = ValueFormatter.literal(element)
        if shown.count > 60 { shown = String(shown.prefix(59)) + "…" }
        let note = Diagnostic.Note("in concurrentMap, for element \(index) of \(count): \(shown)")
        switch error {
        case var diagnostic as Diagnostic:
            addNote(note, to: &diagnostic.notes)
            return diagnostic
        case var failure as ScriptFailure:
            addNote(note, to: &failure.notes)
            return failure
        default:
            return error
        }
    }

    /// The innermost three elements are named; further levels (recursion through concurrentMap)
    /// are counted in one note, not printed ten thousand times.
    private static func addNote(_ note: Diagnostic.Note, to notes: inout [Diagnostic.Note]) {
        let prefix = "in concurrentMap, "
        let outer = "… and "
        func levels(_ count: Int) -> Diagnostic.Note {
            Diagnostic.Note(outer + "\(count) more level\(count == 1 ? "" : "s") of concurrentMap around these")
        }
        if let last = notes.last, last.message.hasPrefix(outer), last.message.hasSuffix("of concurrentMap around these"),
           let count = Int(last.message.dropFirst(outer.count).prefix { $0.isNumber }) {
            notes[notes.count - 1] = levels(count + 1)
        } else if notes.count(where: { $0.message.hasPrefix(prefix) }) >= 3 {
            notes.append(levels(1))
        } else {
            notes.append(note)
        }
    }
}
