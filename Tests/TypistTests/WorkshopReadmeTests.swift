import Foundation
import Testing
import TypistTesting

/// Workshop/README.md's commands, run verbatim by bash as an instructor or student types them: the
/// link onto the PATH, every `typist …` line. Only the release build itself is not run (the suite
/// has built `typist`); the link points at the suite's build, in a checkout laid out as the
/// README's (`.build/release/typist` with its modules beside it).
@Suite("Workshop/README.md, verbatim", .serialized)
struct WorkshopReadmeTests {
    /// The lines of the README's `sh` blocks.
    static func commands() throws -> [String] {
        let text = try String(contentsOf: Built.packageRoot.appendingPathComponent("Workshop/README.md"), encoding: .utf8)
        var lines: [String] = []
        var inShell = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = !inShell && line == "```sh"
                continue
            }
            if inShell, !line.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(String(line)) }
        }
        return lines
    }

    /// What each line must do: its exit status, and text its output must contain.
    static let expectations: [(prefix: String, status: Int32, says: String)] = [
        ("typist lesson 0 --plain", 0, "✓ every step held"),
        ("typist lesson 3 --plain --offline", 0, "✓ every step held"),
        ("typist lesson 3 --offline", 0, "Step 1 of 8"),
        ("typist lesson 0 --handout", 0, ""),
        ("typist lesson 0 --start", 0, "Edit design.swift and exercise.api"),
        ("typist lesson 0 --check ~/lesson-0 --format json", 1, "\"lesson\":0"),
        ("typist lesson 0 --check", 1, "✗ lesson 0: not yet"),
        ("typist lesson 0", 0, "Follows write-up 0"),
        ("typist lesson", 0, "follows write-up 4"),
        ("typist swift-check", 1, "✗ this compiles, but it is a misuse the types should refuse"),
    ]

    @Test("Every command in Workshop/README.md runs verbatim, in order, and does what the README says")
    func verbatim() async throws {
        let commands = try Self.commands()
        #expect(commands.contains { $0.hasPrefix("swift build -c release --product typist") })
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("typist-workshop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        let checkout = root.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent(".build"), withIntermediateDirectories: true)
        // The checkout's release folder is the suite's build folder: the binary and its modules.
        try FileManager.default.createSymbolicLink(at: checkout.appendingPathComponent(".build/release"),
                                                   withDestinationURL: try Built.executable("typist").deletingLastPathComponent())
        var ran = 0
        for command in commands where !command.hasPrefix("swift build") {
            let result = try await Self.bash(command, home: home, directory: checkout)
            ran += 1
            #expect(result.status != 64 && result.status != 127, "\(command): \(result.output)")
            if let expectation = Self.expectations.first(where: { command.hasPrefix($0.prefix) }) {
                #expect(result.status == expectation.status, "\(command): \(result.output)")
                #expect(expectation.says.isEmpty || result.output.contains(expectation.says), "\(command): \(result.output)")
            }
        }
        #expect(ran >= 8)
        let handout = try String(contentsOf: checkout.appendingPathComponent("lesson-0.md"), encoding: .utf8)
        #expect(handout.hasPrefix("# Lesson 0"))
    }

    /// Runs one line with bash, HOME and PATH as a fresh account has them plus `~/.local/bin`.
    static func bash(_ line: String, home: URL, directory: URL) async throws -> (status: Int32, output: String) {
        let path = home.path + "/.local/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await ProcessResult.run(["bash", "-c", line], directory: directory,
                                                 environment: ["HOME": home.path, "PATH": path, "XDG_CONFIG_HOME": home.path + "/.config"])
        return (result.status, result.output)
    }
}
