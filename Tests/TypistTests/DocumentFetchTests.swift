import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import Typist
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// Fetching a document by URL as services serve them: behind a credential (`--openapi-auth`,
/// `:openapi … --auth`), sent to the document's origin and never past a redirect to another, and
/// refused once it grows past the limit, not after all of it has been held.
@Suite("Fetching a document")
struct DocumentFetchTests {
    private static let document = """
        openapi: 3.0.3
        info: {title: Guarded, version: "1"}
        paths:
          /ping:
            get:
              operationId: ping
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: string}}}}
        """
    private static let password = "doc-pass+/=9"

    /// A server that answers the document only with HTTP Basic `ada` and the test's password.
    private static func guarded() throws -> FaultServer {
        let expected = "Authorization: " + BasicCredentials(username: "ada", password: password).authorization
        return try FaultServer { connection in
            if connection.requestHead.split(separator: "\r\n").contains(where: { $0 == expected }) {
                try connection.respond(headers: ["Content-Type: application/yaml"], body: Array(document.utf8))
            } else {
                try connection.respond(status: "401 Unauthorized", headers: [#"WWW-Authenticate: Basic realm="docs""#], body: [])
            }
        }
    }

    @Test("--openapi-auth basic:USER fetches a guarded document with $TYPIST_PASSWORD; without it the 401 says how", arguments: ["curl", "urlsession"])
    func basicOnTheCommandLine(transport: String) async throws {
        let server = try Self.guarded()
        defer { server.stop() }
        try await withTemporaryFolder("typist-document-auth") { folder in
            let script = folder.appendingPathComponent("one.api")
            try Data("print(1)\n".utf8).write(to: script)
            let location = server.baseURL + "/openapi.yaml"
            let base = ["run", script.path, "--openapi", location, "--base-url", server.baseURL, "--transport", transport]
            let sent = try await Built.run("typist", base + ["--openapi-auth", "basic:ada"], environment: ["TYPIST_PASSWORD": Self.password])
            #expect(sent.status == 0 && sent.standard == "1\n", "\(sent.error)")
            #expect(!sent.error.contains(Self.password))
            let without = try await Built.run("typist", base)
            #expect(without.status == ExitStatus.dataError)
            // (URLSession gives no reason phrase.)
            #expect(without.error.contains(#"answered 401"#), "\(without.error)")
            #expect(without.error.contains(#"(it asks for credentials: WWW-Authenticate: Basic realm="docs"); send one with --openapi-auth basic:USER with TYPIST_PASSWORD set"#),
                    "\(without.error)")
            let wrong = try await Built.run("typist", base + ["--openapi-auth", "basic:ada"], environment: ["TYPIST_PASSWORD": "not-it"])
            #expect(wrong.error.contains("the credential sent (basic ada:••••) was refused"), "\(wrong.error)")
            #expect(!wrong.error.contains("not-it"))
            // The secret comes from the environment; a kind whose variable is unset is a usage error.
            let unset = try await Built.run("typist", base + ["--openapi-auth", "bearer"])
            #expect(unset.status == ExitStatus.usage)
            #expect(unset.error == "typist: --openapi-auth: bearer sends $TYPIST_TOKEN, which is not set: export it first\n", "\(unset.error)")
            let unknown = try await Built.run("typist", base + ["--openapi-auth", "digest"])
            #expect(unknown.error.contains("'digest' is not a credential kind: write bearer, basic:USER, apikey:header:NAME or apikey:query:NAME"),
                    "\(unknown.error)")
        }
    }

    @Test("The credential goes to the document's origin only: a redirect to another origin arrives without it")
    func credentialStaysWithItsOrigin() async throws {
        let elsewhere = try FaultServer { connection in
            try connection.respond(headers: ["Content-Type: application/yaml"], body: Array(Self.document.utf8))
        }
        defer { elsewhere.stop() }
        let origin = try FaultServer { connection in
            try connection.respond(status: "302 Found", headers: ["Location: \(elsewhere.baseURL)/openapi.yaml"], body: [])
        }
        defer { origin.stop() }
        for (kind, variable) in [("bearer", "TYPIST_TOKEN"), ("apikey:header:X-Docs-Key", "TYPIST_API_KEY")] {
            let document = try await OpenAPIDocument.load(
                origin.baseURL + "/openapi.yaml", cacheDirectory: nil, transport: CurlTransport(),
                credential: try DocumentCredential.parse(kind, secret: { _ in "doc-secret-77" }, missing: { _ in variable }))
            #expect(document.operationCount == 1)
        }
        let first = origin.requestHeads.joined(separator: "\n")
        #expect(first.contains("Authorization: Bearer doc-secret-77") && first.contains("X-Docs-Key: doc-secret-77"), "\(first)")
        let second = elsewhere.requestHeads.joined(separator: "\n")
        #expect(elsewhere.requestHeads.count == 2 && !second.contains("doc-secret-77"), "\(second)")
    }

    @Test(":openapi … --auth basic fetches with the session's user name and password; a missing one is named")
    func basicAtThePrompt() async throws {
        let server = try Self.guarded()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try Shell(registry: EndpointRegistry {}, environment: try ServerEnvironment(url: server.baseURL),
                              transport: CurlTransport(), output: output.shellOutput)
        shell.add(commands: [OpenAPICommand.command], after: "model")
        let location = server.baseURL + "/openapi.yaml"
        #expect(await shell.handle(":openapi \(location) --auth basic") == false)
        #expect(output.error.contains("basic needs a user name: basic:USER"), "\(output.error)")
        _ = try await shell.evaluate(#"username = "ada""#)
        #expect(await shell.handle(":openapi \(location) --auth basic") == false)
        #expect(output.error.contains("--auth basic sends the session's password, and it has none: set password = … first"), "\(output.error)")
        _ = try await shell.evaluate(#"password = "\#(Self.password)""#)
        output.clear()
        #expect(await shell.handle(":openapi \(location) --auth basic") == true, "\(output.error)")
        #expect(output.standard.contains("1 endpoints from Guarded"), "\(output.standard)")
        #expect(!output.all.contains(Self.password))
    }

    @Test("A document past the limit is refused once the limit has arrived, although the server never ends it",
          arguments: ["curl", "urlsession"])
    func limitWhileArriving(transport: String) async throws {
        // 65 MiB without a length, then the connection held open: read whole first, this waited
        // for the end until the time limit, holding everything.
        let server = try FaultServer { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/yaml\r\nConnection: close\r\n\r\n")
            let block = [UInt8](repeating: UInt8(ascii: "#"), count: 1 << 20)
            for _ in 0..<65 { try connection.send(block) }
            try connection.waitForClose()
        }
        defer { server.stop() }
        try await withTemporaryFolder("typist-document-limit") { folder in
            let script = folder.appendingPathComponent("one.api")
            try Data("print(1)\n".utf8).write(to: script)
            let result = try await Built.run("typist", ["run", script.path, "--openapi", server.baseURL + "/huge.yaml", "--transport", transport])
            #expect(result.status == ExitStatus.dataError, "\(result.error)")
            #expect(result.error == "typist: \(server.baseURL)/huge.yaml is larger than a document may be (more than 64 MiB)\n", "\(result.error)")
        }
    }

    @Test("Reading a document stops when its task is cancelled (Ctrl-C at :openapi): a large one is not read to its end first")
    func loweringIsCancellable() async throws {
        let paths = (0..<2000).map { "  /items\($0):\n    get:\n      operationId: item\($0)\n      responses: {'200': {description: ok}}" }
        let text = "openapi: 3.0.3\ninfo: {title: Large, version: '1'}\npaths:\n" + paths.joined(separator: "\n") + "\n"
        #expect(try OpenAPIDocument(text: text, serverVariables: [:]).operationCount == 2000)
        let task = Task { () throws -> Int in
            // Cancelled before it reads: what a Ctrl-C in the middle of reading finds next.
            while !Task.isCancelled { await Task.yield() }
            return try OpenAPIDocument(text: text, serverVariables: [:]).operationCount
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
