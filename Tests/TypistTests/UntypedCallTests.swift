import APIScript
import DemoBindings
import DemoService
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore

/// The untyped calls against the demo service (offline), and beside a host's own endpoints.
@Suite("Untyped calls")
struct UntypedCallTests {
    @Test("An untyped GET reads what the typed endpoint reads; a 404 is an answer; :help names them")
    func demo() async throws {
        try await withDemoShell { shell, output, _ in
            let typed = try await shell.evaluate("post(id: 1).title")
            #expect(try await shell.evaluate(#"httpGet("/posts/1").json.title"#) == typed)
            #expect(try await shell.evaluate(#"httpGet("/posts/999").status"#) == .int(404))
            #expect(try await shell.evaluate(#"httpGet("/posts/1").headers["content-type"]"#) == .string("application/json; charset=utf-8"))
            output.clear()
            await shell.handle(":help httpPost")
            #expect(output.standard.contains("httpPost(_ path: String, query: [String: String] = [:], headers: [String: String] = [:], json: Any = nil, form: [String: Any]? = nil, multipart: [String: Any]? = nil, crossOrigin: Bool = false) -> HTTPResult"),
                    "\(output.standard)")
            output.clear()
            await shell.handle(":help httpStream")
            #expect(output.standard.hasPrefix("httpStream(_ path: String, query: [String: String] = [:], headers: [String: String] = [:], crossOrigin: Bool = false) -> AsyncThrowingStream<Any, any Error>\n"),
                    "\(output.standard)")
            // Its type is checked as a stream's: read without `try await`, it is an error before anything is sent.
            #expect(shell.check(ScriptSource(name: "s.api", text: #"for e in httpStream("/events") { print(e) }"#)).count == 1)
        }
    }

    @Test("A host's own endpoint named like an untyped call keeps its name")
    func hostNameWins() async throws {
        struct Thing: Decodable, Sendable { var id: Int }
        let registry = try EndpointRegistry {
            Group("Things") { Register("httpGet", summary: "The host's own") { Endpoint<Public, Thing>(path: "/thing") } }
        }
        let transport = InMemoryTransport(json: #"{"id": 7}"#)
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: transport, output: CapturedOutput().shellOutput)
        #expect(try await shell.evaluate("httpGet().id") == .int(7))
        #expect(try await shell.evaluate(#"httpPost("/x").status"#) == .int(200))
    }

    @Test(":curl shows a call made for each element of an answer once, and says so; independent calls get no such note")
    func perElementPreview() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":curl posts().prefix(2).map { comments(postId: $0.id) }")
            #expect(output.standard.contains("# 2 requests, in the order the expression sends them\n# a call made for each element of an answer is shown once"),
                    "\(output.standard)")
            #expect(output.standard.contains("/posts/0/comments"), "\(output.standard)")
            output.clear()
            await shell.handle(":curl [post(id: 1), post(id: 2)]")
            #expect(output.standard.contains("# 2 requests") && !output.standard.contains("for each element"), "\(output.standard)")
        }
    }

    @Test(":swift of untyped calls declares an endpoint for each, and the Swift type-checks against the built TypedAPI")
    func swiftDeclarations() async throws {
        let server = try await DemoServer.start()
        let output = CapturedOutput()
        let shell = try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: server.baseURL),
                              transport: URLSessionTransport(), output: output.shellOutput)
        await shell.handle("token = \"t0k3n\"")
        output.clear()
        let handled = await shell.handle(#":swift [httpGet("/v1/visits", query: ["a": "1 \"x\""], headers: ["X-Trace": "t"]).status, httpPost("/posts", json: ["title": "t", "userId": 1]).status]"#)
        await server.stop()
        #expect(handled)
        let code = output.standard
        #expect(code.contains("extension Endpoint where Kind == Bearer, Response == Data {"), "\(code)")
        #expect(code.contains("static var visits: Self"), "\(code)")
        #expect(code.contains("static var postPosts: Self"), "\(code)")
        #expect(code.contains("let data2: Data = try await client.send(.postPosts, with: AccessToken(\"…\"))"), "\(code)")
        #expect(!code.contains("t0k3n"))
        let result = try await withTemporaryFolder("typist-swift") { folder in
            try await ReadmeEmbeddingTests.typecheck(code, in: folder)
        }
        #expect(result.status == 0, "\(result.output)\n\(code)")
    }
}
