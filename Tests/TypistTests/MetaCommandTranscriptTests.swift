import Foundation
import Testing
@testable import Typist
@testable import TypistCore
import TypistWorkshop

/// The meta commands' whole output, compared with a transcript: each `=== input` is handled in
/// one demo session, and what it wrote (standard output, errors, whether it succeeded) must match
/// the transcript exactly — after the server's address becomes `BASE`, and a response's time and
/// `Date` header are blanked.
///
/// `TYPIST_RECORD_TRANSCRIPTS=1 swift test --filter MetaCommandTranscript` rewrites the file from
/// what the shell prints; review the diff before committing it.
@Suite("Meta command transcript")
struct MetaCommandTranscriptTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Transcripts/meta-commands.txt")

    @Test("Every meta command prints exactly what the transcript shows")
    func transcript() async throws {
        let expected = try String(contentsOf: Self.file, encoding: .utf8)
        let inputs = expected.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("=== ") }.map { String($0.dropFirst(4)) }
        #expect(inputs.count > 30)
        let actual = try await withDemoShell(environments: { base in
            [NamedEnvironment(name: "local", baseURL: base, variables: ["who": "ada"]),
             NamedEnvironment(name: "nowhere", baseURL: "http://127.0.0.1:9")]
        }) { shell, output, server in
            // typist's own prompt: the workshop's commands are in its :help.
            Workshop.install(on: shell, lessons: nil)
            var text = ""
            for input in inputs {
                output.clear()
                let succeeded = await shell.handle(input)
                text += "=== \(input)\n--- \(succeeded ? "ok" : "failed")\n\(output.standard)--- errors\n\(output.error)"
            }
            return Self.normalized(text, base: server.baseURL)
        }
        if ProcessInfo.processInfo.environment["TYPIST_RECORD_TRANSCRIPTS"] == "1" {
            try actual.write(to: Self.file, atomically: true, encoding: .utf8)
            return
        }
        if actual != expected {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("meta-commands.actual.txt")
            try actual.write(to: path, atomically: true, encoding: .utf8)
            Issue.record("the output differs from Transcripts/meta-commands.txt; see diff -u with \(path.path)")
        }
    }

    static func normalized(_ text: String, base: String) -> String {
        var text = text.replacingOccurrences(of: base, with: "BASE")
        text = text.replacingOccurrences(of: #"\(\d+(\.\d+)? ms\)"#, with: "(… ms)", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(?m)^Date: .*$"#, with: "Date: …", options: .regularExpression)
        return text
    }
}
