import APIScript
import Foundation
import Testing
import Typist

@Suite("Meta commands")
struct MetaCommandTests {
    @Test(":help gives an overview, and help on commands, endpoints, types and built-ins")
    func help() async throws {
        try await withDemoShell { shell, output, _ in
            let handled4 = await shell.handle(":help")
            #expect(handled4)
            #expect(output.standard.contains(":endpoints") && output.standard.contains("Endpoints: 28 in 5 groups"))
            output.clear()
            await shell.handle(":help curl")
            #expect(output.standard.contains(":curl expr"))
            output.clear()
            await shell.handle(":help post")
            #expect(output.standard.contains("post(id: Int) -> Endpoint<Public, Post>"))
            output.clear()
            await shell.handle(":help expect")
            #expect(output.standard.contains("showing both sides"))
        }
    }

    @Test(":endpoints lists groups, Swift signatures, methods and paths")
    func endpoints() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":endpoints")
            let text = output.standard
            for group in ["Dogs", "Blog", "GitHub", "Accounts", "Faults"] { #expect(text.contains(group)) }
            #expect(text.contains("post(id: Int) -> Endpoint<Public, Post>  GET /posts/{id}"))
            #expect(text.contains("search(query: String) -> Endpoint<Bearer, SearchResults>  GET /v1/search?q={query}"))
            #expect(text.contains("user(id: UUID) -> Endpoint<Public, User>  GET /v1/users/{id}"))
            #expect(text.contains("searchRepositories(query: String, sort: RepositorySort? = nil, perPage: Int = 30)"))
            #expect(text.contains("GET /search/repositories?q={query}&per_page={perPage}"))
            #expect(text.contains("deletePost(id: Int) -> Endpoint<Public, Void>  DELETE /posts/{id}"))
        }
    }

    @Test(":describe shows an endpoint's request and response, or a model's fields")
    func describe() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":describe searchRepositories")
            #expect(output.standard.contains("response: RepositorySearch"))
            #expect(output.standard.contains("items: [Repository]"))
            output.clear()
            await shell.handle(":describe Repository")
            #expect(output.standard.contains("stargazersCount: Int"))
            #expect(output.standard.contains("language: String?"))
            #expect(output.standard.contains("owner: Owner"))
            output.clear()
            let handled9 = await shell.handle(":describe Pots")
            #expect(!handled9)
            #expect(output.error.contains("no endpoint or type named 'Pots'; did you mean"))
        }
    }

    @Test(":type knows static types without sending anything")
    func type() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":type posts().filter { $0.userId == 1 }.map(\\.title)")
            #expect(output.standard.hasPrefix("[String]"))
            output.clear()
            await shell.handle(":type searchRepositories(query: \"x\").items.first?.owner")
            #expect(output.standard.hasPrefix("Owner?"))
            let handled5 = await shell.handle("response")
            #expect(handled5 == true)
            #expect(output.standard.hasSuffix("nil\n") || !output.standard.contains("Exchange("), "nothing was sent")
        }
    }

    @Test(":curl shows the request, with the token redacted, and sends nothing")
    func curl() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle("token = \"t0k3n-s3cr3t\"")
            await shell.handle(":curl search(query: \"swift & more\")")
            #expect(output.standard.contains("'\(server.baseURL)/v1/search?q=swift%20%26%20more'"))
            #expect(output.standard.contains("-H 'Authorization: ••••'"))
            #expect(!output.all.contains("t0k3n"))
            output.clear()
            await shell.handle(":curl createPost(userId: 1, title: \"it's\", body: \"b\")")
            #expect(output.standard.contains("-X POST"))
            #expect(output.standard.contains(#"--data-raw '{"#))
            #expect(output.standard.contains(#"it'\''s"#))
            await shell.handle(":last")
            #expect(output.standard.contains("no request has been sent yet"))
        }
    }

    @Test(":swift writes the same call with the typed client")
    func swift() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":swift post(id: 1)")
            #expect(output.standard.contains("let result: Post = try await client.send(.post(id: 1))"))
            output.clear()
            await shell.handle(":swift posts().filter { $0.userId == 1 }.map(\\.title)")
            #expect(output.standard.contains("let result: [String] = try await client.send(.posts).filter { $0.userId == 1 }.map(\\.title)"))
            output.clear()
            await shell.handle(":swift search(query: \"swift\").items.count")
            #expect(output.standard.contains("let result: Int = try await client.send(.search(query: \"swift\"), with: token).items.count"))
            #expect(output.standard.contains("let token = AccessToken("))
        }
    }

    @Test(":swift makes the client with the transport the session uses")
    func swiftTransport() async throws {
        // The fixture's session runs on AsyncHTTPClient.
        try await withDemoShell { shell, output, _ in
            await shell.handle(":swift post(id: 1)")
            let lines = output.standard.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(Array(lines.prefix(2)) == ["import TypedAPI", "import TypedAPIAsyncHTTPClient"])
            #expect(output.standard.contains("                       transport: AsyncHTTPClientTransport())"))
        }
        // typist's default is curl; urlsession needs no import beyond TypedAPI.
        let curl = try Built.run("typist", [], input: ":swift post(id: 1)\n")
        #expect(curl.standard.hasPrefix("import TypedAPI\nimport TypedAPICurl\n"), "\(curl.standard)")
        #expect(curl.standard.contains("transport: CurlTransport())"))
        let session = try Built.run("typist", ["--transport", "urlsession"], input: ":swift post(id: 1)\n")
        #expect(session.standard.hasPrefix("import TypedAPI\n\nlet client"), "\(session.standard)")
        #expect(session.standard.contains("transport: URLSessionTransport())"))
    }

    @Test(":last shows the last exchange with secrets redacted")
    func last() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("login(user: \"ada\", password: \"lovelace\")")
            await shell.handle("search(query: \"book\").total")
            output.clear()
            await shell.handle(":last")
            #expect(output.standard.contains("GET "))
            #expect(output.standard.contains("Authorization: ••••"))
            #expect(output.standard.contains("200 OK"))
            #expect(output.standard.contains(#""query":"book""#))
        }
    }

    @Test(":base, :token, :vars, :format")
    func session() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle(":base")
            #expect(output.standard == server.baseURL + "\n")
            output.clear()
            let handled10 = await shell.handle(":base ftp://nope")
            #expect(!handled10)
            #expect(output.error.contains("the scheme 'ftp' is not http or https"))
            output.clear()
            await shell.handle(":token abc")
            #expect(output.standard == "token = ••••\n")
            let handled6 = await shell.handle("search(query: \"x\")")
            #expect(handled6 == false)
            #expect(output.error.contains("401 Unauthorized"))
            output.clear()
            await shell.handle("let limit = 3")
            await shell.handle("var names = posts().prefix(limit).map(\\.title)")
            await shell.handle(":vars")
            #expect(output.standard.contains("limit  Int"))
            #expect(output.standard.contains("names  [String]"))
            output.clear()
            await shell.handle(":format json")
            await shell.handle("post(id: 3)")
            #expect(output.standard.contains(#""userId": 1,"#))
            output.clear()
            let handled11 = await shell.handle(":format xml")
            #expect(!handled11)
            #expect(output.error.contains("unknown format 'xml'"))
            let handled12 = await shell.handle(":bogus")
            #expect(!handled12)
        }
    }

    @Test(":save writes the successful inputs without secrets; :load runs a script into the session")
    func saveAndLoad() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-save-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("session.api").path
        try await withDemoShell { shell, output, _ in
            await shell.handle("let firstTitle = post(id: 1).title")
            await shell.handle("token = \"hunter2-secret\"")
            await shell.handle("login(user: \"ada\", password: \"lovelace\")")
            await shell.handle("post(id: 99999)")
            await shell.handle(":save \(saved)")
            let text = try String(contentsOfFile: saved, encoding: .utf8)
            #expect(text.contains("let firstTitle = post(id: 1).title"))
            #expect(!text.contains("hunter2") && !text.contains("lovelace"))
            #expect(!text.contains("99999"), "failed inputs are not saved")
            let script = directory.appendingPathComponent("helpers.api").path
            try "let loadedCount = posts().count\nfunc double(_ x: Int) -> Int { x * 2 }\n".write(toFile: script, atomically: true, encoding: .utf8)
            output.clear()
            let handled7 = await shell.handle(":load \(script)")
            #expect(handled7)
            let value1 = try await shell.evaluate("double(loadedCount)")
            #expect(value1 == .int(200))
        }
    }

    @Test(":env lists and switches environments; unknown names are reported")
    func environments() async throws {
        try await withDemoShell(environments: { base in
            [NamedEnvironment(name: "local", baseURL: base, variables: ["who": "ada"]),
             NamedEnvironment(name: "nowhere", baseURL: "http://127.0.0.1:9")]
        }) { shell, output, server in
            await shell.handle(":env")
            #expect(output.standard.contains("local  \(server.baseURL)"))
            output.clear()
            await shell.handle(":env nowhere")
            #expect(output.standard.contains("environment nowhere"))
            let handled8 = await shell.handle("posts()")
            #expect(handled8 == false)
            #expect(output.error.contains("connection refused"))
            await shell.handle(":env local")
            let value2 = try await shell.evaluate("who")
            #expect(value2 == .string("ada"))
            let value3 = try await shell.evaluate("posts().count")
            #expect(value3 == .int(100))
            let handled13 = await shell.handle(":env moon")
            #expect(!handled13)
        }
    }

    @Test(":quit ends the prompt")
    func quit() async throws {
        try await withDemoShell { shell, _, _ in
            let lines = ScriptedLineSource(["let a = 1", ":quit", "print(\"never\")"])
            #expect(await shell.runPrompt(lines) == 0)
            #expect(lines.prompts.count == 2)
        }
    }
}
