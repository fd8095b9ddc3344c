import APIScript
import Foundation
import Testing

/// One small script per behaviour under `Golden/`, with what it prints and reports written as
/// comments at its end:
///
/// ```
/// print(1 + 2)
/// // ---- expected
/// // 3
/// ```
///
/// Set `TYPIST_UPDATE_GOLDEN=1` to rewrite the expectations from the current behaviour (then read
/// the diff: an expectation is a claim about what is right).
@Suite("Golden scripts")
struct GoldenTests {
    static let marker = "// ---- expected"

    static var files: [URL] {
        guard let directory = Bundle.module.url(forResource: "Golden", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".api") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("The corpus is there")
    func corpusExists() {
        #expect(Self.files.count >= 40)
    }

    @Test("Golden script", arguments: GoldenTests.files.map(\.lastPathComponent))
    func golden(name: String) async throws {
        let url = try #require(Self.files.first { $0.lastPathComponent == name })
        let text = try String(contentsOf: url, encoding: .utf8)
        let (script, expected) = Self.split(text)
        let actual = try await Self.run(name: name, text: text)
        if ProcessInfo.processInfo.environment["TYPIST_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Golden").appendingPathComponent(name)
            let block = actual.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "//" : "// \($0)" }.joined(separator: "\n")
            try (script + Self.marker + "\n" + block + "\n").write(to: source, atomically: true, encoding: .utf8)
            return
        }
        #expect(actual == expected, "\(name)")
    }

    /// Runs a script the way `typist run` does: check, then run; output and diagnostics together.
    static func run(name: String, text: String) async throws -> String {
        let output = OutputBuffer()
        let interpreter = try TestHost.interpreter(output: output)
        let source = ScriptSource(name: name, text: text)
        let result = await interpreter.evaluate(source)
        var lines = output.text
        for diagnostic in result.diagnostics {
            if !lines.isEmpty, !lines.hasSuffix("\n") { lines += "\n" }
            lines += DiagnosticRenderer().render(diagnostic) + "\n"
        }
        while lines.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// The script and its expectation block (comment markers removed).
    static func split(_ text: String) -> (script: String, expected: String) {
        guard let range = text.range(of: marker) else { return (text, "") }
        let block = text[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst()
            .map { line -> String in
                if line == "//" { return "" }
                return line.hasPrefix("// ") ? String(line.dropFirst(3)) : String(line)
            }
        var expected = block.joined(separator: "\n")
        while expected.hasSuffix("\n") { expected.removeLast() }
        return (String(text[..<range.lowerBound]), expected)
    }
}
