@testable import APIScript
import Foundation
import Testing

/// Built-in methods are declared once, in `BuiltinMethod`'s table: the checker, the runtime,
/// completion and help all read it.
@Suite("Built-in method table")
struct BuiltinMethodTableTests {
    @Test("Completion offers, per kind of value, exactly its properties and the table's methods for it")
    func completionReadsTheTable() throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        for (literal, kind) in [("[1, 2]", Receivers.array), ("(0..<3)", .range), ("\"abc\"", .string), ("[\"a\": 1]", .dictionary)] {
            let line = literal + "."
            let offered = Set(interpreter.completions(for: line, cursor: line.utf8.count).candidates)
            let methods = Set(BuiltinMethod.all.filter { $0.receivers.contains(kind) }.map(\.name))
            let properties = Set(Property.allCases.filter { $0.receivers.contains(kind) }.map(\.rawValue))
            #expect(offered == methods.union(properties), "\(literal)")
        }
        // Spot checks, so the test does not only compare the table with itself.
        let onStrings = interpreter.completions(for: "\"x\".", cursor: 4).candidates
        #expect(onStrings.contains("uppercased") && onStrings.contains("split") && !onStrings.contains("map"))
        let onRanges = interpreter.completions(for: "(0..<3).", cursor: 8).candidates
        #expect(onRanges.contains("lowerBound") && onRanges.contains("sorted") && !onRanges.contains("append"))
    }

    @Test("Each spelling answers to one method, and every method says where it works, what it does and how")
    func rowsAreComplete() {
        #expect(BuiltinMethod.byKey.count == BuiltinMethod.all.reduce(0) { $0 + $1.labelings.count })
        #expect(BuiltinMethod.streamsByKey.count == BuiltinMethod.streams.reduce(0) { $0 + $1.labelings.count })
        #expect(BuiltinMethod.streams.allSatisfy { $0.receivers == .stream })
        for method in BuiltinMethod.all + BuiltinMethod.streams {
            #expect(!method.receivers.isEmpty && !method.summary.isEmpty && method.example.contains(method.name), "\(method.name)")
            #expect(method.declaration.hasPrefix(method.name), "\(method.name)")
        }
    }

    @Test("Help text for a method lists every spelling with its receivers and example")
    func help() throws {
        let help = try #require(BuiltinHelp.text(for: "contains"))
        #expect(help == """
            contains(where predicate: (Element) -> Bool) -> Bool   on Array, Range, Dictionary, Bytes
              Whether the closure accepts some element.
              example: posts().contains { $0.userId == 2 }
            contains(_ element: Element) -> Bool   on Array, Range, String, Bytes
              Whether an element equals the argument; on a string, whether the text occurs in it.
              example: [1, 2, 3].contains(2)
            contains(where predicate: (Element) async throws -> Bool) async throws -> Bool   on AsyncThrowingStream
              Reads until an item the closure accepts: true then, false when the stream ends first.
              example: events(count: 5).contains { $0.n == 4 }
            """)
        #expect(BuiltinHelp.text(for: "first")?.hasPrefix("first: Element? — the first element, or nil when empty   on Array, String, Bytes\nfirst(where") == true)
        #expect(BuiltinHelp.text(for: "nosuchmethod") == nil)
        #expect(BuiltinHelp.topics.contains("map") && BuiltinHelp.topics.contains("print") && BuiltinHelp.topics.contains("count"))
    }

    @Test("A trailing closure picks the spelling that takes one, as in Swift", arguments: [
        ("[1, 2, 3].contains { $0 > 2 }", Value.bool(true)),
        ("[1, 2, 3].contains(2)", .bool(true)),
        ("[3, 1, 2].sorted { $0 > $1 }", .array([.int(3), .int(2), .int(1)])),
        ("[3, 1, 2].sorted()", .array([.int(1), .int(2), .int(3)])),
        ("json(\"[1, 5]\").contains { $0 == 5 }", .bool(true)),
        ("(0..<10).count { $0 % 3 == 0 }", .int(4)),
        ("[\"b\": 2, \"a\": 1].contains { $0.value == 2 }", .bool(true)),
    ])
    func trailingClosures(source: String, expected: Value) async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        #expect(try await interpreter.evaluate(source) == expected)
    }

    @Test("A method on a kind it is not offered on is refused with what that kind has", arguments: [
        ("(0..<3).append(1)", "value of type 'Range<Int>' has no member 'append'"),
        ("\"abc\".sorted()", "value of type 'String' has no member 'sorted'"),
        ("[1].dropFirst(1, 2)", "no 'dropFirst' on '[Int]' takes (_:_:)"),
    ])
    func refused(source: String, message: String) throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let diagnostics = interpreter.check(ScriptSource(name: "t.api", text: source), isPrompt: true)
        #expect(diagnostics.first?.message == message, "\(diagnostics.map { $0.message })")
    }
}

@Suite("The language reference lists the built-ins")
struct LanguageReferenceTests {
    @Test("Every method and property in the tables is named in Docs/Language.md")
    func everyMethodIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("Docs/Language.md"), encoding: .utf8)
        let section = try #require(reference.range(of: "## Built-ins")).upperBound
        let builtins = String(reference[section...])
        for name in Set((BuiltinMethod.all + BuiltinMethod.streams).map(\.name) + Property.allCases.map(\.rawValue)) {
            #expect(builtins.contains("`\(name)"), "Docs/Language.md does not mention \(name)")
        }
    }
}
