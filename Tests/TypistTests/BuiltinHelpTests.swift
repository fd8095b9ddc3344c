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
