import DemoService
import Foundation
import Testing
import TypistTesting
import APIScript
import TypedAPI
import TypedAPITesting
@testable import TypistCore
@testable import TypistOpenAPI

/// `typist generate`: the Swift a team would ship for a document, which compiles, is the same
/// every time, and `--check` keeps honest.
@Suite("typist generate")
struct GenerateTests {
    /// Type-checks Swift files (generated code) against the modules this build made.
    static func typecheck(_ paths: [String]) async throws -> ProcessResult {
        let modules = try Built.executable("typist").deletingLastPathComponent().appendingPathComponent("Modules").path
        let root = Built.packageRoot.path
        return try await ProcessResult.run(["swiftc", "-typecheck", "-swift-version", "6", "-I", modules,
                                            "-I", root + "/Sources/CReadline", "-I", root + "/Sources/CTypistPlatform"] + paths)
    }

    /// Type-checks every Swift file under `folder` (what `generate` wrote there).
    static func typecheck(folder: URL) async throws -> ProcessResult {
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        return try await typecheck(files.map { folder.appendingPathComponent($0).path })
    }

    /// The demo service's document in a file of `folder`.
    private static func document(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("openapi.yaml")
        try SpecFixture.document.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test("Models, Endpoint factories and Register lines that type-check against TypedAPI and Typist")
    func compiles() async throws {
        try await withTemporaryFolder("typist-generate") { base in
            let folder = base.appendingPathComponent("out")
            let document = try Self.document(in: base)
            let written = try await Built.run("typist", ["generate", "--openapi", document, "--output", folder.path], environment: ["XDG_CACHE_HOME": base.path])
            #expect(written.status == 0, "\(written.error)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            #expect(files.contains("Models/Post.swift"))
            #expect(files.contains("Models/Repository.swift"))
            let endpoints = try String(contentsOf: folder.appendingPathComponent("Endpoints.swift"), encoding: .utf8)
            #expect(endpoints.contains("extension Endpoint where Kind == Bearer, Response == SearchResponse {"))
            #expect(endpoints.contains("public static func getPost(id: Int) -> Self {"))
            #expect(endpoints.contains("public static func searchRepositories(q: String, sort: SearchRepositoriesSort? = nil, perPage: Int = 30, page: Int = 1) -> Self {"))
            #expect(endpoints.contains("if let sort { query.append(URLQueryItem(name: \"sort\", value: sort.rawValue)) }"))
            #expect(files.contains("Models/SearchRepositoriesSort.swift"))
            let repository = try String(contentsOf: folder.appendingPathComponent("Models/Repository.swift"), encoding: .utf8)
            #expect(repository.contains("public struct Repository: Codable, Sendable {"))
            #expect(repository.contains("        case fullName = \"full_name\"\n"))
            // Type-checked against the modules this build made.
            let checked = try await Self.typecheck(files.map { folder.appendingPathComponent($0).path })
            #expect(checked.status == 0, "\(checked.output)")
        }
    }

    @Test("Every construct the reader knows generates Swift that type-checks: keywords as names, recursion, unions, dictionaries, a whole JSON body, headers, arrays, enums")
    func constructs() async throws {
        try await withTemporaryFolder("typist-generate-constructs") { folder in
            let text = """
                openapi: 3.1.0
                info: { title: Constructs, version: "1" }
                security: [{ key: [] }]
                components:
                  securitySchemes:
                    key: { type: apiKey, in: header, name: X-Key }
                  parameters:
                    direction: { name: direction, in: query, schema: { type: string, enum: [asc, desc], default: asc } }
                    order: { name: order, in: query, schema: { type: string, enum: [new, old] } }
                  schemas:
                    Color: { type: string, enum: [red, green] }
                    Order: { type: string, enum: [first, last] }
                    Node:
                      type: object
                      required: [self, class]
                      properties:
                        self: { type: string }
                        class: { type: integer }
                        children: { type: array, items: { $ref: '#/components/schemas/Node' } }
                        labels: { type: object, additionalProperties: { type: string } }
                        extra: {}
                        note: { type: [string, "null"] }
                    Pet:
                      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
                    Cat: { type: object, required: [lives], properties: { lives: { type: integer } } }
                    Kind: { type: string, enum: [book, film] }
                    Response: { type: object, properties: { ok: { type: boolean } } }
                    Tree:
                      type: object
                      required: [name]
                      properties:
                        name: { type: string }
                        parent: { $ref: '#/components/schemas/Tree' }
                        first: { $ref: '#/components/schemas/Branch' }
                    Branch: { type: object, properties: { tree: { $ref: '#/components/schemas/Tree' } } }
                    Dog:
                      allOf:
                        - $ref: '#/components/schemas/Node'
                        - { type: object, properties: { bark: { type: boolean } } }
                paths:
                  /nodes/{node-id}:
                    put:
                      operationId: put-node
                      parameters:
                        - { name: node-id, in: path, required: true, schema: { type: string } }
                        - { name: X-Trace, in: header, schema: { type: string } }
                        - { name: tags, in: query, schema: { type: array, items: { type: string } } }
                        - { name: level, in: query, schema: { type: integer, enum: [1, 2] } }
                        - { name: state, in: query, schema: { type: string, enum: [in-progress, done], default: done } }
                        - $ref: '#/components/parameters/direction'
                        - { name: color, in: query, schema: { $ref: '#/components/schemas/Color' } }
                        - { name: order, in: query, schema: { type: string, enum: [new, old, any] } }
                        - { name: rank, in: query, schema: { $ref: '#/components/schemas/Order' } }
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: { $ref: '#/components/schemas/Node' }
                      responses:
                        "200": { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Node' } } } }
                  /pets:
                    get:
                      operationId: pets
                      parameters:
                        - $ref: '#/components/parameters/direction'
                        - { name: tint, in: query, schema: { $ref: '#/components/schemas/Color' } }
                        - $ref: '#/components/parameters/order'
                      responses:
                        "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
                    delete:
                      responses:
                        "204": { description: gone }
                  /trees:
                    get:
                      operationId: trees
                      parameters:
                        - { name: kind, in: query, schema: { anyOf: [{ $ref: '#/components/schemas/Kind' }, { type: "null" }] } }
                      responses:
                        "200": { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Tree' } } } }
                    post:
                      operationId: plant
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: { type: object, required: [kind], properties: { kind: { $ref: '#/components/schemas/Kind' }, name: { type: string } } }
                      responses:
                        "200": { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Response' } } } }
                  /uploads:
                    post:
                      operationId: upload
                      requestBody:
                        required: true
                        content:
                          multipart/form-data:
                            schema:
                              type: object
                              required: [file, meta]
                              properties:
                                file: { type: string, format: binary }
                                more: { type: array, items: { type: string, contentMediaType: image/png } }
                                meta: { type: object, properties: { a: { type: integer } } }
                                sdp: { type: string }
                                shade: { $ref: '#/components/schemas/Color' }
                                counts: { type: array, items: { type: integer } }
                            encoding: { sdp: { contentType: application/sdp } }
                      responses: { "204": { description: done } }
                  /nodes:
                    post:
                      operationId: putNodes
                      requestBody:
                        required: true
                        content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Node' } } } }
                      responses: { "204": { description: done } }
                  /login:
                    post:
                      operationId: formLogin
                      requestBody:
                        required: true
                        content: { application/x-www-form-urlencoded: { schema: { type: object, additionalProperties: { type: string } } } }
                      responses: { "204": { description: done } }
                  /settings:
                    post:
                      operationId: formSettings
                      requestBody:
                        content: { application/x-www-form-urlencoded: { schema: { type: object } } }
                      responses: { "204": { description: done } }
                  /attachments:
                    post:
                      operationId: attach
                      requestBody:
                        content:
                          multipart/form-data:
                            schema: { type: object, additionalProperties: { type: array, items: { type: string, format: binary } } }
                      responses: { "204": { description: done } }
                  /search:
                    get:
                      operationId: searchThings
                      parameters: [{ name: filter, in: query, schema: { type: object, properties: { a: { type: integer } } } }]
                      responses: { "204": { description: done } }
                  /raw/{id}:
                    put:
                      operationId: putRaw
                      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
                      requestBody: { required: true, content: { application/pdf: { schema: { type: string, format: binary } } } }
                      responses: { "204": { description: done } }
                    post:
                      operationId: postPicture
                      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
                      requestBody: { content: { image/*: { schema: { type: string, format: binary } } } }
                      responses: { "204": { description: done } }
                    patch:
                      operationId: patchNotes
                      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
                      requestBody: { required: true, content: { text/markdown: { schema: { type: string } } } }
                      responses: { "204": { description: done } }
                """
            let document = try OpenAPIDocument(text: text, name: "constructs.yaml")
            let files = SwiftGenerator(document: document).files()
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.text.write(to: url, atomically: true, encoding: .utf8)
            }
            let endpoints = try #require(files.first { $0.path == "Endpoints.swift" }).text
            #expect(endpoints.contains("public static func putNode(nodeId: String, xTrace: String? = nil, tags: [String]? = nil, level: Int? = nil, state: PutNodeState = .done, direction: Direction = .asc, color: Color? = nil, order: PutNodeOrder? = nil, rank: PutNodeRank? = nil, `self`: String, `class`: Int, children: JSONValue? = nil, labels: [String: String]? = nil, extra: JSONValue? = nil, note: String? = nil) -> Self {"), "\(endpoints)")
            // A body that is not an object is one argument; a form or multipart body of a map sends its entries.
            #expect(endpoints.contains("public static func putNodes(body: JSONValue) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("public static func formLogin(body: [String: String]) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("for (key, value) in body.sorted(by: { $0.key < $1.key }) { form.append(URLQueryItem(name: key, value: String(describing: value))) }"), "\(endpoints)")
            #expect(endpoints.contains("public static func formSettings(body: [String: JSONValue]? = nil) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("for (key, value) in (body ?? [:]).sorted(by: { $0.key < $1.key }) { if let text = jsonText(value)"), "\(endpoints)")
            #expect(endpoints.contains("public static func attach(body: [String: [UploadFile]]? = nil) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("for (key, value) in (body ?? [:]).sorted(by: { $0.key < $1.key }) { for item in value { parts.append(.file(key, item)) } }"), "\(endpoints)")
            // A parameter declared once (or an enum schema) is one type for every operation that takes it;
            // a name whose uses allow different values stays each operation's own.
            #expect(endpoints.contains("public static func pets(direction: Direction = .asc, tint: Color? = nil, order: PetsOrder? = nil) -> Self {"), "\(endpoints)")
            #expect(files.filter { $0.path == "Models/Direction.swift" || $0.path == "Models/Color.swift" }.count == 2)
            #expect(!files.contains { $0.path == "Models/Order.swift" })
            let registry = try EndpointRegistry { document }
            let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: InMemoryTransport(), output: CapturedOutput().shellOutput)
            #expect(try shell.interpreter.staticType(of: "pets(direction: .desc)").get() != .unknown)
            #expect(shell.check(ScriptSource(name: "p.api", text: "pets(direction: .sideways)")).contains { $0.message.contains("Direction") })
            #expect(endpoints.contains("extension Endpoint where Kind == APIKey, Response == Void {"))
            // Schemas named as Endpoint's generic parameters (FastAPI's documents have them) get
            // `Model` after their names: in `extension Endpoint where Kind == …`, `Kind` is the parameter.
            #expect(endpoints.contains("public static func trees(kind: KindModel? = nil) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("public static func plant(kind: KindModel, name: String? = nil) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains("extension Endpoint where Kind == APIKey, Response == ResponseModel {"), "\(endpoints)")
            // A record that holds itself outside an array (directly, or through another) is a final class.
            let tree = try #require(files.first { $0.path == "Models/Tree.swift" }).text
            #expect(tree.contains("public final class Tree: Codable, Sendable {") && tree.contains("    public let parent: Tree?"), "\(tree)")
            #expect(try #require(files.first { $0.path == "Models/Branch.swift" }).text.contains("public final class Branch"))
            // One that holds itself only in an array stays a struct.
            #expect(files.contains { $0.text.contains("public struct Node") }, "\(files.map(\.path))")
            // Uploads: a multipart body's parts, a file's bytes, text.
            #expect(endpoints.contains("public static func upload(file: UploadFile, more: [UploadFile]? = nil, meta: JSONValue?, sdp: String? = nil, shade: Color? = nil, counts: [Int]? = nil) -> Self {"), "\(endpoints)")
            #expect(endpoints.contains(#"if let sdp { parts.append(.text("sdp", String(describing: sdp), contentType: "application/sdp")) }"#), "\(endpoints)")
            #expect(endpoints.contains(#"if let shade { parts.append(.text("shade", shade.rawValue)) }"#), "\(endpoints)")
            #expect(endpoints.contains(#"return Endpoint(.put(RequestBody.data(body.data, contentType: "application/pdf")), path: "#), "\(endpoints)")
            #expect(endpoints.contains(#"body.map { RequestBody.data($0.data, contentType: $0.contentType) } ?? .data(Data())"#), "\(endpoints)")
            #expect(endpoints.contains(#"RequestBody.text(body, contentType: "text/markdown")"#), "\(endpoints)")
            let registrations = try #require(files.first { $0.path == "Registrations.swift" }).text
            #expect(registrations.contains(#"Parameter<UploadFile>("file"), Parameter<[UploadFile]?>("more")"#), "\(registrations)")
            // A query argument of any JSON goes as its text, as the shell sends it (it went as `Optional(…)`).
            #expect(endpoints.contains(#"if let filter { if let text = jsonText(filter) { query.append(URLQueryItem(name: "filter", value: text)) } }"#), "\(endpoints)")
            #expect(endpoints.contains("private func jsonText(_ value: JSONValue) -> String? {"))
            let checked = try await Self.typecheck(files.map { folder.appendingPathComponent($0.path).path })
            #expect(checked.status == 0, "\(checked.output)")
        }
    }

    @Test("The document's rules for arguments are in the factory's documentation, each on a comment line whatever it holds")
    func rulesDocumented() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            paths:
              /pets:
                get:
                  operationId: pets
                  parameters:
                    - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
                    - { name: tag, in: query, schema: { type: string, pattern: "^a\\nb$" } }
                  responses: { "200": { description: x } }
              /pet:
                get:
                  operationId: pet
                  parameters: [{ name: id, in: query, required: true, schema: { type: integer, exclusiveMinimum: true, minimum: 0 } }]
                  responses: { "200": { description: x } }
            """, name: "rules.yaml")
        let endpoints = try #require(SwiftGenerator(document: document).files().first { $0.path == "Endpoints.swift" }).text
        #expect(endpoints.contains("""
                ///
                /// - Parameters:
                ///   - limit: 1...50
                ///   - tag: pattern ^a\\nb$
                ///
                /// These are the document's rules, which the service checks.
                public static func pets(
            """), "\(endpoints)")
        #expect(endpoints.contains("    /// - Parameter id: > 0 (the document's rule, which the service checks)\n    public static func pet(id: Int) -> Self {"),
                "\(endpoints)")
    }

    @Test("The same document gives the same bytes; --check fails, naming the file, once one differs")
    func deterministic() async throws {
        try await withTemporaryFolder("typist-generate-check") { base in
            let folder = base.appendingPathComponent("out")
            let document = try Self.document(in: base)
            let loaded = try await OpenAPIDocument.load(document, cacheDirectory: nil)
            #expect(SwiftGenerator(document: loaded).files() == SwiftGenerator(document: try await OpenAPIDocument.load(document, cacheDirectory: nil)).files())
            _ = try await Built.run("typist", ["generate", "--openapi", document, "--output", folder.path], environment: ["XDG_CACHE_HOME": base.path])
            let clean = try await Built.run("typist", ["generate", "--openapi", document, "--output", folder.path, "--check"], environment: ["XDG_CACHE_HOME": base.path])
            #expect(clean.status == 0, "\(clean.error)")
            let post = folder.appendingPathComponent("Models/Post.swift")
            try (try String(contentsOf: post, encoding: .utf8) + "// edited\n").write(to: post, atomically: true, encoding: .utf8)
            let stale = try await Built.run("typist", ["generate", "--openapi", document, "--output", folder.path, "--check"], environment: ["XDG_CACHE_HOME": base.path])
            #expect(stale.status == 1)
            #expect(stale.error.contains("Models/Post.swift"), "\(stale.error)")
            // What `:swift` shows for one operation type-checks, with a call of it.
            let program = folder.appendingPathComponent("one.swift")
            try ("import Foundation\nimport TypedAPI\n\n" + SwiftGenerator(document: loaded, operations: ["searchRepositories"]).declarations()
                 + "\n\nlet endpoint: Endpoint<Public, RepositorySearch> = .searchRepositories(q: \"swift\", sort: .stars)\n")
                .write(to: program, atomically: true, encoding: .utf8)
            let modules = try Built.executable("typist").deletingLastPathComponent().appendingPathComponent("Modules").path
            let checked = try await ProcessResult.run(["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, program.path])
            #expect(checked.status == 0, "\(checked.output)")
            // Filtering keeps the schemas the chosen operations need.
            let one = SwiftGenerator(document: loaded, operations: ["getPost"]).files().map(\.path)
            #expect(one == ["Endpoints.swift", "Models/Post.swift", "Registrations.swift"])
        }
    }
}
