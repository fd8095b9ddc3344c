import APIScript
import DemoService
import FaultServer
import Foundation
import Testing
import TypistText
import TypedAPI
import TypedAPIAsyncHTTPClient
@testable import Typist
@testable import TypistCore
@testable import TypistOpenAPI

/// The demo service's OpenAPI document, as if fetched from a service at port 9.
private func demoDocument() throws -> OpenAPIDocument {
    try OpenAPIDocument(text: SpecFixture.document, name: "openapi.yaml", baseURL: URL(string: "http://127.0.0.1:9/openapi.yaml"))
}

/// The document in a file of `folder`, for the command line.
private func demoDocumentFile(in folder: URL) throws -> String {
    let file = folder.appendingPathComponent("openapi.yaml")
    try SpecFixture.document.write(to: file, atomically: true, encoding: .utf8)
    return file.path
}

/// A shell whose endpoints come from the fixture document, as if fetched from the demo service
/// (its relative server is that service), against that demo server.
private func withDocumentShell<T>(_ body: (Shell, CapturedOutput) async throws -> T) async throws -> T {
    let server = try await DemoServer.start()
    let output = CapturedOutput()
    do {
        let document = try OpenAPIDocument(text: SpecFixture.document, name: "openapi.yaml", baseURL: URL(string: server.baseURL + "/openapi.yaml"))
        let shell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: server.baseURL),
                              transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        let result = try await body(shell, output)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

@Suite("Endpoints from an OpenAPI document")
struct OpenAPIDocumentTests {
    @Test("Operations become functions named from operationId, grouped by tag, with the document's types")
    func functions() async throws {
        let document = try demoDocument()
        #expect(document.title == "Typist demo service")
        // Its server is a relative URL: the service the document came from.
        #expect(document.servers == ["http://127.0.0.1:9"])
        #expect(document.environments == [NamedEnvironment(name: "this-demo-service", baseURL: "http://127.0.0.1:9")])
        let registry = try EndpointRegistry { document }
        let names = registry.endpoints.map(\.name)
        #expect(names == ["listPosts", "createPost", "getPost", "deletePost", "searchRepositories", "login", "search", "issueToken", "wrongType"])
        #expect(registry.endpoint(named: "getPost")?.swiftSignature == "getPost(id: Int) -> Endpoint<Public, Post>")
        #expect(registry.endpoint(named: "listPosts")?.group == "blog")
        #expect(registry.endpoint(named: "search")?.kindName == "Bearer")
        #expect(registry.endpoint(named: "issueToken")?.kindName == "Basic")
        #expect(registry.endpoint(named: "deletePost")?.responseType == .void)
        #expect(registry.endpoint(named: "deletePost")?.summary.contains("deprecated") == true)
        // Optional query parameters are labelled with their defaults; an enum's values are its choices.
        let search = try #require(registry.endpoint(named: "searchRepositories"))
        #expect(search.parameters.map(\.label) == ["q", "sort", "perPage", "page"])
        #expect(search.parameters[2].defaultValue == .int(30))
        #expect(search.parameters[1].choices == [.string("stars"), .string("updated")])
        // A small body's fields are labels; `id` is read-only, so a request has none.
        #expect(registry.endpoint(named: "createPost")?.parameters.map(\.label) == ["userId", "title", "body"])
        #expect(registry.endpoint(named: "login")?.parameters.map(\.label) == ["user", "password"])
        // Snake_case keys are Swift names in scripts, their keys kept for reading.
        let repository = try #require(registry.recordTypes.first { $0.name == "Repository" })
        #expect(repository.fields.map(\.name) == ["id", "name", "fullName", "owner", "stargazersCount", "language", "description"])
        #expect(repository.field(named: "fullName")?.key == "full_name")
        #expect(repository.field(named: "language")?.type == .optional(.string))
        #expect(repository.field(named: "description")?.type == .optional(.string))
    }

    @Test("A field the body's schema requires is a required argument, also where the document leaves the body optional (GitHub's never say required)")
    func requiredFieldsOfAnOptionalBody() async throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            paths:
              /users:
                post:
                  operationId: createUser
                  requestBody:
                    content:
                      application/json:
                        schema: { type: object, required: [login], properties: { login: { type: string }, email: { type: string } } }
                  responses: { "201": { description: created } }
                patch:
                  operationId: updateUser
                  requestBody:
                    content:
                      application/json:
                        schema: { type: object, properties: { email: { type: string } } }
                  responses: { "200": { description: updated } }
            """, name: "users.yaml")
        let registry = try EndpointRegistry { document }
        #expect(registry.endpoint(named: "createUser")?.swiftSignature == "createUser(login: String, email: String? = nil) -> Endpoint<Public, Any>")
        #expect(registry.endpoint(named: "updateUser")?.swiftSignature == "updateUser(email: String? = nil) -> Endpoint<Public, Any>")
        // GitHub Enterprise's document marks none of its 194 bodies required; 120 of them require fields.
        guard MirroredFile.unavailable == nil else { return }
        let ghes = try OpenAPIDocument(text: try await MirroredFile.text(repository: "https://github.com/mattpolzin/OpenAPIKit", tag: "6.4.0", path: "Tests/inputs/ghes-3.0.yaml"),
                                       name: "ghes.yaml")
        let createUser = try #require(ghes.operations.first { $0.operationId == "enterprise-admin/create-user" })
        #expect(createUser.arguments.map { "\($0.label): \($0.type)" } == ["login: String", "email: String?"])
    }

    @Test("A JSON body's field that is an object takes any JSON; a form or multipart body of a map (Litestar's dict[str, str]) is body: [String: …], sent field by field")
    func objectFieldsAndMapBodies() async throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.1.0
            servers: [{url: "http://127.0.0.1:9"}]
            components:
              schemas:
                Owner: { type: object, required: [name], properties: { name: { type: string } } }
            paths:
              /pets:
                post:
                  operationId: createPet
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [name, owner]
                          properties:
                            name: { type: string }
                            owner: { $ref: "#/components/schemas/Owner" }
                            friends: { type: array, items: { $ref: "#/components/schemas/Owner" } }
                  responses: { "201": { description: created } }
              /login:
                post:
                  operationId: login
                  requestBody:
                    required: true
                    content:
                      application/x-www-form-urlencoded:
                        schema: { type: object, additionalProperties: { type: string } }
                  responses: { "200": { description: ok } }
              /attach:
                post:
                  operationId: attach
                  requestBody:
                    content:
                      multipart/form-data:
                        schema: { type: object, additionalProperties: { type: string, format: binary } }
                  responses: { "200": { description: ok } }
            """, name: "maps.yaml")
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let registry = try EndpointRegistry { document }
        // Labels, as any small body's; an object or a list of them is any JSON (a dictionary
        // literal, or a value a response gave), where the whole body was one `body:` before.
        #expect(registry.endpoint(named: "createPet")?.swiftSignature == "createPet(name: String, owner: Any, friends: Any = nil) -> Endpoint<Public, Any>")
        #expect(registry.endpoint(named: "login")?.swiftSignature == "login(body: [String: String]) -> Endpoint<Public, Any>")
        #expect(registry.endpoint(named: "attach")?.swiftSignature == "attach(body: [String: UploadFile]? = nil) -> Endpoint<Public, Any>")
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        // An operation without a summary has none (it was its method and path, shown twice in :endpoints).
        #expect(registry.endpoint(named: "login")?.summary == "")
        #expect(await shell.handle(":endpoints"))
        #expect(!output.standard.contains("      POST /login"), "\(output.standard)")
        let endpoints = try #require(SwiftGenerator(document: document).files().first { $0.path == "Endpoints.swift" }).text
        #expect(endpoints.contains("    /// `POST /login`\n    public static func login("), "\(endpoints)")
        output.clear()
        #expect(await shell.handle(#":curl createPet(name: "Rex", owner: ["name": "Ada"], friends: [["name": "Bo"]])"#), "\(output.error)")
        #expect(output.standard.contains(#"--data-raw '{"friends":[{"name":"Bo"}],"name":"Rex","owner":{"name":"Ada"}}'"#), "\(output.standard)")
        // A required object field must be given, as any required field.
        #expect(shell.check(ScriptSource(name: "p.api", text: #"createPet(name: "Rex")"#)).map(\.message) == ["missing argument for parameter 'owner' in call"])
        // Each entry of the map a field of the form, in the keys' order, as a form's labels are sent.
        #expect(await shell.handle(#":curl login(body: ["username": "ada", "note": "a & b"])"#), "\(output.error)")
        #expect(output.standard.contains("-H 'Content-Type: application/x-www-form-urlencoded' \\\n  --data-urlencode 'note=a & b' \\\n  --data-urlencode 'username=ada'"),
                "\(output.standard)")
        // A map of files: each a part named by its key.
        try await withTemporaryFolder("typist-map-body") { folder in
            let path = folder.appendingPathComponent("cat.png").path
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: path))
            #expect(await shell.handle(":curl attach(body: [\"portrait\": file(\(ValueFormatter.quoted(path)))])"), "\(output.error)")
            #expect(output.standard.contains("-F 'portrait=@\"\(path)\";type=image/png'"), "\(output.standard)")
        }
    }

    @Test("An enum parameter's default is its case where Swift is shown (TomTom's view = .unified); a required one with one value has it as its default")
    func enumDefaults() async throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            servers: [{url: "http://127.0.0.1:9"}]
            paths:
              /search:
                get:
                  operationId: search
                  parameters:
                    - {name: view, in: query, schema: {type: string, enum: [Unified, IN], default: Unified}}
                    - {name: version, in: query, required: true, schema: {type: integer, enum: [2]}}
                  responses: { "200": { description: ok, content: { application/json: { schema: { type: object } } } } }
            """, name: "search.yaml")
        let registry = try EndpointRegistry { document }
        // A required parameter with one allowed value (TomTom's `versionNumber`) has it as its default.
        #expect(registry.endpoint(named: "search")?.swiftSignature == "search(view: SearchView = .unified, version: Int = 2) -> Endpoint<Public, [String: Any]>")
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        await shell.handle(":describe search")
        #expect(output.standard.contains("param:    view: SearchView = .unified  (one of .unified, .in)"), "\(output.standard)")
    }

    @Test("The cache's key is SHA-256 (FIPS 180-4's vectors, every padding boundary, non-ASCII text)")
    func cacheKey() {
        #expect(SHA256Digest.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let lengths = [55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
                       56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
                       63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
                       64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
                       65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
                       119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
                       120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
                       128: "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"]
        for (length, digest) in lengths { #expect(SHA256Digest.hex(String(repeating: "a", count: length)) == digest, "\(length)") }
        #expect(SHA256Digest.hex("é€😀") == "df9226927fd572c1ee66eec85de1bb139497614899f36e4e90474cb71f6ef9d0")
        #expect(SHA256Digest.hex(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // The Swift and libcrypto's agree, at every length around the block and padding boundaries.
        for length in 0...200 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(truncatingIfNeeded: 33 + $0 * 7 % 90))) })
            #expect(SHA256Digest.portableHex(text) == SHA256Digest.hex(text), "\(length)")
        }
        #if os(Linux)
        // The test binary links libcurl, and so libcrypto: the fast path is the one taken.
        #expect(SHA256Digest.usesOpenSSL)
        #endif
    }

    @Test("A loaded document is cached by its content: read back it gives the same endpoints and types; a damaged cache, or another program's, is not used")
    func cache() async throws {
        try await withTemporaryFolder("typist-openapi-cache") { folder in
            func summary(_ document: OpenAPIDocument) throws -> [String] {
                let registry = try EndpointRegistry { document }
                // The script type too: a stream operation's is a stream, not its item.
                return registry.endpoints.map { "\($0.swiftSignature) \($0.responseType) \($0.streams) \($0.acceptedKinds) \($0.group) \($0.summary) \($0.parameters.map { "\($0.defaultValue.map(String.init(describing:)) ?? "-") \($0.choices ?? []) \($0.rules ?? "")" })" }
                    + document.recordTypes.map(\.description).sorted() + document.warnings + document.servers
                    + document.environments.map(\.name) + [document.hash]
            }
            let demoDocumentPath = try demoDocumentFile(in: folder)
            let fresh = try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: nil))
            let first = try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder))
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            #expect(files.count == 1)
            let cached = try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder))
            #expect(first == fresh)
            #expect(cached == fresh)
            // A cache file that is not one is read past, and written again.
            let file = folder.appendingPathComponent(try #require(files.first))
            try Data("{\"version\": 1, \"title\": 5}".utf8).write(to: file)
            #expect(try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder)) == fresh)
            try Data("{\"version\": 1, \"title\": \"x\", \"records\": [], \"servers\": [], \"warnings\": [], \"operations\": [{\"name\": 1}]}".utf8).write(to: file)
            #expect(try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder)) == fresh)
            #expect(try summary(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder)) == fresh)
            // A file another program wrote (an older Typist, lowering differently) is read past:
            // its title, changed here, is not the one loaded — and the same file as this program's is.
            let written = try String(contentsOf: file, encoding: .utf8)
            let title = try #require(written.firstRange(of: #""title":""#))
            let renamed = written.replacingCharacters(in: title, with: #""title":"Renamed by hand","ignored":""#)
            try renamed.replacingOccurrences(of: #""build":""#, with: #""build":"another program "#).write(to: file, atomically: true, encoding: .utf8)
            #expect(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder).title != "Renamed by hand")
            try renamed.write(to: file, atomically: true, encoding: .utf8)
            #expect(try await OpenAPIDocument.load(demoDocumentPath, cacheDirectory: folder).title == "Renamed by hand")

            // The demo service's document has stream operations: read back, they are streams still.
            let served = folder.appendingPathComponent("served.yaml")
            try DemoOpenAPI.document.write(to: served, atomically: true, encoding: .utf8)
            let servedFresh = try summary(try await OpenAPIDocument.load(served.path, cacheDirectory: nil))
            _ = try await OpenAPIDocument.load(served.path, cacheDirectory: folder)
            #expect(try summary(try await OpenAPIDocument.load(served.path, cacheDirectory: folder)) == servedFresh)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.count == 2)
            #expect(servedFresh.contains {
                $0.hasPrefix("eventLines(count: Int = 10, gapMs: Int = 0) -> Endpoint<Public, BuildEvent> AsyncThrowingStream<BuildEvent, any Error> true")
            }, "\(servedFresh)")
            // Its parameters' constraints (`code`: 200...599) read back too.
            #expect(servedFresh.contains { $0.contains("200...599") }, "\(servedFresh)")

            // A form body's fields are form fields read back, not a JSON body's; multipart fields
            // and a whole body of bytes too.
            let form = folder.appendingPathComponent("form.yaml")
            try """
                openapi: 3.0.3
                paths:
                  /token:
                    post:
                      operationId: token
                      requestBody:
                        content:
                          application/x-www-form-urlencoded:
                            schema: { type: object, required: [username], properties: { username: { type: string } } }
                      responses: { "200": { description: ok } }
                  /upload:
                    post:
                      operationId: upload
                      requestBody:
                        content:
                          multipart/form-data:
                            schema: { type: object, properties: { file: { type: string, format: binary }, note: { type: string } } }
                            encoding: { note: { contentType: "application/sdp" } }
                      responses: { "200": { description: ok } }
                  /raw:
                    put:
                      operationId: raw
                      requestBody: { content: { image/png: { schema: { type: string, format: binary } } } }
                      responses: { "200": { description: ok } }
                """.write(to: form, atomically: true, encoding: .utf8)
            _ = try await OpenAPIDocument.load(form.path, cacheDirectory: folder)
            let arguments = try await OpenAPIDocument.load(form.path, cacheDirectory: folder).operations.flatMap(\.arguments)
            #expect(arguments.map(\.place) == [.formField, .multipartField, .multipartField, .rawBody(mediaType: "image/png")])
            // A file is the one `file(_:)` makes, read back as it was written.
            #expect(arguments.map(\.type) == [.string, UploadFile.scriptType.optional, .optional(.string), UploadFile.scriptType.optional])
            #expect(arguments.map(\.partType) == [nil, nil, "application/sdp", nil])
        }
    }

    @Test("The cache keeps the documents used last: one written past its capacity removes the one read or written longest ago")
    func cacheCapacity() async throws {
        try await withTemporaryFolder("typist-openapi-cache-capacity") { folder in
            let cache = DocumentCache(directory: folder, capacity: 3)
            func contents(_ title: String) -> OpenAPIDocument.Contents {
                .init(textHash: "fnv1a64:0", title: title, servers: [], warnings: [], recordTypes: [], operations: [])
            }
            for key in ["k1", "k2", "k3"] { cache.write(contents(key), key: key) }
            // Ages set, not waited for: k1 oldest, then k2, then k3.
            for (key, age) in [("k1", 300.0), ("k2", 200.0), ("k3", 100.0)] {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: cache.file(for: key).path)
            }
            #expect(cache.read("k1")?.title == "k1")
            cache.write(contents("k4"), key: "k4")
            let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(kept == ["k1.json", "k3.json", "k4.json"])
        }
    }

    @Test("Calls go to the real service and answer with the document's records, checked before any call")
    func calls() async throws {
        try await withDocumentShell { shell, output in
            #expect(try await shell.evaluate("listPosts().filter { $0.userId == 1 }.map(\\.title).count") == .int(10))
            let title = try await shell.evaluate(#"httpGet("/posts/3").json["title"]"#)
            #expect(try await shell.evaluate("getPost(id: 3).title") == title)
            let found = try await shell.evaluate(#"searchRepositories(q: "swift", sort: .stars, perPage: 2).items.map(\.fullName)"#)
            guard case .array(let names) = found else {
                Issue.record("\(found)")
                return
            }
            #expect(names.count == 2)
            #expect(try await shell.evaluate(#"createPost(userId: 1, title: "typed", body: "from a document").title"#) == .string("typed"))
            #expect(try await shell.evaluate("deletePost(id: 1)") == .void)
            // `:swift` of a document's call: what `typist generate` writes for it, then the call.
            output.clear()
            await shell.handle(":swift getPost(id: 1).title")
            #expect(output.standard.contains("extension Endpoint where Kind == Public, Response == Post {\n    /// `GET /posts/{id}`: One post.\n    public static func getPost(id: Int) -> Self {"),
                    "\(output.standard)")
            #expect(output.standard.contains("public struct Post: Codable, Sendable {"), "\(output.standard)")
            #expect(output.standard.contains("let result = try await client.send(.getPost(id: 1)).title"), "\(output.standard)")
            // A misspelt member is an error before anything is sent.
            output.clear()
            let diagnostics = shell.check(ScriptSource(name: "<check>", text: "getPost(id: 1).titel"))
            #expect(diagnostics.contains { $0.message == "Post has no member 'titel'" }, "\(diagnostics)")
            #expect(shell.check(ScriptSource(name: "<check>", text: #"createPost(id: 5, userId: 1, title: "t", body: "b")"#)).isEmpty == false)
            // An enum parameter's values are cases, checked before any call.
            let bogus = shell.check(ScriptSource(name: "<check>", text: #"searchRepositories(q: "swift", sort: .bogus)"#))
            #expect(bogus.map(\.message) == ["type 'SearchRepositoriesSort' has no member 'bogus'"], "\(bogus)")
        }
    }

    @Test("Security schemes are the endpoint kinds: a missing credential is refused before the network")
    func security() async throws {
        try await withDocumentShell { shell, output in
            await shell.handle(#"search(q: "a")"#)
            #expect(output.error.contains("needs an access token"), "\(output.error)")
            #expect(shell.lastExchange() == "no request has been sent yet")
            await shell.handle("issueToken()")
            #expect(output.error.contains("needs a user name and password"), "\(output.error)")
            #expect(shell.lastExchange() == "no request has been sent yet")
            output.clear()
            #expect(await shell.handle(#"token = login(user: "ada", password: "lovelace").result.token"#))
            let query = try await shell.evaluate(#"search(q: "a").result!.query"#)
            #expect(query == .string("a"))
            #expect(!output.error.contains("lovelace"))
        }
    }

    @Test("An enum parameter takes only its values; a response that departs from its schema names the place")
    func refusals() async throws {
        try await withDocumentShell { shell, output in
            await shell.handle(#"searchRepositories(q: "swift", sort: "bogus")"#)
            #expect(output.error.contains(#"sort is one of "stars", "updated""#), "\(output.error)")
            output.clear()
            await shell.handle("wrongType()")
            #expect(output.error.contains(#"wrongType: the response departs from the document's Post at $.id: expected Int, found a String; httpGet("/faults/wrong-type") shows it as it came"#),
                    "\(output.error)")
        }
    }

    @Test("--validate: keys the document does not declare are warnings with their paths; a response that cannot be typed names every departure")
    func validate() async throws {
        let server = try await DemoServer.start()
        do {
            try await withTemporaryFolder("typist-validate") { directory in
                // The document, one step behind its service: Repository lacks `language`; Post's title is a number.
                var text = SpecFixture.document
                text = text.replacingOccurrences(of: "        language: { type: [string, \"null\"] }\n", with: "")
                text = text.replacingOccurrences(of: "        title: { type: string }\n        body: { type: string }\n",
                                                 with: "        title: { type: integer }\n        body: { type: string }\n")
                #expect(text != SpecFixture.document)
                let document = directory.appendingPathComponent("behind.yaml")
                try text.write(to: document, atomically: true, encoding: .utf8)
                let input = #"print(searchRepositories(q: "swift", perPage: 3).items.map(\.fullName))"# + "\nwrongType()\n"
                func run(_ extra: [String]) async throws -> Built.Result {
                    try await Built.run("typist", ["--openapi", document.path, "--base-url", server.baseURL] + extra, input: input,
                                        environment: ["XDG_CACHE_HOME": directory.path])
                }
                let plain = try await run([])
                let validated = try await run(["--validate"])
                // The same values either way; only --validate says what the document does not.
                #expect(plain.standard == validated.standard)
                #expect(validated.standard.contains(#"["apple/swift", "apple/swift-nio", "apple/swift-argument-parser"]"#), "\(validated.standard)")
                #expect(!plain.error.contains("warning:"), "\(plain.error)")
                for index in 0..<3 {
                    #expect(validated.error.contains("warning: searchRepositories: the response departs from the document's RepositorySearch at $.items[\(index)].language: a key Repository does not declare"),
                            "\(validated.error)")
                }
                // A response that cannot be typed: the first departure, and with --validate every other.
                #expect(plain.error.contains("wrongType: the response departs from the document's Post at $.id: expected Int, found a String; "), "\(plain.error)")
                #expect(validated.error.contains("wrongType: the response departs from the document's Post at $.id: expected Int, found a String (and at $.title: expected Int, found a String); "),
                        "\(validated.error)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("Server variables: defaults unless --server-var (or :openapi … --server-var) gives a value; enums and unknown names refused")
    func serverVariables() async throws {
        let server = try await DemoServer.start()
        do {
            try await withTemporaryFolder("typist-server-vars") { directory in
                let port = try #require(URL(string: server.baseURL)?.port)
                // The demo's document, its server a template whose default port is closed.
                let text = SpecFixture.document.replacingOccurrences(of: """
                      - url: /
                        description: This demo service
                    """, with: """
                      - url: "{scheme}://127.0.0.1:{port}"
                        description: The service
                        variables:
                          scheme: { default: http, enum: [http, https] }
                          port: { default: "9" }
                    """)
                #expect(text != SpecFixture.document)
                let document = directory.appendingPathComponent("templated.yaml")
                try text.write(to: document, atomically: true, encoding: .utf8)
                let environment = ["XDG_CACHE_HOME": directory.path]
                let defaults = try await Built.run("typist", ["--openapi", document.path], input: "print(baseURL)\n", environment: environment)
                #expect(defaults.standard == "http://127.0.0.1:9\n", "\(defaults.error)")
                let given = try await Built.run("typist", ["--openapi", document.path, "--server-var", "port=\(port)"],
                                                input: "print(baseURL)\nprint(getPost(id: 4).id)\n", environment: environment)
                #expect(given.standard == "\(server.baseURL)\n4\n", "\(given.error)")
                let outsideEnum = try await Built.run("typist", ["--openapi", document.path, "--server-var", "scheme=ftp"], input: "", environment: environment)
                #expect(outsideEnum.status != 0)
                #expect(outsideEnum.error.contains("--server-var scheme=ftp: the document allows http, https"), "\(outsideEnum.error)")
                let unknown = try await Built.run("typist", ["--openapi", document.path, "--server-var", "hostname=x"], input: "", environment: environment)
                #expect(unknown.error.contains("--server-var hostname: the document's servers have no variable of that name (they have: port, scheme)"),
                        "\(unknown.error)")
                let malformed = try await Built.run("typist", ["--openapi", document.path, "--server-var", "port"], input: "", environment: environment)
                #expect(malformed.error.contains("--server-var takes name=value"), "\(malformed.error)")
                // At the prompt.
                let prompt = try await Built.run("typist", ["--base-url", server.baseURL],
                                                 input: ":openapi \(document.path) --server-var port=\(port)\n:env\n", environment: environment)
                #expect(prompt.standard.contains("they call the session's base URL, \(server.baseURL)"), "\(prompt.standard)\(prompt.error)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("typist --openapi: the document's endpoints only, against --base-url; run and check take it too")
    func commandLine() async throws {
        let server = try await DemoServer.start()
        do {
            try await withTemporaryFolder("typist-openapi") { directory in
                // The document as the service serves it.
                let demoDocumentPath = server.baseURL + "/openapi.yaml"
                let script = directory.appendingPathComponent("document.api")
                try "print(post(id: 2).id)\nprint(posts().count)\n".write(to: script, atomically: true, encoding: .utf8)
                let ran = try await Built.run("typist", ["run", script.path, "--openapi", demoDocumentPath, "--base-url", server.baseURL], environment: ["XDG_CACHE_HOME": directory.path])
                #expect(ran.status == 0, "\(ran.error)")
                #expect(ran.standard == "2\n100\n")
                // Without --base-url, requests go to the document's first server, an environment of the session.
                try "print(baseURL)\n".write(to: script, atomically: true, encoding: .utf8)
                let fromDocument = try await Built.run("typist", ["run", script.path, "--openapi", demoDocumentPath], environment: ["XDG_CACHE_HOME": directory.path])
                #expect(fromDocument.standard == server.baseURL + "\n", "\(fromDocument.error)")
                let piped = try await Built.run("typist", ["--openapi", demoDocumentPath], input: ":env\nprint(post(id: 5).id)\n:source post\n",
                                                environment: ["XDG_CACHE_HOME": directory.path])
                #expect(piped.standard.contains("this-demo-service  \(server.baseURL)"), "\(piped.standard)")
                #expect(piped.standard.contains("5\n"), "\(piped.standard)")
                // The demo's own endpoints are not there: the document's replace them (its `post` is the document's).
                #expect(piped.standard.contains("openapi.yaml: GET /posts/{id}"), "\(piped.standard)")
                // The document's security at check time: a bearer operation with no token before it.
                try "print(search(query: \"a\").total)\n".write(to: script, atomically: true, encoding: .utf8)
                let unauthorized = try await Built.run("typist", ["check", script.path, "--openapi", demoDocumentPath], environment: ["XDG_CACHE_HOME": directory.path])
                #expect(unauthorized.status == 65)
                #expect(unauthorized.error.contains("search(query:) needs an access token (Bearer), and nothing sets it before this call"),
                        "\(unauthorized.error)")
                let authorized = try await Built.run("typist", ["check", script.path, "--openapi", demoDocumentPath],
                                                     environment: ["TYPIST_TOKEN": "t", "XDG_CACHE_HOME": directory.path])
                #expect(authorized.status == 0, "\(authorized.error)")
                // Piped input runs as `typist run` does: the refusal comes when the call is reached.
                let pipedRun = try await Built.run("typist", ["--openapi", demoDocumentPath], input: "print(post(id: 1).id)\nsearch(query: \"a\")\n",
                                                   environment: ["XDG_CACHE_HOME": directory.path])
                #expect(pipedRun.status == 1)
                #expect(pipedRun.standard == "1\n", "\(pipedRun.standard)")
                #expect(pipedRun.error.contains("needs an access token"), "\(pipedRun.error)")
                let withCredentials = try await Built.run("typist", ["check", script.path, "--openapi", "http://ada:lovelace@127.0.0.1:9/openapi.yaml"],
                                                          environment: ["XDG_CACHE_HOME": directory.path])
                #expect(withCredentials.status == 65)
                #expect(withCredentials.error.contains("http://ada:••••@127.0.0.1:9/openapi.yaml"), "\(withCredentials.error)")
                #expect(!(withCredentials.standard + withCredentials.error).contains("lovelace"))
                let missing = try await Built.run("typist", ["check", script.path, "--openapi", directory.appendingPathComponent("none.yaml").path], environment: ["XDG_CACHE_HOME": directory.path])
                #expect(missing.status == 65)
                #expect(missing.error.contains("cannot read"), "\(missing.error)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("A deprecated operation is a warning where a script calls it, when the script is checked; nothing else is")
    func deprecatedOperation() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            info: {title: old, version: "1"}
            paths:
              /v1/items:
                get:
                  operationId: listItemsV1
                  deprecated: true
                  responses: {"200": {description: items, content: {application/json: {schema: {type: array, items: {type: string}}}}}}
              /v2/items:
                get:
                  operationId: listItems
                  responses: {"200": {description: items, content: {application/json: {schema: {type: array, items: {type: string}}}}}}
            """, name: "old.yaml")
        let shell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(), output: CapturedOutput().shellOutput)
        let diagnostics = shell.check(ScriptSource(name: "s.api", text: "let a = listItemsV1()\nlet b = listItems()"))
        #expect(diagnostics.map { "\($0.severity) \($0.message)" }
            == ["warning 'listItemsV1' is deprecated: the document (old.yaml) marks GET /v1/items deprecated"], "\(diagnostics)")
        #expect(diagnostics.first?.span.start == "let a = ".utf8.count)
    }

    @Test("A document URL nothing answers at is one line naming it, and exit 69 (unavailable), not a Foundation error dump and 65")
    func unreachableDocument() async throws {
        try await withTemporaryFolder("typist-unreachable-document") { folder in
            let script = folder.appendingPathComponent("one.api")
            try Data("print(1)\n".utf8).write(to: script)
            for transport in ["curl", "urlsession"] {
                let result = try await Built.run("typist", ["run", script.path, "--openapi", "http://127.0.0.1:9/openapi.yaml", "--transport", transport])
                #expect(result.status == ExitStatus.unavailable, "\(transport): \(result.error)")
                #expect(result.error.hasPrefix("typist: cannot fetch http://127.0.0.1:9/openapi.yaml: connection refused"), "\(transport): \(result.error)")
                #expect(result.error.split(separator: "\n").count == 1, "\(transport): \(result.error)")
                #expect(!result.error.contains("NSURLErrorDomain") && !result.error.contains("UserInfo"), "\(result.error)")
            }
        }
    }

    @Test(":openapi at the prompt adds a document's operations beside the host's; a name taken keeps its meaning")
    func atThePrompt() async throws {
        try await withDemoShell { shell, output, server in
            shell.add(commands: [OpenAPICommand.command], after: "model")
            #expect(await shell.handle(":openapi \(server.baseURL)/openapi.yaml"))
            #expect(output.standard.contains("33 endpoints from Typist demo service (:endpoints lists them); they call the session's base URL, \(server.baseURL)"),
                    "\(output.standard)")
            #expect(output.standard.contains("'breeds' is taken; this one is 'breeds2'"), "\(output.standard)")
            // Ten warnings are shown, and how many more there are.
            #expect(output.standard.contains("warning: and 23 more like these (:endpoints lists every function by its name)"), "\(output.standard)")
            // The document's functions, and the host's, side by side.
            let fromDocument = try await shell.evaluate("post2(id: 4).id")
            let fromHost = try await shell.evaluate("post(id: 4).id")
            let renamed = try await shell.evaluate(#"login2(user: "ada", password: "lovelace").expiresIn"#)
            #expect(fromDocument == .int(4))
            #expect(fromHost == .int(4))
            #expect(renamed == .int(3600))
            #expect(shell.registry.endpoint(named: "posts2") != nil)
            // Credentials in a document's URL are not sent, and not shown.
            output.clear()
            #expect(await shell.handle(":openapi http://ada:lovelace@127.0.0.1:9/openapi.yaml") == false)
            #expect(output.error.contains("cannot read http://ada:••••@127.0.0.1:9/openapi.yaml: credentials in the document's URL are not sent"),
                    "\(output.error)")
            #expect(!(output.standard + output.error).contains("lovelace"))
            output.clear()
            #expect(await shell.handle(":openapi /nonexistent/spec.yaml") == false)
            #expect(output.error.contains("cannot read /nonexistent/spec.yaml"), "\(output.error)")
        }
    }

    @Test("A document that names the wrong method: httpbin's 405 says which methods it allows (its Allow header)",
          .disabled(if: HttpbinServer.unavailable != nil, "\(HttpbinServer.unavailable ?? "")"))
    func methodNotAllowed() async throws {
        let httpbin = try await HttpbinServer.start()
        defer { httpbin.stop() }
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            servers: [{ url: "\(httpbin.baseURL)" }]
            paths:
              /get: { post: { operationId: postGet, responses: { "200": { description: x } } } }
            """, name: "wrong.yaml")
        let shell = try documentShell(document, output: CapturedOutput())
        let refused = await #expect(throws: (any Error).self) { try await shell.evaluate("postGet()") }
        let text = String(describing: refused)
        #expect(text.contains("405") && text.contains("\nnote: the service does not take POST at this URL; it allows "), "\(text)")
        #expect(text.contains("GET") && text.contains("HEAD"), "\(text)")
    }

    @Test("Swagger 2.0 from a real service: httpbin's own document, fetched over HTTP",
          .disabled(if: HttpbinServer.unavailable != nil, "\(HttpbinServer.unavailable ?? "")"))
    func swagger() async throws {
        let httpbin = try await HttpbinServer.start()
        defer { httpbin.stop() }
        let document = try await OpenAPIDocument.load(httpbin.baseURL + "/spec.json", cacheDirectory: nil)
        #expect(document.operationCount > 40, "\(document.operationCount)")
        let registry = try EndpointRegistry { document }
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: httpbin.baseURL),
                              transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        let names = Set(registry.endpoints.map(\.name))
        #expect(names.contains("getHeaders"), "\(names.sorted())")
        // httpbin lists a TRACE /redirect-to, which was sent as a GET.
        #expect(!names.contains("traceRedirectTo"))
        #expect(document.warnings.contains("TRACE /redirect-to is left out: Typist sends GET, HEAD, POST, PUT, PATCH and DELETE"))
        #expect(try await shell.evaluate(#"getHeaders().headers["Host"] != nil"#) == .bool(true))
        // httpbin's /anything/{anything} declares no parameter for {anything}: it is one anyway.
        #expect(try await shell.evaluate(#"postAnythingByAnything(anything: "a b").url"#) == .string(httpbin.baseURL + "/anything/a%20b"))
        // /stream/n sends JSON Lines as `application/json`: the array of its values, not one long string.
        #expect(try await shell.evaluate("getStreamByN(n: 3).map { $0[\"id\"] }") == .array([.int(0), .int(1), .int(2)]))
        #expect(try await shell.evaluate(#"httpGet("/stream/2").json.count"#) == .int(2))
        // A 401 says what the service asked for, that the call sent nothing, and how to send something.
        let unauthorized = await #expect(throws: (any Error).self) { try await shell.evaluate(#"getBasicAuthByUserByPasswd(user: "u", passwd: "p")"#) }
        #expect(String(describing: unauthorized).contains(
            #"the service asks for credentials (WWW-Authenticate: Basic realm="Fake Realm"), and this call sends none (its kind is Public); the document declares no security for it: load it with --default-auth basic, then username = … and password = …"#),
            "\(String(describing: unauthorized))")
        // Loaded so, the wrong password is refused, and said so; the right one passes.
        let basic = try await OpenAPIDocument.load(httpbin.baseURL + "/spec.json", defaultAuth: "basic", cacheDirectory: nil)
        let withBasic = try Shell(registry: try EndpointRegistry { basic }, environment: try ServerEnvironment(url: httpbin.baseURL),
                                  transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        _ = try await withBasic.evaluate(#"username = "u""#)
        _ = try await withBasic.evaluate(#"password = "wrong""#)
        let refused = await #expect(throws: (any Error).self) { try await withBasic.evaluate(#"getBasicAuthByUserByPasswd(user: "u", passwd: "p")"#) }
        #expect(String(describing: refused).contains("Basic realm=\"Fake Realm\"): the user name and password sent were refused; check username and password"),
                "\(String(describing: refused))")
        _ = try await withBasic.evaluate(#"password = "p""#)
        #expect(try await withBasic.evaluate(#"getBasicAuthByUserByPasswd(user: "u", passwd: "p").authenticated"#) == .bool(true))
        // Swagger 2's `formData` parameters are a form body's fields: httpbin's own document has
        // them on `POST /redirect-to` (whose code reads only the query, so they are checked here
        // through its `/post`, which echoes the form it got).
        let redirect = try #require(registry.endpoint(named: "postRedirectTo"))
        #expect(redirect.swiftSignature == "postRedirectTo(url: String, statusCode: Any = nil) -> Endpoint<Public, Any>")
        let form = try OpenAPIDocument(text: """
            swagger: "2.0"
            info: {title: forms, version: "1"}
            paths:
              /post:
                post:
                  operationId: echo
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - {name: name, in: formData, type: string, required: true}
                    - {name: tags, in: formData, type: array, items: {type: string}}
                    - {name: count, in: formData, type: integer}
                  responses: {"200": {description: echoed, schema: {type: object}}}
              /anything/upload:
                post:
                  operationId: upload
                  consumes: [multipart/form-data]
                  parameters:
                    - {name: note, in: formData, type: string, required: true}
                    - {name: upload, in: formData, type: file, required: true}
                  responses: {"200": {description: echoed, schema: {type: object}}}
            """, name: "forms.yaml")
        #expect(form.operations.first?.arguments.map { "\($0.label) \($0.place)" } == ["name formField", "tags formField", "count formField"])
        // A `type: file` parameter makes the form multipart, the file an `UploadFile`.
        #expect(form.operations.last?.arguments.map { "\($0.label): \($0.type) \($0.place)" } == ["note: String multipartField", "upload: UploadFile multipartField"])
        #expect(form.warnings.isEmpty, "\(form.warnings)")
        let echo = try Shell(registry: try EndpointRegistry { form }, environment: try ServerEnvironment(url: httpbin.baseURL),
                             transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        // A list without a collectionFormat is csv, Swagger 2's default (ListStyleTests has the others).
        #expect(try await echo.evaluate(#"echo(name: "a b&c", tags: ["x", "y"], count: 2)["form"]"#)
            == .dictionary(["name": .string("a b&c"), "tags": .string("x,y"), "count": .string("2")]))
        try await withTemporaryFolder("typist-swagger-upload") { folder in
            let notes = folder.appendingPathComponent("notes.txt")
            try Data("first\nsecond".utf8).write(to: notes)
            _ = try await echo.evaluate("let echoed = upload(note: \"n & m\", upload: file(\(ValueFormatter.quoted(notes.path))))")
            #expect(try await echo.evaluate(#"echoed["form"]"#) == .dictionary(["note": .string("n & m")]))
            #expect(try await echo.evaluate(#"echoed["files"]"#) == .dictionary(["upload": .string("first\nsecond")]))
        }
    }

    @Test("Bodies that are not JSON: a file's bytes as the document's type (or the file's own for a range), text as a String; :curl sends the file",
          .disabled(if: HttpbinServer.unavailable != nil, "\(HttpbinServer.unavailable ?? "")"))
    func rawBodies() async throws {
        let httpbin = try await HttpbinServer.start()
        defer { httpbin.stop() }
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            info: {title: raw, version: "1"}
            paths:
              /anything/bytes:
                put:
                  operationId: putBytes
                  requestBody: {required: true, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
                  responses: {"200": {description: echoed, content: {application/json: {schema: {type: object}}}}}
              /anything/image:
                post:
                  operationId: postImage
                  requestBody: {content: {"image/*": {schema: {type: string, format: binary}}}}
                  responses: {"200": {description: echoed, content: {application/json: {schema: {type: object}}}}}
              /anything/text:
                post:
                  operationId: postText
                  requestBody: {required: true, content: {text/csv: {schema: {type: string}}}}
                  responses: {"200": {description: echoed, content: {application/json: {schema: {type: object}}}}}
              /anything/call:
                post:
                  operationId: postCall
                  requestBody:
                    required: true
                    content:
                      multipart/form-data:
                        schema: {type: object, required: [sdp], properties: {sdp: {type: string}, session: {type: object, properties: {model: {type: string}}}}}
                        encoding: {sdp: {contentType: application/sdp}, session: {contentType: application/json}}
                  responses: {"200": {description: echoed, content: {application/json: {schema: {type: object}}}}}
            """, name: "raw.yaml")
        let output = CapturedOutput()
        let shell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: httpbin.baseURL),
                              transport: AsyncHTTPClientTransport(), output: output.shellOutput)
        #expect(shell.registry.endpoint(named: "putBytes")?.swiftSignature == "putBytes(body: UploadFile) -> Endpoint<Public, [String: Any]>")
        #expect(shell.registry.endpoint(named: "postImage")?.swiftSignature == "postImage(body: UploadFile? = nil) -> Endpoint<Public, [String: Any]>")
        #expect(shell.registry.endpoint(named: "postText")?.swiftSignature == "postText(body: String) -> Endpoint<Public, [String: Any]>")
        try await withTemporaryFolder("typist-raw-bodies") { folder in
            let bytes = folder.appendingPathComponent("blob.bin")
            try Data([0, 255, 13, 10, 45, 45]).write(to: bytes)
            let picture = folder.appendingPathComponent("cat.png")
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: picture)
            #expect(try await shell.evaluate("putBytes(body: file(\(ValueFormatter.quoted(bytes.path))))[\"data\"]")
                == .string("data:application/octet-stream;base64,AP8NCi0t"))
            #expect(try await shell.evaluate("postImage(body: file(\(ValueFormatter.quoted(picture.path))))[\"headers\"][\"Content-Type\"]")
                == .string("image/png"))
            _ = try await shell.evaluate(#"let text = postText(body: "a,b\n1,2")"#)
            #expect(try await shell.evaluate(#"text["data"]"#) == .string("a,b\n1,2"))
            #expect(try await shell.evaluate(#"text["headers"]["Content-Type"]"#) == .string("text/csv"))
            // A multipart part of the type its `encoding` gives (OpenAI's WebRTC calls send an SDP offer so).
            #expect(try await shell.evaluate(#"postCall(sdp: "v=0", session: ["model": "m"])["form"]"#)
                == .dictionary(["sdp": .string("v=0"), "session": .string(#"{"model":"m"}"#)]))
            output.clear()
            _ = await shell.handle(":last")
            // (`:last` shows a multipart body part by part, its lines as a message's headers are.)
            #expect(output.standard.contains("name=\"sdp\"\nContent-Type: application/sdp\n\nv=0\n--typist-"), "\(output.standard)")
            // httpbin's CORS answer is shown as it came: no credential in it (it showed as ••••).
            #expect(output.standard.contains("Access-Control-Allow-Credentials: true"), "\(output.standard)")
            output.clear()
            // `:curl` sends the file's bytes from the file `file(_:)` read.
            _ = await shell.handle(":curl putBytes(body: file(\(ValueFormatter.quoted(bytes.path))))")
            #expect(output.standard.contains("--data-binary '@\(bytes.path)'"), "\(output.standard)")
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
                let ran = try await ProcessResult.run(["/bin/sh", "-c", output.standard])
                #expect(ran.output.contains(#""data": "data:application/octet-stream;base64,AP8NCi0t""#), "\(ran.output)")
            }
        }
    }
}

@Suite("Documents that cannot be used")
struct OpenAPIRefusalTests {
    private func refusal(_ text: String) -> String? {
        do {
            _ = try OpenAPIDocument(text: text, name: "bad.yaml")
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test("Plain YAML scalars resolve by the core schema; quoted ones are strings")
    func scalars() throws {
        let node = try SpecNode.parse("""
            a: 3.0.0
            b: 3.1
            c: "3.1"
            d: true
            e: 'true'
            f: ~
            g: 0x1F
            h: -12
            i: 1e3
            j: .5
            k: yes
            l: 200
            """, name: "s")
        #expect(node["a"]?.string == "3.0.0")
        guard case .number(3.1)? = node["b"], case .string("3.1")? = node["c"], case .bool(true)? = node["d"],
              case .string("true")? = node["e"], case .null? = node["f"], case .number(31)? = node["g"],
              case .number(-12)? = node["h"], case .number(1000)? = node["i"], case .number(0.5)? = node["j"],
              case .string("yes")? = node["k"], case .number(200)? = node["l"]
        else {
            Issue.record("\(node)")
            return
        }
    }

    @Test("Malformed, too deep, not OpenAPI, another version: one line each, never a crash")
    func refusals() {
        #expect(refusal("openapi: 3.0.0\npaths: [1,2\n")?.hasPrefix("not YAML or JSON: ") == true)
        let deep = refusal(String(repeating: "[", count: 100_000)) ?? ""
        #expect(deep.hasPrefix("not YAML or JSON: "), "\(deep)")
        #expect(deep.count < 300, "\(deep.count)")
        #expect(refusal("- 1\n- 2\n") == "not an OpenAPI document (its top level is not an object)")
        #expect(refusal("title: x\n") == "not an OpenAPI document: it has no 'openapi' or 'swagger' version")
        #expect(refusal("openapi: 4.0.0\n") == "it is OpenAPI 4.0.0; Typist reads 3.0, 3.1 and Swagger 2.0")
        #expect(refusal("openapi: 3.0.0\n") == nil)
    }

    @Test("A dangling $ref, a form body and a scheme Typist cannot send are warnings that name them")
    func warnings() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.0
            servers:
              - url: http://127.0.0.1:{port}
              - url: https://api.example.com/v1/
            components:
              securitySchemes:
                mtls: { type: mutualTLS }
            paths:
              /x:
                post:
                  operationId: x
                  requestBody:
                    content:
                      application/x-www-form-urlencoded:
                        schema: { type: array, items: { type: string } }
                  responses:
                    "200":
                      content:
                        application/json:
                          schema: { $ref: "#/components/schemas/Missing" }
              /y:
                options:
                  operationId: y
                  responses: { "204": { description: none } }
              /z/{zid}/items/{item}:
                get:
                  operationId: z
                  parameters:
                    - { name: limit, in: query, schema: { type: integer } }
                    - { name: item, in: path, required: true, schema: { type: integer } }
                  responses: { "204": { description: none } }
            """, name: "w.yaml")
        // A path template no parameter declares (httpbin has them): a String argument after the
        // declared path parameters, said; without it the function could not be called.
        #expect(document.warnings.contains("z: the path's {zid} has no parameter in the document: it is a String argument"))
        let z = try #require(document.operations.first { $0.name == "z" })
        #expect(z.arguments.map(\.label) == ["limit", "item", "zid"])
        #expect(z.arguments[2].place == .path && z.arguments[2].type == .string && z.arguments[2].defaultValue == nil)
        // An endpoint cannot send OPTIONS (or TRACE): sent as a GET, its answer would be another operation's.
        #expect(document.warnings.contains("OPTIONS /y is left out: Typist sends GET, HEAD, POST, PUT, PATCH and DELETE"))
        #expect(document.operationCount == 2)
        #expect(document.warnings.contains("$ref '#/components/schemas/Missing' points at nothing in the document: it is Any here"))
        #expect(document.warnings.contains("x: its application/x-www-form-urlencoded body is sent as JSON from `body:` (its fields are not an object Typist can send)"))
        #expect(document.warnings.contains("security schemes Typist cannot send are left out: mtls"))
        // A server with a variable that has no default is left out, said; the next is the default.
        #expect(document.warnings.contains("the server 'http://127.0.0.1:{port}' is not a URL Typist can send to: left out"))
        #expect(document.servers == ["https://api.example.com/v1"])
    }

    @Test("Servers relative to where the document came from: a path, an empty URL (Connexion's: the document's folder), none at all (the origin)",
          arguments: [
              ("[{url: /api}]", "http://127.0.0.1:9/api"), ("[{url: ''}]", "http://127.0.0.1:9/v1"), ("[{url: './'}]", "http://127.0.0.1:9/v1"),
              ("[]", "http://127.0.0.1:9"),
          ])
    func relativeServers(servers: String, expected: String) throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            servers: \(servers)
            paths:
              /pets: { get: { operationId: pets, responses: { "200": { description: x } } } }
            """, name: "s.yaml", baseURL: URL(string: "http://127.0.0.1:9/v1/openapi.json"))
        #expect(document.servers == [expected])
    }

    @Test("A schema sent and answered is one type by its own name (Pet, not Pet2); one with a read-only field somewhere is ThingInput when sent")
    func directions() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            paths:
              /pet:
                post:
                  operationId: addPet
                  requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
                  responses: { "200": { description: x, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } } }
              /thing:
                post:
                  operationId: addThing
                  requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
                  responses: { "200": { description: x, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } } }
            components:
              schemas:
                Tag: { type: object, properties: { name: { type: string } } }
                Pet: { type: object, properties: { name: { type: string }, tags: { type: array, items: { $ref: '#/components/schemas/Tag' } }, parent: { $ref: '#/components/schemas/Pet' } } }
                Stamp: { type: object, properties: { at: { type: string, readOnly: true } } }
                Thing: { type: object, properties: { name: { type: string }, stamp: { $ref: '#/components/schemas/Stamp' } } }
            """, name: "d.yaml")
        let types = Dictionary(uniqueKeysWithValues: document.operations.map { ($0.name, $0.responseType.description) })
        #expect(types == ["addPet": "Pet", "addThing": "Thing"])
        #expect(Set(document.recordTypes.map(\.name)) == ["Tag", "Pet", "Stamp", "StampInput", "Thing", "ThingInput"])
    }

    @Test("An untyped request's route: the longest template that fits, literal segments before parameters, a base path allowed")
    func routes() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.1.0
            paths:
              /comments: { get: { operationId: allComments, responses: { "200": { description: x } } } }
              /users/{id}: { get: { operationId: user, responses: { "200": { description: x } } } }
              /users/me: { get: { operationId: me, responses: { "200": { description: x } } } }
              /posts/{postId}/comments: { get: { operationId: comments, responses: { "200": { description: x } } } }
            """, name: "r.yaml")
        let registry = try EndpointRegistry { document }
        #expect(registry.endpoint(routing: "GET", "/posts/2/comments")?.name == "comments")
        #expect(registry.endpoint(routing: "get", "/users/me")?.name == "me")
        #expect(registry.endpoint(routing: "GET", "/users/7")?.name == "user")
        #expect(registry.endpoint(routing: "GET", "/api/v3/users/7")?.name == "user")
        #expect(registry.endpoint(routing: "POST", "/users/7") == nil)
        #expect(registry.endpoint(routing: "GET", "/users") == nil)
    }

    @Test("x-typist-label, -envelope and -token: the label, the value inside, the token kept; a name the response lacks is a warning")
    func typistExtensions() async throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.1.0
            paths:
              /login:
                get:
                  operationId: signIn
                  x-typist-envelope: data
                  x-typist-token: access_token
                  parameters:
                    - { name: u, in: query, required: true, x-typist-label: user, schema: { type: string } }
                  responses:
                    "200":
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              data:
                                type: object
                                required: [access_token]
                                properties: { access_token: { type: string }, ttl: { type: integer } }
              /other:
                get:
                  operationId: other
                  x-typist-envelope: result
                  x-typist-token: token
                  responses:
                    "200":
                      content:
                        application/json:
                          schema: { type: object, properties: { data: { type: integer } } }
            """, name: "x.yaml")
        let registry = try EndpointRegistry { document }
        let signIn = try #require(registry.endpoint(named: "signIn"))
        #expect(signIn.parameters.map(\.label) == ["user"])
        #expect(signIn.producesToken)
        #expect(signIn.swiftSignature == "signIn(user: String) -> Endpoint<Public, SignInResponseData>")
        let other = try #require(registry.endpoint(named: "other"))
        #expect(!other.producesToken)
        #expect(document.warnings.contains("other: x-typist-envelope names a field the response's OtherResponse does not have; left out"),
                "\(document.warnings)")
        #expect(document.warnings.contains("other: x-typist-token names a String field the response's OtherResponse does not have; left out"),
                "\(document.warnings)")
        // Called: the value inside the envelope, its token kept by the session, sent as `u`.
        let operation = try #require(document.operations.first { $0.name == "signIn" })
        let value = try SpecEndpoint.value(of: Data(#"{"data":{"access_token":"s3cret-token","ttl":60}}"#.utf8), operation: operation, path: "/login", validation: nil)
        guard case .record(let record) = value else {
            Issue.record("expected a record, got \(value)")
            return
        }
        #expect(record["accessToken"] == .string("s3cret-token"))
        #expect(throws: SpecResponseError.self) {
            try SpecEndpoint.value(of: Data(#"{"access_token":"x"}"#.utf8), operation: operation, path: "/login", validation: nil)
        }
        let request = try SpecRequest(operation, [.string("ada")])
        #expect(request.query == [URLQueryItem(name: "u", value: "ada")])
    }
}

@Suite("JSON Schema as the type model")
struct SchemaTypesTests {
    private func types(_ yaml: String) throws -> (SchemaTypes, SpecNode) {
        let node = try SpecNode.parse(yaml, name: "test")
        return (SchemaTypes(document: node), node)
    }

    private func record(_ type: ScriptType) -> RecordType? {
        if case .record(let record) = type.unwrapped { return record }
        return nil
    }

    @Test("allOf merges; readOnly and writeOnly follow the direction; nullable (3.0) and type arrays (3.1) are optional")
    func objects() throws {
        var (model, node) = try types("""
            components:
              schemas:
                Base: { type: object, required: [id], properties: { id: { type: integer, readOnly: true }, secret: { type: string, writeOnly: true } } }
                Pet:
                  allOf:
                    - $ref: '#/components/schemas/Base'
                    - type: object
                      required: [name]
                      properties:
                        name: { type: string }
                        tag: { type: string, nullable: true }
                        age: { type: [integer, "null"] }
                        photo: { type: string, format: binary }
                        born: { type: string, format: date-time }
                        size: { type: integer, format: int64 }
            """)
        let schema = try #require(node["components"]?["schemas"]?["Pet"])
        let response = try #require(record(model.type(of: schema, name: "Pet", direction: .response)))
        #expect(response.fields.map(\.name) == ["id", "name", "tag", "age", "photo", "born", "size"])
        #expect(response.fields.map(\.type) == [.int, .string, .optional(.string), .optional(.int), .optional(.bytes), .optional(.string), .optional(.int)])
        let request = try #require(record(model.type(of: schema, name: "Pet", direction: .request)))
        #expect(request.fields.map(\.name) == ["secret", "name", "tag", "age", "photo", "born", "size"])
    }

    @Test("oneOf with a discriminator is one record whose variant-only fields are optional; unrelated unions and {} are Any")
    func unions() throws {
        var (model, _) = try types("""
            components:
              schemas:
                Cat: { type: object, required: [kind, lives], properties: { kind: { type: string }, lives: { type: integer } } }
                Dog: { type: object, required: [kind, bark], properties: { kind: { type: string }, bark: { type: boolean } } }
            """)
        let union = try SpecNode.parse("""
            oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
            discriminator: { propertyName: kind }
            """, name: "union")
        let pet = try #require(record(model.type(of: union, name: "Pet", direction: .response)))
        #expect(pet.fields.map(\.name) == ["kind", "lives", "bark"])
        #expect(pet.fields.map(\.type) == [.string, .optional(.int), .optional(.bool)])
        #expect(model.type(of: try SpecNode.parse("oneOf: [{ type: string }, { type: integer }]", name: "u"), name: "U", direction: .response) == .any)
        #expect(model.type(of: try SpecNode.parse("{}", name: "e"), name: "E", direction: .response) == .any)
        #expect(model.type(of: try SpecNode.parse("anyOf: [{ type: string }, { type: 'null' }]", name: "n"), name: "N", direction: .response)
                == .optional(.string))
        #expect(model.type(of: try SpecNode.parse("{ type: object, additionalProperties: { type: integer } }", name: "d"), name: "D", direction: .response)
                == .dictionary(.int))
    }

    @Test("A schema that refers to itself is a record that contains itself; an external $ref is Any with a warning")
    func recursion() throws {
        var (model, node) = try types("""
            components:
              schemas:
                Node:
                  type: object
                  properties:
                    children: { type: array, items: { $ref: '#/components/schemas/Node' } }
                    elsewhere: { $ref: 'other.yaml#/Thing' }
            """)
        _ = node
        let reference = try SpecNode.parse("$ref: '#/components/schemas/Node'", name: "ref")
        let tree = try #require(record(model.type(of: reference, name: "Node", direction: .response)))
        guard case .optional(.array(.record(let child)))? = tree.field(named: "children")?.type else {
            Issue.record("\(tree)")
            return
        }
        #expect(child === tree)
        #expect(tree.field(named: "elsewhere")?.type == .any)
        #expect(model.warnings.contains { $0.contains("other.yaml#/Thing") })
    }
}
