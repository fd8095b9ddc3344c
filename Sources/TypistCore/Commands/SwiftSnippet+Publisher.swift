import APIScript
import Foundation

/// `:swift --publisher`: write-up 1's Combine form of a prompt line — its one endpoint call as
/// `client.publisher(for:)` (a stream's as `publisher(streaming:)`), what the line does with the
/// answer as the pipeline's operators, and a subscriber that prints what arrives.
extension SwiftSnippet {
    /// What a line must be to be written as a publisher.
    static let publisherShape = "one endpoint call and what follows it, such as searchRepositories(query: \"swift\").items.count"

    func publisherParts(for text: String) -> Result<Parts, SwiftTranslationFailure> {
        parts(for: text, isPrompt: true).flatMap { parts in
            guard parts.body.count == 1, let line = parts.body.first, let shape = Self.shape(of: line) else {
                return .failure(SwiftTranslationFailure(message: ":swift --publisher takes \(Self.publisherShape)", diagnostics: []))
            }
            var body: [String]
            switch shape {
            case .stream(let call, let rest):
                // A stream's publisher has the same operators as the stream.
                body = ["let cancellable = client.publisher(streaming: \(call))" + rest]
            case .response(let call, let use):
                body = ["let cancellable = client.publisher(for: \(call))"]
                if use != "response" { body.append("    .map { response in \(use) }") }
            }
            body += [
                "    .sink(receiveCompletion: { completion in",
                "        if case .failure(let error) = completion { print(\"failed:\", error) }",
                "    }, receiveValue: { value in",
                "        print(value)",
                "    })",
            ]
            var result = parts
            result.imports += ["import TypedAPICombine", "#if canImport(Combine)", "import Combine", "#else", "import OpenCombine", "#endif"]
            result.body = body
            return .success(result)
        }
    }

    /// How a line's one call becomes a publisher.
    enum Shape {
        /// `client.stream(call)rest`: the stream's operators, on its publisher.
        case stream(call: String, rest: String)
        /// `… try await client.send(call) …`: what the line makes of the answer, `response`.
        case response(call: String, use: String)
    }

    /// The shape of `let result… = EXPRESSION`, whose one call is `try await client.send(…)` or
    /// a `client.stream(…)` the rest of the line reads as a stream; nil for anything else.
    static func shape(of line: String) -> Shape? {
        guard line.hasPrefix("let result"), let equals = line.range(of: " = ") else { return nil }
        let expression = line[equals.upperBound...]
        guard expression.ranges(of: "client.").count == 1 else { return nil }
        for (prefix, streams) in [("client.stream(", true), ("try await client.stream(", true), ("try await client.send(", false)] {
            guard let found = expression.range(of: prefix) else { continue }
            guard let close = closingParenthesis(in: expression, from: found.upperBound) else { return nil }
            let call = String(expression[found.upperBound..<close])
            let before = expression[..<found.lowerBound]
            let after = expression[expression.index(after: close)...]
            if streams {
                // Only a stream read by what follows it: its operators are the publisher's.
                guard before.isEmpty || before == "try await ", !after.contains("await ") else { return nil }
                return .stream(call: call, rest: String(after))
            }
            let use = before + "response" + after
            guard !use.contains("await ") else { return nil }
            return .response(call: call, use: String(use))
        }
        return nil
    }

    /// The parenthesis that closes the one opened just before `start`, skipping string literals.
    private static func closingParenthesis(in text: Substring, from start: Substring.Index) -> Substring.Index? {
        var depth = 1
        var inString = false
        var escaped = false
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }
}
