import DemoBindings
import DemoService
import Foundation
import Testing
import Typist

/// The README's examples, as written: its session transcript replayed input by input, its
/// commands run with their arguments, its script and its `typist.json` used verbatim (only the
/// demo service's port differs, since tests use ephemeral ports).
@Suite("The README, verbatim")
struct ReadmeVerbatimTests {
    static var readme: String {
        (try? String(contentsOf: Built.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }

    /// The fenced blocks of a section (`## Title`), with their info strings.
    @Test("The exit-status table lists every status typist ends with, each once, in order")
    func exitStatuses() throws {
        let start = try #require(Self.readme.range(of: "| exit status | meaning |\n| --- | --- |\n"))
        let codes = Self.readme[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("| ") }
            .map { $0.dropFirst(2).prefix { $0.isNumber } }.map { Int32($0) }
        #expect(codes == [ExitStatus.success, ExitStatus.failure, ExitStatus.usage, ExitStatus.dataError, ExitStatus.unavailable,
                          ExitStatus.software, ExitStatus.cannotWrite, ExitStatus.interrupted, ExitStatus.closedPipe,
                          ExitStatus.terminated])
    }

    static func blocks(in section: String) -> [(info: String, text: String)] {
        guard let start = readme.range(of: "\n## \(section)\n") else { return [] }
        let rest = readme[start.upperBound...]
        let body = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var blocks: [(String, String)] = []
        var current: [String]?
        var info = ""
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append((info, lines.joined(separator: "\n")))
                    current = nil
                } else {
                    info = String(line.dropFirst(3))
                    current = []
                }
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    @Test("The session transcript replays: each input gives the output shown, with the Swift bindings and with the service's OpenAPI document alone",
          arguments: [false, true])
    func sessionTranscript(fromDocument: Bool) async throws {
        let block = try #require(Self.blocks(in: "A session").first { $0.text.hasPrefix("$ swift run typist") }).text
        var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeFirst()  // $ swift run typist
        let banner = lines.removeFirst()
        let count = try DemoBindings.registry().endpoints.count
        #expect(banner.hasPrefix("typist \(TypistVersion.current) — \(count) endpoints at http://127.0.0.1:"), "\(banner)")
        var steps: [(input: String, expected: [String])] = []
        for line in lines {
            if line.hasPrefix("typist> ") { steps.append((String(line.dropFirst(8)), [])) } else { steps[steps.count - 1].expected.append(line) }
        }
        #expect(steps.count >= 6)
        try await withDemoShell(fromDocument: fromDocument) { shell, output, _ in
            #expect(shell.registry.endpoints.count == count)
            for step in steps {
                output.clear()
                await shell.handle(step.input)
                let actual = Built.normalized(output.all).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    .filter { !$0.isEmpty }
                let expected = step.expected.map(Built.normalized).filter { !$0.isEmpty }
                #expect(Self.matches(actual, expected), "\(step.input)\nexpected:\n\(expected.joined(separator: "\n"))\nactual:\n\(actual.joined(separator: "\n"))")
            }
        }
    }

    /// Whether `actual` has the `expected` lines, where an expected `…` stands for any lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            return (0...actual.count).contains { matches(Array(actual[$0...]), Array(expected.dropFirst())) }
        }
        guard let head = actual.first, head == first else { return false }
        return matches(Array(actual.dropFirst()), Array(expected.dropFirst()))
    }

    @Test("The script, the commands and typist.json of 'Scripts' run as written")
    func scriptsSection() async throws {
        let blocks = Self.blocks(in: "Scripts")
        let script = try #require(blocks.first { $0.info == "swift" }).text
        let commands = try #require(blocks.first { $0.info == "sh" }).text
        let configuration = try #require(blocks.first { $0.info == "json" }).text
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-readme-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The README's smoke.api beside the README's typist.json, pointed at this run's demo service.
        try script.write(to: directory.appendingPathComponent("smoke.api"), atomically: true, encoding: .utf8)
        let local = configuration.replacingOccurrences(of: #"http://127\.0\.0\.1:\d+"#, with: server.baseURL, options: .regularExpression)
        #expect(local != configuration, "the example configuration names a loopback base URL")
        try local.write(to: directory.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
        var ran = 0
        for line in commands.split(separator: "\n") where line.hasPrefix("swift run typist ") {
            let words = line.dropFirst("swift run typist ".count).split(separator: "#")[0].split(separator: " ").map(String.init)
            // Paths under Examples/ are the package's; others are the README's files, here.
            let inPackage = words.contains { $0.hasPrefix("Examples/") }
            let result = try await Built.run("typist", words, directory: inPackage ? Built.packageRoot : directory)
            #expect(result.status == 0, "\(line)\n\(result.error)")
            ran += 1
        }
        #expect(ran >= 3)
    }
}
