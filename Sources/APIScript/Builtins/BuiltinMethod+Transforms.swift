/// The methods that call a closure for each element: `map`, `filter`, `reduce` and the like.
///
/// Each runs without suspending while its closure is pure; when the closure may call an endpoint
/// the async form runs instead, one element after another in order.
extension BuiltinMethod {
    static let transforms: [BuiltinMethod] = [
        BuiltinMethod(
            "map", labels: [[nil]], on: [.array, .range, .bytes, .dictionary],
            "map<T>(_ transform: (Element) -> T) -> [T]",
            "Each element transformed, in order; a dictionary gives its (key, value) pairs.",
            example: #"posts().map(\.title)"#, closureArity: 1,
            type: { checker, call in .array(checker.methodClosure(call, 0, [call.element])) },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    if case .range(let lower, let upper) = receiver {
                        return .array(try RangeWalk.collect(lower, upper, reserving: true) { try invoke($0) })
                    }
                    let elements = try Members.elements(of: receiver)
                    var result: [Value] = []
                    result.reserveCapacity(elements.count)
                    for element in elements { result.append(try invoke(element)) }
                    return .array(result)
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    var result: [Value] = []
                    for element in try Members.elements(of: receiver) { result.append(try await body.callAsync([element])) }
                    return .array(result)
                })),
        BuiltinMethod(
            "filter", labels: [[nil]], on: [.array, .range, .bytes, .dictionary],
            "filter(_ isIncluded: (Element) -> Bool) -> [Element]",
            "The elements the closure accepts, in order; a dictionary stays a dictionary.",
            example: "posts().filter { $0.userId == 1 }", closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return call.dictionaryValue.map { .dictionary($0) } ?? .array(call.element)
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    if case .range(let lower, let upper) = receiver {
                        return .array(try RangeWalk.collect(lower, upper, reserving: false) { element in
                            try Operators.truth(try invoke(element)) ? element : nil
                        })
                    }
                    let kept = try Members.elements(of: receiver).filter { try Operators.truth(try invoke($0)) }
                    return MethodArguments.entries(receiver) == nil ? .array(kept) : MethodArguments.dictionary(from: kept)
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    var kept: [Value] = []
                    for element in try Members.elements(of: receiver) where try Operators.truth(try await body.callAsync([element])) {
                        kept.append(element)
                    }
                    return MethodArguments.entries(receiver) == nil ? .array(kept) : MethodArguments.dictionary(from: kept)
                })),
        BuiltinMethod(
            "compactMap", labels: [[nil]], on: .sequences,
            "compactMap<T>(_ transform: (Element) -> T?) -> [T]",
            "Each element transformed, leaving out the nils.",
            example: "[\"1\", \"x\", \"3\"].compactMap { Int($0) }", closureArity: 1,
            type: { checker, call in .array(checker.methodClosure(call, 0, [call.element]).unwrapped) },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    var result: [Value] = []
                    for element in try Members.elements(of: receiver) {
                        let mapped = try invoke(element)
                        if !mapped.isNull { result.append(mapped) }
                    }
                    return .array(result)
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    var result: [Value] = []
                    for element in try Members.elements(of: receiver) {
                        let mapped = try await body.callAsync([element])
                        if !mapped.isNull { result.append(mapped) }
                    }
                    return .array(result)
                })),
        BuiltinMethod(
            "concurrentMap", labels: [[nil], ["limit", nil]], on: .sequences,
            "concurrentMap<T>(limit: Int = concurrency, _ transform: (Element) -> T) -> [T]",
            "Like map, with up to `limit` endpoint calls in flight at once (the session's `concurrency` at most); results in order, and the first error stops the rest.",
            example: "posts().prefix(5).concurrentMap { comments(postId: $0.id).count }", closureArity: 1,
            type: { checker, call in
                if call.arguments.count == 2 { checker.methodArgument(call, 0, .int) }
                let result = checker.methodClosure(call, call.arguments.count - 1, [call.element])
                if result.isStream {
                    // Items of several streams at once would arrive in no order a script could follow.
                    return checker.rejectMethod(call, "concurrentMap collects each closure's value, and a stream's items have not arrived yet; read the streams one after another with 'for try await', or take what you need from each first (such as '.prefix(3)' inside a 'for try await')")
                }
                return .array(result)
            },
            .higherOrder(
                sync: { receiver, arguments in
                    // A closure that calls no endpoint has nothing to wait for: it runs as map does.
                    let invoke = try MethodArguments.function(arguments, arguments.count - 1).unaryInvoker()
                    return .array(try Members.elements(of: receiver).map { try invoke($0) })
                },
                async: { receiver, arguments in
                    let transform = try MethodArguments.function(arguments, arguments.count - 1)
                    let session = transform.context?.concurrency.value ?? 8
                    var limit = session
                    if arguments.count == 2 {
                        guard case .int(let asked) = arguments[0], asked > 0 else {
                            throw ScriptFailure("concurrentMap's limit must be a positive Int")
                        }
                        limit = min(asked, session)
                    }
                    return .array(try await ConcurrentMap.run(try Members.elements(of: receiver), limit: limit, transform))
                })),
        BuiltinMethod(
            "reduce", labels: [[nil, nil]], on: .sequences,
            "reduce<R>(_ initial: R, _ combine: (R, Element) -> R) -> R",
            "Combines the elements into one value, starting from the initial one.",
            example: "posts().reduce(0) { $0 + $1.title.count }", closureArity: 2,
            type: { checker, call in checker.reduceType(call) },
            .higherOrder(
                sync: { receiver, arguments in
                    let combine = try MethodArguments.function(arguments, 1).binaryInvoker()
                    var accumulator = arguments.first ?? .null
                    for element in try Members.elements(of: receiver) { accumulator = try combine(accumulator, element) }
                    return accumulator
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments, 1)
                    var accumulator = arguments.first ?? .null
                    for element in try Members.elements(of: receiver) {
                        accumulator = try await body.callAsync([accumulator, element])
                    }
                    return accumulator
                })),
        BuiltinMethod(
            "forEach", labels: [[nil]], on: .sequences,
            "forEach(_ body: (Element) -> Void)",
            "Runs the closure for each element, in order.",
            example: "posts().prefix(3).forEach { print($0.title) }", closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .void)
                return .void
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    for element in try Members.elements(of: receiver) { _ = try invoke(element) }
                    return .void
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    for element in try Members.elements(of: receiver) { _ = try await body.callAsync([element]) }
                    return .void
                })),
        predicate("allSatisfy", labels: [nil], on: .sequences, "allSatisfy(_ predicate: (Element) -> Bool) -> Bool",
                  "Whether the closure accepts every element (true for none).",
                  example: "posts().allSatisfy { !$0.title.isEmpty }", result: { _ in .bool },
                  stopsAt: false, answer: { _, stopped in .bool(!stopped) }),
        predicate("contains", labels: ["where"], on: [.array, .range, .bytes, .dictionary],
                  "contains(where predicate: (Element) -> Bool) -> Bool", "Whether the closure accepts some element.",
                  example: "posts().contains { $0.userId == 2 }", result: { _ in .bool },
                  stopsAt: true, answer: { _, stopped in .bool(stopped) }),
        predicate("first", labels: ["where"], on: .sequences, "first(where predicate: (Element) -> Bool) -> Element?",
                  "The first element the closure accepts, or nil.",
                  example: "posts().first { $0.title.hasPrefix(\"q\") }", result: { $0.element.optional },
                  stopsAt: true, answer: { found, _ in found ?? .null }),
        BuiltinMethod(
            "last", labels: [["where"]], on: .sequences,
            "last(where predicate: (Element) -> Bool) -> Element?",
            "The last element the closure accepts, or nil.",
            example: "posts().last { $0.userId == 1 }", closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return call.element.optional
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    return try Members.elements(of: receiver).last { try Operators.truth(try invoke($0)) } ?? .null
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    var found: Value = .null
                    for element in try Members.elements(of: receiver).reversed()
                    where try Operators.truth(try await body.callAsync([element])) {
                        found = element
                        break
                    }
                    return found
                })),
        BuiltinMethod(
            "count", labels: [["where"]], on: .sequences,
            "count(where predicate: (Element) -> Bool) -> Int",
            "How many elements the closure accepts.",
            example: "posts().count { $0.userId == 1 }", closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return .int
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    return .int(try Members.elements(of: receiver).reduce(0) { try Operators.truth(try invoke($1)) ? $0 + 1 : $0 })
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    var count = 0
                    for element in try Members.elements(of: receiver) where try Operators.truth(try await body.callAsync([element])) {
                        count += 1
                    }
                    return .int(count)
                })),
        BuiltinMethod(
            "sorted", labels: [["by"]], on: .sequences,
            "sorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element]",
            "The elements in the order the closure decides.",
            example: "posts().sorted { $0.title < $1.title }", closureArity: 2,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element, call.element], returning: .bool)
                return .array(call.element)
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let comparator = try MethodArguments.function(arguments).binaryInvoker()
                    return .array(try Members.elements(of: receiver).sorted { try Operators.truth(try comparator($0, $1)) })
                },
                async: { receiver, arguments in
                    // A suspending comparator: insertion into a sorted array by binary search.
                    let body = try MethodArguments.function(arguments)
                    var sorted: [Value] = []
                    for element in try Members.elements(of: receiver) {
                        var low = 0
                        var high = sorted.count
                        while low < high {
                            let middle = (low + high) / 2
                            if try Operators.truth(try await body.callAsync([element, sorted[middle]])) {
                                high = middle
                            } else {
                                low = middle + 1
                            }
                        }
                        sorted.insert(element, at: low)
                    }
                    return .array(sorted)
                })),
        BuiltinMethod(
            "mapValues", labels: [[nil]], on: .dictionary,
            "mapValues<T>(_ transform: (Value) -> T) -> [String: T]",
            "The same keys, each value transformed.",
            example: "[\"a\": 1, \"b\": 2].mapValues { $0 * 10 }", closureArity: 1,
            type: { checker, call in .dictionary(checker.methodClosure(call, 0, [call.dictionaryValue ?? .any])) },
            .higherOrder(
                sync: { receiver, arguments in
                    guard let entries = MethodArguments.entries(receiver) else {
                        throw ScriptFailure("'mapValues' needs a dictionary, not '\(ValueFormatter.typeName(receiver))'")
                    }
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    var result: [String: Value] = [:]
                    for (key, value) in entries { result[key] = try invoke(value) }
                    return .dictionary(result)
                },
                async: { receiver, arguments in
                    guard let entries = MethodArguments.entries(receiver) else {
                        throw ScriptFailure("'mapValues' needs a dictionary, not '\(ValueFormatter.typeName(receiver))'")
                    }
                    let body = try MethodArguments.function(arguments)
                    var result: [String: Value] = [:]
                    for key in entries.keys.sorted() { result[key] = try await body.callAsync([entries[key] ?? .null]) }
                    return .dictionary(result)
                })),
    ]

    /// A method that asks a predicate of each element until `stopsAt` (true or false) comes back.
    private static func predicate(_ name: String, labels: [String?], on receivers: Receivers, _ declaration: String,
                                  _ summary: String, example: String,
                                  result: @escaping @Sendable (MethodCall) -> ScriptType, stopsAt: Bool,
                                  answer: @escaping @Sendable (_ found: Value?, _ stopped: Bool) -> Value) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: [labels], on: receivers, declaration, summary, example: example, closureArity: 1,
            type: { checker, call in
                checker.methodClosure(call, 0, [call.element], returning: .bool)
                return result(call)
            },
            .higherOrder(
                sync: { receiver, arguments in
                    let invoke = try MethodArguments.function(arguments).unaryInvoker()
                    for element in try Members.elements(of: receiver) where try Operators.truth(try invoke(element)) == stopsAt {
                        return answer(element, true)
                    }
                    return answer(nil, false)
                },
                async: { receiver, arguments in
                    let body = try MethodArguments.function(arguments)
                    for element in try Members.elements(of: receiver)
                    where try Operators.truth(try await body.callAsync([element])) == stopsAt {
                        return answer(element, true)
                    }
                    return answer(nil, false)
                }))
    }
}

extension Checker {
    /// How many reduces nested in each other's closures may be on trial at once.
    static let maximumReduceTrials = 1

    /// `reduce(0) { $0 + $1.price }`: an integer literal takes the closure's `Double` type, as in Swift.
    ///
    /// That takes checking the closure twice (as `Int`, then as `Double`), so reduces nested in
    /// each other's closures would cost 2^depth: a reduce inside a closure that is being checked
    /// on trial does not try itself (it is tried when that closure is checked for good), which
    /// keeps the work quadratic in the depth at most.
    mutating func reduceType(_ call: MethodCall) -> ScriptType {
        var initial = methodArgument(call, 0, .unknown)
        if initial == .int, case .integer = call.arguments[0].value.kind, reduceTrials < Self.maximumReduceTrials {
            let mark = diagnostics.count
            reduceTrials += 1
            let trial = methodClosure(call, 1, [initial, call.element])
            reduceTrials -= 1
            if trial == .double || diagnostics.count > mark {
                diagnostics.removeSubrange(mark...)
                annotations.setType(.double, of: call.arguments[0].value)
                initial = .double
                methodClosure(call, 1, [initial, call.element], returning: initial)
            }
            return initial
        }
        methodClosure(call, 1, [initial, call.element], returning: initial)
        return initial
    }
}

/// Walks a range without making an array of its elements first, checking for cancellation and
/// the element limit as it goes.
enum RangeWalk {
    static func collect(_ lower: Int, _ upper: Int, reserving: Bool,
                        _ transform: (Value) throws -> Value?) throws -> [Value] {
        var result: [Value] = []
        if reserving { result.reserveCapacity(try ScriptLimits.count(lower, upper)) }
        var current = lower
        while current < upper {
            if current & 0xFFF == 0 {
                if Task.isCancelled { throw CancellationError() }
                try ScriptLimits.checkElements(result.count)
            }
            if let value = try transform(.int(current)) { result.append(value) }
            current += 1
        }
        return result
    }
}
