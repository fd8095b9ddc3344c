/// Items that arrive over time, such as an event stream's: what a host function returns for an
/// endpoint that streams, read in a script with `for try await`.
///
/// A stream is a recipe, as a Swift `AsyncSequence` is: nothing is sent until it is read, and each
/// read opens the source anew (a stream kept in a variable can be read twice, each time from its
/// start). `map`, `filter`, `prefix` and `dropFirst` give a new recipe with one more stage; reading
/// runs the stages per item as it arrives. The source is closed as soon as the reader stops — at
/// the end, on `break`, after a `prefix`'s last item, on an error or when the task is cancelled.
public final class ScriptStream: Sendable {
    /// One stage items pass through on their way to the reader.
    enum Stage: Sendable {
        case map(Function)
        case filter(Function)
        case prefix(Int)
        case dropFirst(Int)
    }

    private let open: @Sendable () -> any AsyncSequence<Value, any Error>
    let stages: [Stage]
    /// What the source is, for messages and `:curl` (an endpoint call: `events(count: 5)`).
    public let origin: String

    /// A stream whose items come from `open`, called each time the stream is read.
    ///
    /// - Parameters:
    ///   - origin: What it reads, for messages, such as the call that made it.
    ///   - open: Makes the source; it is iterated once, and dropped (which must close it) when the
    ///     reader stops.
    public init(origin: String, _ open: @escaping @Sendable () -> any AsyncSequence<Value, any Error>) {
        self.origin = origin
        self.open = open
        self.stages = []
    }

    /// A stream of the values given, for tests and hosts whose items are at hand.
    public convenience init(origin: String, values: [Value]) {
        self.init(origin: origin) { values.async }
    }

    private init(origin: String, open: @escaping @Sendable () -> any AsyncSequence<Value, any Error>, stages: [Stage]) {
        self.origin = origin
        self.open = open
        self.stages = stages
    }

    /// The same stream, with each error its source throws passed through `transform` first (a
    /// host's advice on a failed request); cancellation is not passed.
    public func mappingErrors(_ transform: @escaping @Sendable (any Error) -> any Error) -> ScriptStream {
        let open = open
        return ScriptStream(origin: origin, open: { ErrorMappedSource(base: open(), transform: transform) }, stages: stages)
    }

    /// The same source with one more stage.
    func adding(_ stage: Stage) -> ScriptStream {
        ScriptStream(origin: origin, open: open, stages: stages + [stage])
    }

    /// Reads the items in order, handing each to `body` until it returns `false`, the stream ends
    /// or something throws. The source is opened on the first item asked for and closed when this
    /// returns.
    public func forEach(_ body: (Value) async throws -> Bool) async throws {
        var remaining: [Int] = stages.map {
            switch $0 {
            case .prefix(let count), .dropFirst(let count): count
            case .map, .filter: 0
            }
        }
        // `prefix(0)` reads nothing, so it does not connect at all.
        for (index, stage) in stages.enumerated() {
            if case .prefix = stage, remaining[index] <= 0 { return }
        }
        try Task.checkCancellation()
        var iterator = open().makeAsyncIterator()
        // Waiting for an item is waiting for the host: under `concurrentMap` other elements run
        // script code meanwhile, as they do while an endpoint call waits.
        while let item = try await ScriptTurn.yielding({ _ in try await iterator.next(isolation: nil) }) {
            var value = item
            var last = false
            var passed = true
            stages: for (index, stage) in stages.enumerated() {
                switch stage {
                case .map(let transform):
                    value = try await transform.callAsync([value])
                case .filter(let isIncluded):
                    if !(try Operators.truth(try await isIncluded.callAsync([value]))) {
                        passed = false
                        break stages
                    }
                case .prefix:
                    remaining[index] -= 1
                    // This item is the prefix's last: nothing after it is read.
                    if remaining[index] == 0 { last = true }
                case .dropFirst:
                    if remaining[index] > 0 {
                        remaining[index] -= 1
                        passed = false
                        break stages
                    }
                }
            }
            if passed, try await !body(value) { return }
            if last { return }
            try Task.checkCancellation()
        }
    }
}

/// A source whose errors are passed through a function.
private struct ErrorMappedSource: AsyncSequence {
    typealias Element = Value
    typealias Failure = any Error
    let base: any AsyncSequence<Value, any Error>
    let transform: @Sendable (any Error) -> any Error

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<Value, any Error>
        let transform: @Sendable (any Error) -> any Error

        mutating func next() async throws -> Value? { try await next(isolation: nil) }

        mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
            do {
                return try await base.next(isolation: actor)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw transform(error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), transform: transform) }
}

extension Array where Element: Sendable {
    /// The elements as an asynchronous sequence.
    fileprivate var async: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
