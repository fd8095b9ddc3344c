/// The methods of a stream (``ScriptStream``), as Swift's `AsyncSequence` has them.
///
/// `map`, `filter`, `prefix` and `dropFirst` add a stage and read nothing: the stream is read
/// where it is consumed (`for try await`, the prompt, `first(where:)`, `contains(where:)`,
/// `reduce`), item by item as they arrive, and closed as soon as the answer is known.
///
/// These rows are a table of their own (``BuiltinMethod/streams``): a stream's `map` is a different
/// method from an array's, and one spelling answers to one row in each table.
extension BuiltinMethod {
    static let streams: [BuiltinMethod] = [
        BuiltinMethod(
            "map", labels: [[nil]], on: .stream,
            "map<T>(_ transform: (Element) async throws -> T) -> AsyncThrowingStream<T, any Error>",
            "Each item transformed as it arrives; nothing is read until the stream is.",
            example: #"events(count: 3).map(\.status)"#, closureArity: 1,
            type: { checker, call in .stream(checker.methodClosure(call, 0, [call.element])) },
            .plain { receiver, arguments in
                .stream(try stream(receiver).adding(.map(try MethodArguments.function(arguments))))
            }),
        BuiltinMethod(
            "filter", labels: [[nil]], on: .stream,
            "filter(_ isIncluded: (Element) async throws -> Bool) -> AsyncThrowingStream<Element, any Error>",
            "The items the closure accepts, as they arrive.",
            example: #"events(count: 6).filter { $0.status == "passed" }"#, closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return .stream(call.element)
            },
            .plain { receiver, arguments in
                .stream(try stream(receiver).adding(.filter(try MethodArguments.function(arguments))))
            }),
        BuiltinMethod(
            "prefix", labels: [[nil]], on: .stream,
            "prefix(_ maxLength: Int) -> AsyncThrowingStream<Element, any Error>",
            "The first items, at most that many; the stream is closed after the last of them.",
            example: "events(count: 100).prefix(2)",
            type: { checker, call in
                checker.methodArgument(call, 0, .int)
                return .stream(call.element)
            },
            .plain { receiver, arguments in
                .stream(try stream(receiver).adding(.prefix(try MethodArguments.count(arguments, default: 0))))
            }),
        BuiltinMethod(
            "dropFirst", labels: [[], [nil]], on: .stream,
            "dropFirst(_ k: Int = 1) -> AsyncThrowingStream<Element, any Error>",
            "The items after the first k.",
            example: "events(count: 3).dropFirst()",
            type: { checker, call in
                checker.methodCount(call)
                return .stream(call.element)
            },
            .plain { receiver, arguments in
                .stream(try stream(receiver).adding(.dropFirst(try MethodArguments.count(arguments, default: 1))))
            }),
        consuming("first", labels: ["where"], "first(where predicate: (Element) async throws -> Bool) async throws -> Element?",
                  "Reads until an item the closure accepts and gives it (nil when the stream ends first); the stream is closed then.",
                  example: #"events(count: 9).first { $0.status == "passed" }"#, result: { $0.element.optional },
                  stopsAt: true, answer: { found, _ in found ?? .null }),
        consuming("contains", labels: ["where"], "contains(where predicate: (Element) async throws -> Bool) async throws -> Bool",
                  "Reads until an item the closure accepts: true then, false when the stream ends first.",
                  example: "events(count: 5).contains { $0.n == 4 }", result: { _ in .bool },
                  stopsAt: true, answer: { _, stopped in .bool(stopped) }),
        consuming("allSatisfy", labels: [nil], "allSatisfy(_ predicate: (Element) async throws -> Bool) async throws -> Bool",
                  "Reads to the end unless an item fails the closure (false then, at once).",
                  example: "events(count: 4).allSatisfy { $0.n > 0 }", result: { _ in .bool },
                  stopsAt: false, answer: { _, stopped in .bool(!stopped) }),
        BuiltinMethod(
            "reduce", labels: [[nil, nil]], on: .stream,
            "reduce<R>(_ initial: R, _ combine: (R, Element) async throws -> R) async throws -> R",
            "Reads the whole stream, combining its items into one value.",
            example: "events(count: 4).reduce(0) { $0 + $1.n }", closureArity: 2,
            type: { checker, call in checker.reduceType(call) },
            .consuming { stream, arguments in
                let combine = try MethodArguments.function(arguments, 1)
                var accumulator = arguments.first ?? .null
                try await stream.forEach { item in
                    accumulator = try await combine.callAsync([accumulator, item])
                    return true
                }
                return accumulator
            }),
    ]

    private static func stream(_ receiver: Value) throws -> ScriptStream {
        guard case .stream(let stream) = receiver else {
            throw ScriptFailure("expected a stream, found '\(ValueFormatter.typeName(receiver))'")
        }
        return stream
    }

    /// A method that reads items until the closure answers `stopsAt` for one.
    private static func consuming(_ name: String, labels: [String?], _ declaration: String, _ summary: String,
                                  example: String, result: @escaping @Sendable (MethodCall) -> ScriptType, stopsAt: Bool,
                                  answer: @escaping @Sendable (_ found: Value?, _ stopped: Bool) -> Value) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: [labels], on: .stream, declaration, summary, example: example, closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return result(call)
            },
            .consuming { stream, arguments in
                let predicate = try MethodArguments.function(arguments)
                var found: Value?
                try await stream.forEach { item in
                    guard try Operators.truth(try await predicate.callAsync([item])) == stopsAt else { return true }
                    found = item
                    return false
                }
                return answer(found, found != nil)
            })
    }
}
