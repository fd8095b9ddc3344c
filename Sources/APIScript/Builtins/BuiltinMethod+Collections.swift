/// The methods that read a sequence's elements without a closure: order, slices, picks.
///
/// On a string, the slicing methods (`prefix`, `dropFirst`, `reversed` …) give a string.
extension BuiltinMethod {
    static let collections: [BuiltinMethod] = [
        BuiltinMethod(
            "sorted", labels: [[]], on: .sequences, "sorted() -> [Element]",
            "The elements in increasing order (numbers, strings, booleans).",
            example: "[3, 1, 2].sorted()",
            type: { checker, call in
                guard call.element.isComparable else {
                    return checker.rejectMethod(call, "'\(call.element)' values have no order; use sorted(by:)")
                }
                return .array(call.element)
            },
            .plain { receiver, _ in .array(try elements(receiver, "sorted").sorted(by: Operators.less)) }),
        BuiltinMethod(
            "contains", labels: [[nil]], on: [.array, .range, .string, .bytes], "contains(_ element: Element) -> Bool",
            "Whether an element equals the argument; on a string, whether the text occurs in it.",
            example: "[1, 2, 3].contains(2)",
            type: { checker, call in
                checker.methodArgument(call, 0, call.element)
                return .bool
            },
            .plain { receiver, arguments in
                if case .string(let text) = receiver {
                    let needle = try MethodArguments.string(arguments)
                    return .bool(needle.isEmpty || text.contains(needle))
                }
                return .bool(try elements(receiver, "contains").contains(arguments.first ?? .null))
            }),
        slice("prefix", labels: [[nil]], "prefix(_ maxLength: Int)", "The first elements, at most that many.",
              example: "posts().prefix(3)", default: 0,
              string: { String($0.prefix($1)) }, array: { Array($0.prefix($1)) },
              bytes: { Array($0.prefix($1)) }),
        slice("suffix", labels: [[nil]], "suffix(_ maxLength: Int)", "The last elements, at most that many.",
              example: "posts().suffix(2)", default: 0,
              string: { String($0.suffix($1)) }, array: { Array($0.suffix($1)) },
              bytes: { Array($0.suffix($1)) }),
        slice("dropFirst", labels: [[], [nil]], "dropFirst(_ k: Int = 1)", "All but the first k elements.",
              example: "\"#tag\".dropFirst()", default: 1,
              string: { String($0.dropFirst($1)) }, array: { Array($0.dropFirst($1)) },
              bytes: { Array($0.dropFirst($1)) }),
        slice("dropLast", labels: [[], [nil]], "dropLast(_ k: Int = 1)", "All but the last k elements.",
              example: "[1, 2, 3].dropLast()", default: 1,
              string: { String($0.dropLast($1)) }, array: { Array($0.dropLast($1)) },
              bytes: { Array($0.dropLast($1)) }),
        BuiltinMethod(
            "reversed", labels: [[]], on: [.array, .range, .string, .bytes], "reversed() -> Self",
            "The elements in reverse order; a string's characters reversed.",
            example: "(1...3).reversed()",
            type: { _, call in call.receiver == .string ? .string : .array(call.element) },
            .plain { receiver, _ in
                if case .string(let text) = receiver { return .string(String(text.reversed())) }
                return .array(try elements(receiver, "reversed").reversed())
            }),
        BuiltinMethod(
            "shuffled", labels: [[]], on: .sequences, "shuffled() -> [Element]", "The elements in a random order.",
            example: "[1, 2, 3].shuffled()",
            type: { _, call in .array(call.element) },
            .plain { receiver, _ in .array(try elements(receiver, "shuffled").shuffled()) }),
        BuiltinMethod(
            "randomElement", labels: [[]], on: .sequences, "randomElement() -> Element?",
            "One element chosen at random, or nil when there is none.",
            example: "posts().randomElement()?.title",
            type: { _, call in call.element.optional },
            .plain { receiver, _ in try elements(receiver, "randomElement").randomElement() ?? .null }),
        BuiltinMethod(
            "joined", labels: [[], ["separator"]], on: .sequences, "joined(separator: String = \"\") -> String",
            "The strings one after another, with the separator between them.",
            example: #"["a", "b"].joined(separator: ", ")"#,
            type: { checker, call in
                if !call.element.isDynamic, call.element != .string {
                    return checker.rejectMethod(call, "joined needs an array of String, not '\(call.receiver)'; map to strings first")
                }
                if !call.arguments.isEmpty { checker.methodArgument(call, 0, .string) }
                return .string
            },
            .plain { receiver, arguments in
                let separator = try MethodArguments.string(arguments, default: "")
                let texts = try elements(receiver, "joined").map { element -> String in
                    switch element {
                    case .string(let text): return text
                    case .secret: return "••••"
                    default: throw ScriptFailure("joined needs strings; found '\(ValueFormatter.typeName(element))'")
                    }
                }
                // Measured before it is made: the limit holds for the result, not only for each part.
                var bytes = separator.utf8.count * max(0, texts.count - 1)
                for text in texts {
                    bytes += text.utf8.count
                    try ScriptLimits.checkStringBytes(bytes)
                }
                try ScriptLimits.checkStringBytes(bytes)
                return .string(texts.joined(separator: separator))
            }),
        extreme("min", "The smallest element, or nil when there is none.", example: "[3, 1, 2].min()") {
            try $0.min(by: Operators.less)
        },
        extreme("max", "The largest element, or nil when there is none.", example: "posts().map(\\.id).max()") {
            try $0.max(by: Operators.less)
        },
        BuiltinMethod(
            "enumerated", labels: [[]], on: .sequences, "enumerated() -> [(offset: Int, element: Element)]",
            "Each element with its position, from 0.",
            example: "[\"a\", \"b\"].enumerated().map { \"\\($0.offset): \\($0.element)\" }",
            type: { _, call in
                .array(.record(RecordType.tuple([.init("offset", .int), .init("element", call.element)])))
            },
            .plain { receiver, _ in
                let elements = try elements(receiver, "enumerated")
                // Each element goes two levels down: into a record, in an array.
                try ScriptLimits.checkNesting(.array(elements))
                return .array(elements.enumerated().map { offset, element in
                    .record(Record(type: enumeratedType, values: [.int(offset), element]))
                })
            }),
    ]

    static let enumeratedType = RecordType.tuple([.init("offset", .int), .init("element", .any)])

    /// A plain method's elements; a string's characters as one-character strings.
    static func elements(_ receiver: Value, _ name: String) throws -> [Value] {
        if case .null = receiver { throw ScriptFailure("cannot call '\(name)' on nil") }
        return try Members.elements(of: receiver)
    }

    /// `prefix`, `suffix`, `dropFirst`, `dropLast`: a string from a string, bytes from bytes, an array
    /// otherwise.
    private static func slice(_ name: String, labels: [[String?]], _ declaration: String, _ summary: String,
                              example: String, default count: Int,
                              string: @escaping @Sendable (String, Int) -> String,
                              array: @escaping @Sendable ([Value], Int) -> [Value],
                              bytes byteSlice: @escaping @Sendable ([UInt8], Int) -> [UInt8]) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: labels, on: [.array, .range, .string, .bytes], declaration + " -> Self", summary, example: example,
            type: { checker, call in
                checker.methodCount(call)
                if call.receiver == .string || call.receiver == .bytes { return call.receiver }
                return .array(call.element)
            },
            .plain { receiver, arguments in
                let count = try MethodArguments.count(arguments, default: count)
                if case .string(let text) = receiver { return .string(string(text, count)) }
                if case .bytes(let bytes) = receiver { return .bytes(byteSlice(bytes, count)) }
                return .array(array(try elements(receiver, name), count))
            })
    }

    /// `min()` and `max()`.
    private static func extreme(_ name: String, _ summary: String, example: String,
                                _ pick: @escaping @Sendable ([Value]) throws -> Value?) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: [[]], on: .sequences, "\(name)() -> Element?", summary, example: example,
            type: { checker, call in
                guard call.element.isComparable else { return checker.rejectMethod(call, "'\(call.element)' values have no order") }
                return call.element.optional
            },
            .plain { receiver, _ in try pick(try elements(receiver, name)) ?? .null })
    }
}
