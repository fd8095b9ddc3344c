import Foundation
import Testing
import TypistTesting

/// The phantom types' promises are compile-time promises, so these tests ask the compiler:
/// each snippet is type-checked against the built `TypedAPI` module.
@Suite("Compile-time guarantees")
struct CompileTimeGuaranteeTests {
    private static let prelude = """
        import Foundation
        import TypedAPI
        struct Post: Decodable, Sendable { var id: Int }
        extension Endpoint where Kind == Public, Response == Post {
            static func post(id: Int) -> Self { Endpoint(path: "/posts/\\(id)") }
        }
        extension Endpoint where Kind == Bearer, Response == [Post] {
            static var drafts: Self { Endpoint(path: "/drafts") }
        }

        """

    @Test("The well-typed calls compile")
    func control() async throws {
        let result = try await typecheck("""
            func run(_ client: APIClient, token: AccessToken) async throws {
                let post: Post = try await client.send(.post(id: 1))
                let drafts: [Post] = try await client.send(.drafts, with: token)
                try await client.send(Endpoint<Public, Void>(.delete, path: "/posts/1"))
                _ = (post, drafts)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    /// One misuse: the line that must not compile, the compiler's diagnostic for it, and the
    /// same line corrected, which must compile (so the misuse fails for the reason named).
    struct Misuse: CustomTestStringConvertible, Sendable {
        let what: String
        let code: String
        let diagnostic: String
        let corrected: String
        var testDescription: String { what }
    }

    static let misuses: [Misuse] = [
        Misuse(what: "a call site expecting another response type",
               code: "func run(_ c: APIClient) async throws { let s: String = try await c.send(Endpoint<Public, Post>.post(id: 1)); _ = s }",
               diagnostic: "error: cannot convert value of type 'Post' to specified type 'String'",
               corrected: "func run(_ c: APIClient) async throws { let s: Post = try await c.send(Endpoint<Public, Post>.post(id: 1)); _ = s }"),
        Misuse(what: "a bearer endpoint sent without a token",
               code: "func run(_ c: APIClient) async throws { _ = try await c.send(Endpoint<Bearer, [Post]>.drafts) }",
               diagnostic: "error: instance method 'send' requires the types 'AccessToken' and '()' be equivalent",
               corrected: "func run(_ c: APIClient, t: AccessToken) async throws { _ = try await c.send(Endpoint<Bearer, [Post]>.drafts, with: t) }"),
        Misuse(what: "a bearer endpoint sent with an API key instead of a token",
               code: "func run(_ c: APIClient) async throws { _ = try await c.send(Endpoint<Bearer, [Post]>.drafts, with: APIKeyCredential(value: \"k\")) }",
               diagnostic: "error: cannot convert value of type 'APIKeyCredential' to expected argument type 'AccessToken'",
               corrected: "func run(_ c: APIClient) async throws { _ = try await c.send(Endpoint<Bearer, [Post]>.drafts, with: AccessToken(\"t\")) }"),
        Misuse(what: "a GET with a body", code: "let m = HTTPMethod.get(.text(\"body\"))",
               diagnostic: "error: 'get(_:query:)' is unavailable: a GET carries no body: put the values in the query (.get(query: [URLQueryItem(name:value:)])), or send the body with .post, .put or .patch",
               corrected: "let m = HTTPMethod.get(query: [])"),
        Misuse(what: "a HEAD with a body", code: "let m = HTTPMethod.head(.text(\"body\"))",
               diagnostic: "error: 'head(_:query:)' is unavailable: a HEAD carries no body: put the values in the query (.head(query: …))",
               corrected: "let m = HTTPMethod.head(query: [])"),
        Misuse(what: "a DELETE with a body", code: "let m = HTTPMethod.delete(RequestBody.text(\"body\"))",
               diagnostic: "error: 'delete(_:query:)' is unavailable: a DELETE carries no body: say what to delete in the path or the query (.delete(query: …))",
               corrected: "let m: HTTPMethod = .delete"),
        // Written where an endpoint takes its method, the form the write-ups use: the compiler
        // once answered "cannot call value of non-function type 'HTTPMethod'" (the `delete` property).
        Misuse(what: "a DELETE with a body, in an endpoint", code: "let e = Endpoint<Public, Post>(.delete(.text(\"body\")), path: \"/posts/1\")",
               diagnostic: "error: 'delete(_:query:)' is unavailable: a DELETE carries no body: say what to delete in the path or the query (.delete(query: …))",
               corrected: "let e = Endpoint<Public, Post>(.delete, path: \"/posts/1\")"),
        Misuse(what: "a GET with a body, in an endpoint", code: "let e = Endpoint<Public, Post>(.get(.text(\"body\")), path: \"/posts/1\")",
               diagnostic: "error: 'get(_:query:)' is unavailable: a GET carries no body: put the values in the query (.get(query: [URLQueryItem(name:value:)])), or send the body with .post, .put or .patch",
               corrected: "let e = Endpoint<Public, Post>(.get(), path: \"/posts/1\")"),
        Misuse(what: "a POST without a body", code: "let m = HTTPMethod.post(query: [])",
               diagnostic: "error: missing argument for parameter #1 in call",
               corrected: "let m = HTTPMethod.post(.text(\"body\"), query: [])"),
    ]

    @Test("Misuse does not compile, on its own line, for the reason named; corrected, it compiles", arguments: misuses)
    func misuse(_ misuse: Misuse) async throws {
        let line = Self.prelude.split(separator: "\n", omittingEmptySubsequences: false).count
        let result = try await typecheck(misuse.code)
        #expect(result.status != 0, "\(misuse.what) compiled")
        let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("/") && $0.contains(": error: ") }
        let first = try #require(errors.first, "\(result.output)")
        #expect(first.contains("snippet.swift:\(line):"), "\(first)")
        #expect(first.hasSuffix(misuse.diagnostic), "\(first)")
        let corrected = try await typecheck(misuse.corrected)
        #expect(corrected.status == 0, "\(corrected.output)")
    }

    private func typecheck(_ code: String) async throws -> (status: Int32, output: String) {
        let modules = try Self.modulesDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        try (Self.prelude + code + "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try await ProcessResult.run(["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, file.path])
        return (result.status, result.output)
    }

    /// The build's module directory, beside the test bundle.
    private static func modulesDirectory() throws -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("TypedAPI.swiftmodule").path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        throw ModulesNotFound(near: executable.path)
    }

    private struct ModulesNotFound: Error, CustomStringConvertible {
        let near: String
        var description: String { "no Modules/TypedAPI.swiftmodule near \(near)" }
    }
}
