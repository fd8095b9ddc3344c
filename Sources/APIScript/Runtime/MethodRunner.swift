/// The methods of arrays, strings, dictionaries and ranges, at run time.
///
/// Higher-order methods run without suspending when their function argument is pure; only when
/// it calls the host do they take the `async` path.
enum MethodRunner {
    static func call(_ method: Method, _ receiver: Value, _ arguments: [Value]) throws -> Value {
        if method.isHigherOrder || (method == .sorted && !arguments.isEmpty)
            || (method == .contains && arguments.first.map(isFunction) == true)
        {
            return try higherOrder(method, receiver, arguments)
        }
        return try plain(method, receiver, arguments)
    }

    static func callAsync(_ method: Method, _ receiver: Value, _ arguments: [Value]) async throws -> Value {
        let functions = arguments.compactMap { if case .function(let f) = $0 { f } else { nil } }
        if functions.allSatisfy(\.isPure) { return try call(method, receiver, arguments) }
        return try await higherOrderAsync(method, receiver, arguments)
    }

    private static func isFunction(_ value: Value) -> Bool {
        if case .function = value { return true }
        return false
    }

    private static func function(_ arguments: [Value], _ index: Int = 0) throws -> Function {
        guard index < arguments.count, case .function(let function) = arguments[index] else {
            throw ScriptFailure("expected a closure argument")
        }
        return function
    }

    private static func integer(_ arguments: [Value], default value: Int) throws -> Int {
        guard let first = arguments.first else { return value }
        guard case .int(let number) = first else { throw ScriptFailure("expected an Int argument") }
        guard number >= 0 else { throw ScriptFailure("the count must not be negative (\(number))") }
        return number
    }

    private static func string(_ arguments: [Value], default value: String? = nil) throws -> String {
        guard let first = arguments.first else {
            if let value { return value }
            throw ScriptFailure("expected a String argument")
        }
        switch first {
        case .string(let text), .secret(let text): return text
        default: throw ScriptFailure("expected a String argument, found '\(ValueFormatter.typeName(first))'")
        }
    }

    // MARK: Higher-order, synchronous

    private static func higherOrder(_ method: Method, _ receiver: Value, _ arguments: [Value]) throws -> Value {
        if case .dictionary(let entries) = receiver {
            switch method {
            case .mapValues:
                let invoke = try function(arguments).unaryInvoker()
                var result: [String: Value] = [:]
                for (key, value) in entries { result[key] = try invoke(value) }
                return .dictionary(result)
            case .filter:
                let invoke = try function(arguments).unaryInvoker()
                var result: [String: Value] = [:]
                for pair in try Members.elements(of: receiver) {
                    if try Operators.truth(try invoke(pair)), case .record(let record) = pair,
                        case .string(let key) = record.values[0]
                    {
                        result[key] = record.values[1]
                    }
                }
                return .dictionary(result)
            default: break
            }
        }
        if case .range(let lower, let upper) = receiver, method == .map || method == .filter {
            // Ranges are walked without building an array of their elements first.
            let invoke = try function(arguments).unaryInvoker()
            var result: [Value] = []
            if method == .map { result.reserveCapacity(try ScriptLimits.count(lower, upper)) }
            var current = lower
            while current < upper {
                if current & 0xFFF == 0 {
                    if Task.isCancelled { throw CancellationError() }
                    try ScriptLimits.checkElements(result.count)
                }
                let element = Value.int(current)
                if method == .map {
                    result.append(try invoke(element))
                } else if try Operators.truth(try invoke(element)) {
                    result.append(element)
                }
                current += 1
            }
            return .array(result)
        }
        let elements = try Members.elements(of: receiver)
        switch method {
        case .map:
            let invoke = try function(arguments).unaryInvoker()
            var result: [Value] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(try invoke(element)) }
            return .array(result)
        case .filter:
            let invoke = try function(arguments).unaryInvoker()
            var result: [Value] = []
            for element in elements where try Operators.truth(try invoke(element)) { result.append(element) }
            return .array(result)
        case .compactMap:
            let invoke = try function(arguments).unaryInvoker()
            var result: [Value] = []
            for element in elements {
                let mapped = try invoke(element)
                if !mapped.isNull { result.append(mapped) }
            }
            return .array(result)
        case .reduce:
            let combine = try function(arguments, 1).binaryInvoker()
            var accumulator = arguments.first ?? .null
            for element in elements { accumulator = try combine(accumulator, element) }
            return accumulator
        case .forEach:
            let invoke = try function(arguments).unaryInvoker()
            for element in elements { _ = try invoke(element) }
            return .void
        case .allSatisfy:
            let invoke = try function(arguments).unaryInvoker()
            return .bool(try elements.allSatisfy { try Operators.truth(try invoke($0)) })
        case .contains:
            let invoke = try function(arguments).unaryInvoker()
            return .bool(try elements.contains { try Operators.truth(try invoke($0)) })
        case .firstWhere:
            let invoke = try function(arguments).unaryInvoker()
            return try elements.first { try Operators.truth(try invoke($0)) } ?? .null
        case .lastWhere:
            let invoke = try function(arguments).unaryInvoker()
            return try elements.last { try Operators.truth(try invoke($0)) } ?? .null
        case .countWhere:
            let invoke = try function(arguments).unaryInvoker()
            return .int(try elements.reduce(0) { try Operators.truth(try invoke($1)) ? $0 + 1 : $0 })
        case .sorted:
            let comparator = try function(arguments).binaryInvoker()
            return .array(try elements.sorted { try Operators.truth(try comparator($0, $1)) })
        default:
            return try plain(method, receiver, arguments)
        }
    }

    // MARK: Higher-order, suspending

    private static func higherOrderAsync(_ method: Method, _ receiver: Value, _ arguments: [Value]) async throws -> Value {
        let elements = try Members.elements(of: receiver)
        let body = try function(arguments, method == .reduce ? 1 : 0)
        switch method {
        case .map, .compactMap, .mapValues:
            if method == .mapValues, case .dictionary(let entries) = receiver {
                var result: [String: Value] = [:]
                for key in entries.keys.sorted() { result[key] = try await body.callAsync([entries[key] ?? .null]) }
                return .dictionary(result)
            }
            var result: [Value] = []
            for element in elements {
                let mapped = try await body.callAsync([element])
                if method == .map || !mapped.isNull { result.append(mapped) }
            }
            return .array(result)
        case .filter, .firstWhere, .lastWhere, .countWhere, .allSatisfy, .contains:
            var kept: [Value] = []
            for element in elements where try Operators.truth(try await body.callAsync([element])) {
                kept.append(element)
                if method == .firstWhere || method == .contains { break }
            }
            switch method {
            case .firstWhere: return kept.first ?? .null
            case .lastWhere: return kept.last ?? .null
            case .countWhere: return .int(kept.count)
            case .contains: return .bool(!kept.isEmpty)
            case .allSatisfy: return .bool(kept.count == elements.count)
            default:
                if case .dictionary = receiver {
                    var result: [String: Value] = [:]
                    for case .record(let pair) in kept {
                        if case .string(let key) = pair.values[0] { result[key] = pair.values[1] }
                    }
                    return .dictionary(result)
                }
                return .array(kept)
            }
        case .reduce:
            var accumulator = arguments.first ?? .null
            for element in elements { accumulator = try await body.callAsync([accumulator, element]) }
            return accumulator
        case .forEach:
            for element in elements { _ = try await body.callAsync([element]) }
            return .void
        case .sorted:
            // Sorting with a suspending comparator: insertion into a sorted array by binary search.
            var sorted: [Value] = []
            for element in elements {
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
        default:
            return try plain(method, receiver, arguments)
        }
    }

    // MARK: Plain methods

    private static func plain(_ method: Method, _ receiver: Value, _ arguments: [Value]) throws -> Value {
        if case .string(let text) = receiver { return try stringMethod(method, text, arguments) }
        if case .null = receiver { throw ScriptFailure("cannot call '\(method.rawValue)' on nil") }
        let elements = try Members.elements(of: receiver)
        switch method {
        case .sorted:
            return .array(try elements.sorted(by: Operators.less))
        case .contains:
            return .bool(elements.contains(arguments.first ?? .null))
        case .prefix:
            return .array(Array(elements.prefix(try integer(arguments, default: 0))))
        case .suffix:
            return .array(Array(elements.suffix(try integer(arguments, default: 0))))
        case .dropFirst:
            return .array(Array(elements.dropFirst(try integer(arguments, default: 1))))
        case .dropLast:
            return .array(Array(elements.dropLast(try integer(arguments, default: 1))))
        case .reversed:
            return .array(elements.reversed())
        case .shuffled:
            return .array(elements.shuffled())
        case .randomElement:
            return elements.randomElement() ?? .null
        case .joined:
            let separator = try string(arguments, default: "")
            return .string(try elements.map { element -> String in
                switch element {
                case .string(let text): return text
                case .secret: return "••••"
                default: throw ScriptFailure("joined needs strings; found '\(ValueFormatter.typeName(element))'")
                }
            }.joined(separator: separator))
        case .min:
            return try elements.min(by: Operators.less) ?? .null
        case .max:
            return try elements.max(by: Operators.less) ?? .null
        case .enumerated:
            // Each element goes two levels down: into a record, in an array.
            try ScriptLimits.checkNesting(.array(elements))
            return .array(elements.enumerated().map { offset, element in
                .record(Record(type: enumeratedType, values: [.int(offset), element]))
            })
        default:
            throw ScriptFailure("'\(method.rawValue)' is not available on '\(ValueFormatter.typeName(receiver))'")
        }
    }

    static let enumeratedType = RecordType.tuple([.init("offset", .int), .init("element", .any)])

    private static func stringMethod(_ method: Method, _ text: String, _ arguments: [Value]) throws -> Value {
        switch method {
        case .uppercased: return .string(text.uppercased())
        case .lowercased: return .string(text.lowercased())
        case .hasPrefix: return .bool(text.hasPrefix(try string(arguments)))
        case .hasSuffix: return .bool(text.hasSuffix(try string(arguments)))
        case .contains:
            let needle = try string(arguments)
            return .bool(needle.isEmpty || text.contains(needle))
        case .split:
            let separator = try string(arguments)
            guard !separator.isEmpty else { throw ScriptFailure("the separator must not be empty") }
            return .array(text.split(separator: separator).map { .string(String($0)) })
        case .reversed: return .string(String(text.reversed()))
        case .prefix: return .string(String(text.prefix(try integer(arguments, default: 0))))
        case .suffix: return .string(String(text.suffix(try integer(arguments, default: 0))))
        case .dropFirst: return .string(String(text.dropFirst(try integer(arguments, default: 1))))
        case .dropLast: return .string(String(text.dropLast(try integer(arguments, default: 1))))
        case .trimmed:
            return .string(String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
        default:
            return try plain(method, .array(text.map { .string(String($0)) }), arguments)
        }
    }
}
