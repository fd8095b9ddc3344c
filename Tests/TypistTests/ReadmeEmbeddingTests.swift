import Foundation
import Testing
import TypistTesting

/// The README's embedding example, as an outside host would write it: its code type-checks
/// against the built modules with `import Typist` alone, and its `Package.swift` is a valid
/// manifest naming the products it needs.
@Suite("The README's embedding example")
struct ReadmeEmbeddingTests {
    static var blocks: [(info: String, text: String)] {
        ReadmeVerbatimTests.blocks(in: "Embedding: your endpoints, the same shell")
    }

    @Test("The host's code type-checks against the built Typist, importing nothing else of ours")
    func code() async throws {
        let code = try #require(Self.blocks.first { $0.info == "swift" && $0.text.contains("ShellCommandLine.main") }).text
        #expect(!code.contains("import TypedAPI"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.typecheck(code, in: directory)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("Its twelve-optional-parameter registration type-checks, as written, within a tenth of the type checker's budget")
    func twelveOptionalParameters() async throws {
        // The budget counts the solver's scopes (not seconds); 1,000,000 is where Swift gives up.
        // The same query as the closure's only expression does not type-check within it.
        let code = try #require(Self.blocks.first { $0.info == "swift" && $0.text.contains(#"Register("search""#) }).text
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.typecheck(code, in: directory, budget: 100_000)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("Registering an endpoint made with .includingResponse() is a compile error that says what to do")
    func includingResponse() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let code = """
            import Typist
            struct Article: Decodable, Sendable { let id: Int }
            let registry = try EndpointRegistry {
                Register("article", Parameter<Int>("number")) { number in
                    Endpoint<Public, Article>(path: "/posts/\\(number)").includingResponse()
                }
            }
            """
        let result = try await Self.typecheck(code, in: directory)
        #expect(result.status != 0)
        #expect(result.output.contains("main.swift:4:5: error: 'init(_:summary:_:file:line:endpoint:)' is unavailable: register the endpoint without .includingResponse()"),
                "\(result.output)")
        // Without it, the same registration compiles.
        let fine = try await Self.typecheck(code.replacingOccurrences(of: ".includingResponse()", with: ""), in: directory)
        #expect(fine.status == 0, "\(fine.output)")
    }

    /// Type-checks `code` as `main.swift` against the built modules; Typist's C modules are
    /// found through their module maps, as SwiftPM finds them. `budget`: the type checker's
    /// solver-scope limit, when not its default.
    static func typecheck(_ code: String, in directory: URL, budget: Int? = nil) async throws -> (status: Int32, output: String) {
        let file = directory.appendingPathComponent("main.swift")
        try code.write(to: file, atomically: true, encoding: .utf8)
        let maps = ["CReadline", "CTypistPlatform"].flatMap { name in
            ["-Xcc", "-fmodule-map-file=" + Built.packageRoot.appendingPathComponent("Sources/\(name)/module.modulemap").path]
        }
        let limit = budget.map { ["-Xfrontend", "-solver-scope-threshold=\($0)"] } ?? []
        return try await run(["swiftc", "-typecheck", "-swift-version", "6", "-I", try modules().path] + maps + limit + [file.path])
    }

    @Test("Its Package.swift is a manifest SwiftPM reads, with the Typist and TypistCurl products")
    func manifest() async throws {
        let manifest = try #require(Self.blocks.first { $0.info == "swift" && $0.text.hasPrefix("// swift-tools-version") }).text
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-host-\(UUID().uuidString)")
        let sources = directory.appendingPathComponent("ReadingShell/Sources/reading")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try manifest.write(to: directory.appendingPathComponent("ReadingShell/Package.swift"), atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let finished = try await ProcessResult.run(["swift", "package", "--package-path", directory.appendingPathComponent("ReadingShell").path, "dump-package"],
                                                   environment: try HostResolutionTests.ownTemporaryFolder(in: directory))
        let result = (status: finished.status, output: finished.output)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\"TypistCurl\"") && result.output.contains("\"reading\""), "\(result.output)")
    }

    /// Runs a command on a thread of its own (a compiler run holds no concurrency-pool thread).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await ProcessResult.run(arguments)
        return (result.status, result.output)
    }

    /// The build's module directory, beside the test bundle.
    static func modules() throws -> URL {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Typist.swiftmodule").path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        throw Built.MissingExecutable(name: "Modules/Typist.swiftmodule")
    }
}
