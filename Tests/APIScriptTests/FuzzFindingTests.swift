@testable import APIScript
import Foundation
import Testing

/// Every input `Scripts/fuzz` has found, kept as it was found (in `FuzzFindings/`), run through
/// everything the harness does — and each one's smallest form, named after what it broke.
@Suite("Fuzz findings")
struct FuzzFindingTests {
    static var findings: [URL] {
        guard let directory = Bundle.module.url(forResource: "FuzzFindings", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("Each finding goes through check, completion at every 97th place, and evaluation within a step limit",
          arguments: findings)
    func finding(_ url: URL) async throws {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        interpreter.stepLimit = 20_000
        let source = ScriptSource(name: url.lastPathComponent, text: text)
        _ = DiagnosticRenderer().render(interpreter.check(source, isPrompt: true))
        for cursor in stride(from: 0, through: text.utf8.count, by: 97) + [text.utf8.count, text.utf8.count / 2] {
            _ = interpreter.completions(for: text, cursor: cursor)
        }
        _ = await interpreter.evaluate(source, isPrompt: true)
    }

    @Test("Completion inside a closure does not read the closure's variables as the prompt's")
    func completionInsideClosure() throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        for text in [#"["{}"].map { s in json(s)."#, #"["{}"].map { json($0)."#,
                     #"let f = { (t: String) -> Int in let v = json(t); return v."#,
                     #"func g(_ t: String) -> Int { json(t)."#,
                     // Declarations and errors in the input: nothing is compiled for a value.
                     #"var q = 1; json({ () -> String in q = 2; return "{}" }())."#,
                     #"json({ () -> String in undefinedName = 2; return "{}" }())."#,
                     #"let r = 1; r = 2; json("{}")."#] {
            #expect(interpreter.completions(for: text, cursor: text.utf8.count).candidates.isEmpty, "\(text)")
        }
        // At the prompt's own level the value is still read.
        let top = #"json("{\"total\": 1}")."#
        #expect(interpreter.completions(for: top, cursor: top.utf8.count).candidates == ["count", "isEmpty", "keys", "total", "values"])
    }
}

/// The checker's work stays linear in the input where inputs repeat a construct.
@Suite("Checker work")
struct CheckerWorkTests {
    private func expressionsChecked(_ text: String) -> Int {
        let source = ScriptSource(name: "work.api", text: text)
        let (statements, _) = Parser.parse(source)
        var checker = Checker(source: source, globals: GlobalTable(), isPrompt: true)
        checker.check(statements)
        return checker.expressionsChecked
    }

    @Test("An assignment to a long chain checks each link once (it re-checked the rest of the chain per link)",
          arguments: [40, 120])
    func assignmentChain(links: Int) {
        let chain = "var d: [String: Any] = [:]\nd" + String(repeating: ".m { $0 }", count: links / 2)
            + String(repeating: "[\"k\"]", count: links / 2) + " = 1"
        let checked = expressionsChecked(chain)
        // A few checks per link (the subscript's key, the closure's body), never per link squared.
        #expect(checked > links && checked < 8 * links, "\(checked) expression checks for \(links) links")
    }

    @Test("Reduces nested in each other's closures are not each checked twice per level (2^depth work)",
          arguments: [8, 16])
    func nestedReduces(depth: Int) {
        // The innermost Double makes every level try Int, then Double.
        let text = String(repeating: "[1].reduce(0) { a, x in a + ", count: depth) + "1.5" + String(repeating: " }", count: depth)
        let checked = expressionsChecked(text)
        // Quadratic in the depth at most (it was 2^depth: 65,536 passes for 16 levels).
        #expect(checked < 12 * depth * depth, "\(checked) expression checks for \(depth) nested reduces")
    }

    @Test("A nested reduce still takes Double from its closure, as in Swift")
    func nestedReduceTypes() {
        let source = ScriptSource(name: "types.api", text: """
            let prices = [1.5, 2.0]
            let total = [1, 2].reduce(0) { sum, n in sum + prices.reduce(0) { $0 + $1 } }
            """)
        let (statements, _) = Parser.parse(source)
        var checker = Checker(source: source, globals: GlobalTable(), isPrompt: true)
        checker.check(statements)
        #expect(checker.diagnostics.isEmpty, "\(checker.diagnostics.map { $0.message })")
    }
}
