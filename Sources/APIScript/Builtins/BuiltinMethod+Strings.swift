/// The methods of text.
extension BuiltinMethod {
    static let strings: [BuiltinMethod] = [
        text("uppercased", "uppercased() -> String", "The text in capitals.", example: "\"typist\".uppercased()") { text, _ in
            .string(text.uppercased())
        },
        text("lowercased", "lowercased() -> String", "The text in small letters.", example: "\"GET\".lowercased()") { text, _ in
            .string(text.lowercased())
        },
        text("hasPrefix", labels: [nil], "hasPrefix(_ prefix: String) -> Bool", "Whether the text starts with the argument.",
             example: "\"https://x\".hasPrefix(\"https\")", result: .bool) { text, arguments in
            .bool(text.hasPrefix(try MethodArguments.string(arguments)))
        },
        text("hasSuffix", labels: [nil], "hasSuffix(_ suffix: String) -> Bool", "Whether the text ends with the argument.",
             example: "\"a.json\".hasSuffix(\".json\")", result: .bool) { text, arguments in
            .bool(text.hasSuffix(try MethodArguments.string(arguments)))
        },
        text("split", labels: ["separator"], "split(separator: String) -> [String]",
             "The pieces between the separators, leaving out empty ones.",
             example: "\"a,b,,c\".split(separator: \",\")", result: .array(.string)) { text, arguments in
            let separator = try MethodArguments.string(arguments)
            guard !separator.isEmpty else { throw ScriptFailure("the separator must not be empty") }
            return .array(text.split(separator: separator).map { .string(String($0)) })
        },
        text("trimmingWhitespace", "trimmingWhitespace() -> String", "The text without spaces and newlines at either end.",
             example: "\"  hi \\n\".trimmingWhitespace()") { text, _ in
            .string(String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
        },
    ]

    /// A method of strings whose arguments, if any, are strings.
    private static func text(_ name: String, labels: [String?] = [], _ declaration: String, _ summary: String,
                             example: String, result: ScriptType = .string,
                             _ run: @escaping @Sendable (String, [Value]) throws -> Value) -> BuiltinMethod {
        BuiltinMethod(
            name, labels: [labels], on: .string, declaration, summary, example: example,
            type: { checker, call in
                for index in labels.indices { checker.methodArgument(call, index, .string) }
                return result
            },
            .plain { receiver, arguments in
                guard case .string(let text) = receiver else {
                    if case .null = receiver { throw ScriptFailure("cannot call '\(name)' on nil") }
                    throw ScriptFailure("'\(name)' is not available on '\(ValueFormatter.typeName(receiver))'")
                }
                return try run(text, arguments)
            })
    }
}
