import Testing
@testable import APIScript
@testable import Typist
@testable import TypistCore

/// `:help` on the language's methods reads the method table; every example it shows runs.
@Suite("Help on built-in methods")
struct BuiltinHelpTests {
    @Test(":help map shows the declaration, the kinds of value and an example")
    func helpOnMap() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":help map")
            #expect(output.standard == """
                map<T>(_ transform: (Element) -> T) -> [T]   on Array, Range, Dictionary, Bytes
                  Each element transformed, in order; a dictionary gives its (key, value) pairs.
                  example: posts().map(\\.title)
                map<T>(_ transform: (Element) async throws -> T) -> AsyncThrowingStream<T, any Error>   on AsyncThrowingStream
                  Each item transformed as it arrives; nothing is read until the stream is.
                  example: events(count: 3).map(\\.status)

                """)
            output.clear()
            await shell.handle(":help count")
            #expect(output.standard.hasPrefix("count: Int — the number of elements"))
            #expect(output.standard.contains("count(where predicate: (Element) -> Bool) -> Int   on Array, Range"))
        }
    }

    @Test("Every example in the method table checks and runs against the demo service")
    func examplesRun() async throws {
        try await withDemoShell { shell, output, _ in
            _ = try await shell.evaluate("var ids = [1, 2, 3]; var queue = [1]; var stack = [1]")
            for method in BuiltinMethod.all + BuiltinMethod.streams {
                output.clear()
                do {
                    _ = try await shell.evaluate(method.example)
                } catch {
                    Issue.record("\(method.name): \(method.example) failed: \(error) \(output.error)")
                }
            }
        }
    }
}

/// `:help` itself: its table fits its column, it lists every session property, and it answers on
/// the topics a reader asks about and on a type's members.
@Suite(":help's overview, topics and types")
struct HelpOverviewTests {
    @Test("The commands' table: a usage wider than the column puts its summary on the next line")
    func commandColumn() async throws {
        // typist's own prompt, which has :openapi (its usage is the longest).
        let help = try await Built.run("typist", ["--no-color"], input: ":help\n")
        do {
            let lines = help.standard.split(separator: "\n", omittingEmptySubsequences: false)
            let openAPI = try #require(lines.firstIndex { $0.hasPrefix("  :openapi ") })
            // The usage alone on its line, the summary under the others' summaries.
            #expect(!lines[openAPI].contains("add an OpenAPI"), "\(lines[openAPI])")
            #expect(lines[openAPI + 1].hasPrefix(String(repeating: " ", count: 30) + "add an OpenAPI document"))
            let graphQL = try #require(lines.firstIndex { $0.hasPrefix("  :graphql ") })
            #expect(lines[graphQL + 1].hasPrefix(String(repeating: " ", count: 30) + "add a GraphQL service"))
            for line in lines where line.hasPrefix("  :") && line.count > 30 && !line.hasPrefix("  :openapi ") && !line.hasPrefix("  :graphql ") {
                #expect(line.dropFirst(28).hasPrefix("  ") && line.dropFirst(30).first != " ", "\(line)")
            }
        }
    }

    @Test("The session line lists every session property, settable or read-only as registered")
    func sessionProperties() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":help")
            let line = try #require(output.standard.split(separator: "\n").first { $0.hasPrefix("Session: ") })
            for name in Shell.sessionGlobalOrder where name != "_" {
                #expect(line.contains(name), "\(name) missing from \(line)")
            }
            #expect(line.contains("timeout, concurrency; read-only: response, last (_)"), "\(line)")
        }
    }

    @Test(":help pages, streams and cassette answer; :help String lists its members from the method table")
    func topicsAndMembers() async throws {
        try await withDemoShell { shell, output, _ in
            for (topic, expected) in [("pages", "pages(limit: 5)"), ("streams", "first, contains, allSatisfy, reduce"),
                                      ("cassette", "--record-mode once|new|none|all"), ("stream", "for try await event in"),
                                      ("language", "x as? String")] {
                output.clear()
                await shell.handle(":help \(topic)")
                #expect(output.standard.contains(expected), "\(topic): \(output.standard)")
                #expect(!output.standard.contains("no help on"))
            }
            output.clear()
            await shell.handle(":help String")
            #expect(output.standard.contains("properties: count, isEmpty, first, last"), "\(output.standard)")
            for method in ["hasPrefix(…)", "lowercased()", "split(…)"] { #expect(output.standard.contains(method), "\(method)") }
            output.clear()
            await shell.handle(":help Array")
            #expect(output.standard.contains("map(…)") && output.standard.contains("concurrentMap(…)"), "\(output.standard)")
            output.clear()
            await shell.handle(":help")
            #expect(output.standard.contains("topics: language, pages, streams, cassette"))
        }
    }
}
