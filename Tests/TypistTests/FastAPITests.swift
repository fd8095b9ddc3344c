import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// An API written with FastAPI, the most used Python framework for them, read through the OpenAPI
/// 3.1 document FastAPI generates — nothing in it written for Typist.
@Suite("A FastAPI service through its own document", .enabled(if: FastAPIServer.unavailable == nil, "\(FastAPIServer.unavailable ?? "")"))
struct FastAPITests {
    @Test("Its document names no server: requests go where it came from; enums, optionals, bearer security, its rules checked, 422s read, a model that holds itself")
    func calls() async throws {
        let server = try await FastAPIServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        // No `servers`: OpenAPI's default is `/`, the service that published the document.
        #expect(document.servers == [server.baseURL])
        #expect(document.warnings == ["'Kind' is the type KindModel here: Kind is a name the generated Swift uses for something else"])
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // `kind: Optional[Kind]` is `anyOf [Kind, null]`: the enum's cases, checked before anything is sent.
        #expect(try await shell.evaluate("listItemsItemsGet(kind: .book).map(\\.name)") == .array([.string("Dune"), .string("Dune Messiah")]))
        let refused = shell.check(ScriptSource(name: "k.api", text: "listItemsItemsGet(kind: .tv)"))
        #expect(refused.contains { $0.message == "type 'KindModel' has no member 'tv'" }, "\(refused.map(\.message))")
        #expect(try await shell.evaluate("getItemItemsItemIdGet(itemId: 2).parent?.tags?.map(\\.name)") == .array([.string("sf")]))
        // `Query(ge=1)` is `minimum: 1` in its document: refused before anything runs, the service's own rule.
        let invalid = shell.check(ScriptSource(name: "l.api", text: "listItemsItemsGet(limit: 0)")).map(\.message)
        #expect(invalid == ["limit must be at least 1 (the document's minimum), not 0 (httpGet(…) sends values the document rules out)"], "\(invalid)")
        #expect(try await shell.evaluate("httpGet(\"/items\", query: [\"limit\": \"0\"]).status") == .int(422))
        // HTTP bearer security: refused before the network without a token; a wrong one is said to be refused.
        let unsent = shell.check(ScriptSource(name: "c.api", text: "createItemItemsPost(name: \"Solaris\", kind: .film)"))
        #expect(unsent.contains { $0.message.contains("needs an access token") }, "\(unsent.map(\.message))")
        _ = try await shell.evaluate("token = \"wrong\"")
        let wrong = await #expect(throws: (any Error).self) { try await shell.evaluate("createItemItemsPost(name: \"Solaris\", kind: .film)") }
        #expect(String(describing: wrong).contains("the service asks for credentials (WWW-Authenticate: Bearer): the token sent was refused"),
                "\(String(describing: wrong))")
        _ = try await shell.evaluate("token = \"secret-token\"")
        // A rule the document cannot state (a validator): FastAPI answers 422 with what was wrong,
        // shown as it came, then read — the argument each problem is about, and what the service got.
        let lower = await #expect(throws: (any Error).self) { try await shell.evaluate("createItemItemsPost(name: \"solaris\", kind: .film)") }
        let said = String(describing: lower)
        #expect(said.contains("422") && said.contains(#"{"detail":[{"type":"value_error","loc":["body","name"]"#), "\(said)")
        #expect(said.contains("\nnote: the service refused 'name' (body.name): Value error, must start with a capital letter (it got \"solaris\")"),
                "\(said)")
        #expect(try await shell.evaluate("createItemItemsPost(name: \"Solaris\", kind: .film, price: 7).kind") == .string("film"))
        // A 429 says how long to wait.
        let limited = await #expect(throws: (any Error).self) { try await shell.evaluate("limitedLimitedGet()") }
        #expect(String(describing: limited).contains("429")
                && String(describing: limited).contains("\nnote: the service limits how often it is called: wait 2 min before calling again (retry-after: 120)"),
                "\(String(describing: limited))")
        #expect(!output.all.contains("secret-token"))
    }

    @Test("Its OAuth 2 password flow: the token endpoint takes a form, its access_token is the session's token, and :curl of it runs")
    func passwordFlow() async throws {
        let server = try await FastAPIServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // `OAuth2PasswordRequestForm`: an `application/x-www-form-urlencoded` body, its fields labels.
        #expect(shell.registry.endpoint(named: "loginTokenPost")?.swiftSignature
            == "loginTokenPost(grantType: String? = nil, username: String, password: String, scope: String? = nil, clientId: String? = nil, clientSecret: String? = nil) -> Endpoint<Public, Token>")
        // Before it, the protected call is refused, and the note names the call that gives a token.
        _ = await shell.handle("meUsersMeGet()")
        #expect(output.error.contains("note: or call `loginTokenPost(username: …, password: …)`, which answers with a token the session keeps"), "\(output.error)")
        // A password with a space and an `&`: sent form-encoded, the answer's token kept.
        let password = "lovelace & co"
        _ = try await shell.evaluate("loginTokenPost(username: \"ada\", password: \"\(password)\")")
        output.clear()
        _ = await shell.handle(":last")
        #expect(output.standard.contains("Content-Type: application/x-www-form-urlencoded\n\nusername=ada&password=••••\n"), "\(output.standard)")
        #expect(try await shell.evaluate("meUsersMeGet().username") == .string("ada"))
        // `:curl` of the login reads the password from the environment and has curl encode it.
        output.clear()
        _ = await shell.handle(":curl loginTokenPost(username: \"ada\", password: \"\(password)\")")
        let command = output.standard
        #expect(command.contains(#"--data-urlencode "password=${TYPIST_PASSWORD}""#) && !command.contains("lovelace"), "\(command)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
            let ran = try await ProcessResult.run(["/bin/sh", "-c", command], environment: ["TYPIST_PASSWORD": password])
            #expect(ran.output.contains(#""access_token":"fastapi-token-ada""#), "\(ran.output)")
        }
        #expect(!output.all.contains("lovelace"))
    }

    @Test("Its uploads: a multipart body's files (one, and a list) and fields are labels, sent as FastAPI reads them; :curl of it runs")
    func uploads() async throws {
        let server = try await FastAPIServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // FastAPI's `UploadFile` is OpenAPI 3.1's `contentMediaType`; a list of them, files.
        #expect(shell.registry.endpoint(named: "uploadUploadsPost")?.swiftSignature
            == "uploadUploadsPost(file: UploadFile, note: String, tags: [String]? = nil, extras: [UploadFile]? = nil) -> Endpoint<Public, Upload>")
        try await withTemporaryFolder("typist-uploads") { folder in
            let report = folder.appendingPathComponent("report.csv")
            try Data("a,b\n1,2\n".utf8).write(to: report)
            let binary = folder.appendingPathComponent("two parts; \"odd\".bin")
            try Data([0, 255, 13, 10, 45, 45]).write(to: binary)
            let call = "uploadUploadsPost(file: file(\(ValueFormatter.quoted(report.path))), note: \"a & b; \\\"c\\\"\", tags: [\"x\", \"y z\"], "
                + "extras: [file(\(ValueFormatter.quoted(binary.path)))])"
            let answer = try await shell.evaluate(call)
            guard case .record(let upload) = answer else {
                Issue.record("expected an Upload, got \(answer)")
                return
            }
            // A `"` in a file's name goes as `%22`, as browsers and curl send it (python-multipart keeps the escape).
            #expect(upload.values == [.string("report.csv"), .string("text/csv"), .int(8), .string("a,b"), .string(#"a & b; "c""#),
                                      .array([.string("x"), .string("y z")]), .array([.string("two parts; %22odd%22.bin:6")])])
            // A file is checked as one: text is not a file.
            let refused = shell.check(ScriptSource(name: "u.api", text: "uploadUploadsPost(file: \"report.csv\", note: \"n\")")).map(\.message)
            #expect(refused.contains { $0.contains("UploadFile") }, "\(refused)")
            // `:curl` sends each file from where `file(_:)` read it, each field's text as it is.
            output.clear()
            _ = await shell.handle(":curl " + call)
            let command = output.standard
            #expect(command.contains("-F 'file=@\"\(report.path)\";type=text/csv'") && command.contains("--form-string 'tags=y z'"), "\(command)")
            // `:swift` writes the call, the file read with `UploadFile(contentsOf:)`, as a program that type-checks.
            let swiftShell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: server.baseURL),
                                       transport: URLSessionTransport(), output: output.shellOutput)
            output.clear()
            _ = await swiftShell.handle(":swift " + call)
            let program = output.standard
            #expect(program.contains("file: try UploadFile(contentsOf: URL(fileURLWithPath: \(ValueFormatter.quoted(report.path))))"), "\(program)")
            let checked = try await ReadmeEmbeddingTests.typecheck(program, in: folder)
            #expect(checked.status == 0, "\(checked.output)\n\(program)")
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
                let ran = try await ProcessResult.run(["/bin/sh", "-c", command])
                #expect(ran.output.contains(#""filename":"report.csv","content_type":"text/csv","size":8,"first_line":"a,b","note":"a & b; \"c\"""#)
                        && ran.output.contains(#""tags":["x","y z"],"extras":["two parts; %22odd%22.bin:6"]"#), "\(ran.output)")
            }
        }
        // A file that is not there is one error that says where it looked.
        let missing = await #expect(throws: (any Error).self) { try await shell.evaluate("file(\"no-such-report.csv\")") }
        #expect(String(describing: missing).contains("there is no file 'no-such-report.csv' (a relative path is from "), "\(String(describing: missing))")
    }

    @Test("typist generate writes Swift for its document that type-checks (a model that holds itself, a schema named Kind)")
    func generated() async throws {
        let server = try await FastAPIServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        try await withTemporaryFolder("typist-fastapi-generate") { folder in
            let files = SwiftGenerator(document: document).files()
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.text.write(to: url, atomically: true, encoding: .utf8)
            }
            #expect(try #require(files.first { $0.path == "Models/Item.swift" }).text.contains("public final class Item: Codable, Sendable {"))
            let checked = try await GenerateTests.typecheck(files.map { folder.appendingPathComponent($0.path).path })
            #expect(checked.status == 0, "\(checked.output)")
        }
    }
}
