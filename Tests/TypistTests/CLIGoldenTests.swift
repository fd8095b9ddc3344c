import Foundation
import Testing

/// Scripts run by the built `typist` against the built-in demo service; each ends with its expected
/// exit status, standard output and standard error in comments:
///
/// ```
/// print(post(id: 1).id)
/// // ---- exit 0
/// // ---- stdout
/// // 1
/// // ---- stderr
/// ```
///
/// Ports are written as `PORT`. `TYPIST_UPDATE_GOLDEN=1` rewrites the expectations (then read the diff).
@Suite("CLI golden scripts")
struct CLIGoldenTests {
    static var directory: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts") }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".api") }.sorted()
    }

    @Test("Golden CLI script", arguments: CLIGoldenTests.names)
    func script(name: String) async throws {
        let url = Self.directory.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let script = text.components(separatedBy: "// ---- exit").first ?? text
        // Run from the scripts' folder by name, so diagnostics name it as given: `name.api:3:1`.
        let result = try await Built.run("typist", ["run", name], directory: Self.directory)
        let actual = Self.block(status: result.status, standard: Built.normalized(result.standard),
                                error: Built.normalized(result.error))
        if ProcessInfo.processInfo.environment["TYPIST_UPDATE_GOLDEN"] == "1" {
            try (script + actual).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(script + actual == text, "\(name)")
    }

    @Test("The corpus is there")
    func corpus() { #expect(Self.names.count >= 5) }

    static func block(status: Int32, standard: String, error: String) -> String {
        func comment(_ text: String) -> String {
            guard !text.isEmpty else { return "" }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "//" : "// \($0)" }
            if lines.last == "//" { lines.removeLast() }
            return lines.joined(separator: "\n") + "\n"
        }
        return "// ---- exit \(status)\n// ---- stdout\n" + comment(standard) + "// ---- stderr\n" + comment(error)
    }
}
