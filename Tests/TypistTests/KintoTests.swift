import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// Kinto, a JSON storage service nobody here wrote, through the Swagger 2.0 document it serves:
/// what the typed view shows is what the service sent — the keys its open objects hold, every
/// page of a list, a cursor as the data it is — and its refusals are read.
@Suite("A Kinto service, faithfully", .enabled(if: KintoServer.unavailable == nil, "\(KintoServer.unavailable ?? "")"))
struct KintoTests {
    private static let password = "kinto-lovelace-9"

    /// A shell on Kinto's document, signed in with HTTP Basic (any account is one to Kinto).
    private func kinto(_ server: PythonServer, output: CapturedOutput, validate: Bool = false) async throws -> Shell {
        let document = try await OpenAPIDocument.load(server.baseURL + "/v1/__api__", cacheDirectory: nil)
        let shell = try documentShell(document, output: output)
        shell.validatesResponses = validate
        _ = try await shell.evaluate(#"username = "ada"; password = "\#(Self.password)""#)
        return shell
    }

    @Test("An object that allows other keys keeps them: data.id, a subscript for any key, completion from the answer; --validate is quiet")
    func openRecords() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output, validate: true)
        // The document declares three optional properties of `data` and `additionalProperties: {}`;
        // Kinto answers with `id` and `last_modified`, which the typed value dropped.
        _ = try await shell.evaluate(#"let bucket = createBucket(data: ["id": "shelf"])"#)
        #expect(try await shell.evaluate("bucket.data?.id") == .string("shelf"))
        guard case .int(let modified) = try await shell.evaluate(#"bucket.data?["last_modified"]"#) else {
            Issue.record("no last_modified in \(try await shell.evaluate("bucket"))")
            return
        }
        #expect(modified > 0)
        // A key the answer does not hold is nil, as a dictionary's is; a declared one reads by key too.
        #expect(try await shell.evaluate(#"bucket.data?.colour"#) == .null)
        #expect(try await shell.evaluate(#"bucket.data?["record:schema"]"#) == .null)
        // Shown whole, as the stored dictionary a generated Swift model keeps them in.
        output.clear()
        _ = await shell.handle("bucket.data")
        #expect(output.standard.contains(#""id": "shelf""#), "\(output.standard)")
        #expect(output.standard.contains("additionalProperties"), "\(output.standard)")
        // Completion offers what the last answer held, after the document's fields.
        let offered = shell.completions(before: "last?.").candidates
        #expect(offered.contains("id") && offered.contains("last_modified") && offered.contains("recordSchema"), "\(offered)")
        // The document allows these keys: --validate says nothing of them.
        #expect(!output.error.contains("does not declare"), "\(output.error)")
        #expect(!output.error.contains("warning"), "\(output.error)")
        // The type says it is open.
        let data = try shell.interpreter.staticType(of: "bucket.data").get()
        guard case .record(let record) = data.unwrapped else {
            Issue.record("last.data is \(data)")
            return
        }
        #expect(record.additionalProperties == .any)
    }

    @Test("pages { … } follows Kinto's Next-Page header to the last page, and says so when its limit leaves pages unread")
    func nextPageHeader() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        for name in ["a", "b", "c", "d", "e"] {
            _ = try await shell.evaluate(#"createBucket(data: ["id": "\#(name)"])"#)
        }
        // Two a page: three pages, every bucket once.
        #expect(try await shell.evaluate("getBuckets().data.count") == .int(2))
        guard case .array(let all) = try await shell.evaluate("pages { getBuckets() }") else {
            Issue.record("pages gave no array")
            return
        }
        let names = all.compactMap { item -> String? in
            if case .record(let record) = item, case .string(let id)? = record.additionalProperties["id"] { id } else { nil }
        }
        #expect(names.sorted() == ["a", "b", "c", "d", "e"])
        #expect(!output.error.contains("warning"), "\(output.error)")
        // A limit that stops before the end is said, never shown as the whole.
        #expect(try await shell.evaluate("pages(limit: 2) { getBuckets() }.count") == .int(4))
        #expect(output.error.contains("warning: pages { … } stopped at its limit of 2 pages while the service names more"), "\(output.error)")
        #expect(output.error.contains("the result is the 4 items of the first 2 pages, not all of them"), "\(output.error)")
    }

    @Test("Kinto's cursor _token is data: shown, and :curl sends it as it is, not the session's token; the password stays masked")
    func cursorIsNoSecret() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        for name in ["a", "b", "c"] {
            _ = try await shell.evaluate(#"createBucket(data: ["id": "\#(name)"])"#)
        }
        _ = try await shell.evaluate(#"token = "a-session-token-0123""#)
        _ = try await shell.evaluate("getBuckets()")
        guard case .string(let next)? = try await shell.evaluate(#"response!.headers["Next-Page"] ?? response!.headers["next-page"]"#).nonNull,
              let cursor = URLComponents(string: next)?.queryItems?.first(where: { $0.name == "_token" })?.value
        else {
            Issue.record("no Next-Page cursor: \(output.all)")
            return
        }
        let literal = ValueFormatter.quoted(cursor)
        output.clear()
        _ = await shell.handle("getBuckets(token: \(literal)).data.count")
        _ = await shell.handle("print(\(ValueFormatter.quoted(next)))")
        _ = await shell.handle(":last")
        _ = await shell.handle(":curl getBuckets(token: \(literal))")
        // The cursor as Kinto sent it, everywhere; `:curl` reads no credential in its place.
        let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        #expect(output.standard.contains(cursor) || output.standard.contains(encoded), "\(output.standard)")
        #expect(!output.all.contains("_token=••••"), "\(output.all)")
        #expect(!output.standard.contains("${TYPIST_TOKEN}"), "\(output.standard)")
        #expect(output.standard.contains(#"-u "ada:${TYPIST_PASSWORD}""#), "\(output.standard)")
        #expect(!output.all.contains(Self.password) && !output.all.contains("a-session-token-0123"), "\(output.all)")
    }

    @Test("A document URL that answers 401 with a Basic challenge is one clear error (it hung), on the command line and at :openapi")
    func documentBehindBasic() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        try await withTemporaryFolder("typist-kinto-401") { folder in
            let script = folder.appendingPathComponent("one.api")
            try Data("print(1)\n".utf8).write(to: script)
            let location = server.baseURL + "/v1/buckets"
            for transport in ["curl", "urlsession"] {
                let result = try await Built.run("typist", ["run", script.path, "--openapi", location, "--transport", transport])
                #expect(result.status == ExitStatus.dataError, "\(transport): \(result.error)")
                #expect(result.error.contains(#"(it asks for credentials: WWW-Authenticate: Basic realm="Realm"); "#
                                              + "send one with --openapi-auth basic:USER with TYPIST_PASSWORD set (at the prompt, :openapi … --auth basic)\n"),
                        "\(transport): \(result.error)")
                // With the credential Kinto takes, the URL answers: a list of buckets, which is no document.
                let signed = try await Built.run("typist", ["run", script.path, "--openapi", location, "--transport", transport, "--openapi-auth", "basic:ada"],
                                                 environment: ["TYPIST_PASSWORD": Self.password])
                #expect(signed.error.contains("not an OpenAPI document"), "\(transport): \(signed.error)")
                #expect(!signed.error.contains(Self.password))
            }
        }
        let output = CapturedOutput()
        let shell = try Shell(registry: EndpointRegistry {}, environment: try ServerEnvironment(url: server.baseURL),
                              transport: CurlTransport(), output: output.shellOutput)
        shell.add(commands: [OpenAPICommand.command], after: "model")
        #expect(await shell.handle(":openapi \(server.baseURL)/v1/buckets") == false)
        #expect(output.error.contains("answered 401 Unauthorized (it asks for credentials: WWW-Authenticate: Basic"), "\(output.error)")
    }

    @Test("Cornice's refusals name the argument: a field of data that Kinto refuses")
    func corniceRefusal() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        // The document allows any object as `collection:schema`; Kinto wants a JSON Schema there,
        // and says so in Cornice's shape. (A value the document rules out is not sent: `permissions:
        // ["read": 42]` is refused at check time.)
        _ = await shell.handle(#"createBucket(data: ["id": "x", "collection:schema": ["type": "bogus"]])"#)
        #expect(output.error.contains("400"), "\(output.error)")
        #expect(output.error.contains("note: the service refused 'data' (body.data.collection:schema): "), "\(output.error)")
    }

    @Test("An operation the document leaves unsecured (Kinto's /batch) says, once a session, that the session's credentials are not sent")
    func unsecuredOperation() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        // Sent without the password, Kinto refuses the inner request inside a 200.
        #expect(try await shell.evaluate(#"batch(requests: [["path": "/buckets", "method": "GET"]]).responses[0].status"#) == .int(401))
        #expect(output.error.contains("note: batch (POST /batch) sends none of the session's credentials: __api__ declares no security for it"), "\(output.error)")
        #expect(output.error.contains("call httpPost(…, headers: [\"Authorization\": …])"), "\(output.error)")
        #expect(!output.error.contains(Self.password))
        output.clear()
        _ = try await shell.evaluate(#"batch(requests: [["path": "/buckets", "method": "GET"]])"#)
        #expect(!output.error.contains("note:"), "\(output.error)")
    }

    @Test("A record's data and permissions are checked against Kinto's schema: data: 42 at check time, a misspelt permission before anything is sent")
    func bodiesTypedFromSchema() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        _ = try await shell.evaluate(#"createBucket(data: ["id": "shelf"]); createCollection(bucketId: "shelf", data: ["id": "books"])"#)
        func errors(_ text: String) -> [String] { shell.check(ScriptSource(name: "k.api", text: text)).map(\.message) }
        let tail = " (httpPost(…) sends values the document rules out)"
        // `data` is `type: object`; `permissions` spells out `read` and `write`, lists of strings.
        #expect(errors(#"createRecord(bucketId: "shelf", collectionId: "books", data: 42)"#)
                == ["data must be an object (the document's type), not 42" + tail])
        #expect(errors(#"createRecord(bucketId: "shelf", collectionId: "books", permissions: ["read": "system.Everyone"])"#)
                == [#"permissions.read must be a list of strings (the document's type), not "system.Everyone""# + tail])
        // Computed: the run refuses it before the request (Kinto would answer 400).
        _ = try await shell.evaluate(#"var grants = ["raed": ["system.Everyone"]]"#)
        let refused = await #expect(throws: (any Error).self) {
            try await shell.evaluate(#"createRecord(bucketId: "shelf", collectionId: "books", permissions: grants)"#)
        }
        #expect(String(describing: refused).contains(#"permissions has no key "raed" in the document (did you mean "read"?). Nothing was sent"#),
                "\(String(describing: refused))")
        // What the schema allows goes, and a value Kinto answered with is sent back as it is.
        _ = try await shell.evaluate(#"let first = createRecord(bucketId: "shelf", collectionId: "books", data: ["title": "Dune"], permissions: ["read": ["system.Everyone"]])"#)
        #expect(try await shell.evaluate("first.permissions?.read") == .array([.string("system.Everyone")]))
        _ = try await shell.evaluate(#"let second = createRecord(bucketId: "shelf", collectionId: "books", data: ["title": "Emma"], permissions: first.permissions)"#)
        #expect(try await shell.evaluate("second.permissions?.read") == .array([.string("system.Everyone")]))
        #expect(try await shell.evaluate(#"second.data?["title"]"#) == .string("Emma"))
    }

    @Test("A conditional GET whose 304 the document declares returns an optional: nil for Not Modified, a script tests it")
    func notModified() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await kinto(server, output: output)
        _ = try await shell.evaluate(#"createBucket(data: ["id": "b"]); createCollection(bucketId: "b", data: ["id": "c"])"#)
        _ = try await shell.evaluate(#"let made = createRecord(bucketId: "b", collectionId: "c", data: ["id": "r", "title": "Dune"])"#)
        _ = try await shell.evaluate(#"let etag = "\"\(made.data?["last_modified"] ?? 0)\"""#)
        // Unconditional: the record, not optional.
        #expect(try shell.interpreter.staticType(of: #"getRecord(bucketId: "b", collectionId: "c", id: "r")"#).get().isOptional == false)
        // With If-None-Match: optional, and nil when Kinto answers 304 (it ended the script).
        #expect(try shell.interpreter.staticType(of: #"getRecord(bucketId: "b", collectionId: "c", id: "r", ifNoneMatch: etag)"#).get().isOptional)
        #expect(try await shell.evaluate(#"getRecord(bucketId: "b", collectionId: "c", id: "r", ifNoneMatch: etag) == nil"#) == .bool(true))
        #expect(try await shell.evaluate(#"getRecord(bucketId: "b", collectionId: "c", id: "r", ifNoneMatch: "\"1\"")?.data?["title"]"#) == .string("Dune"))
        let unchecked = shell.check(ScriptSource(name: "k.api", text: #"getRecord(bucketId: "b", collectionId: "c", id: "r", ifNoneMatch: etag).data"#))
        #expect(unchecked.contains { $0.message.contains("must be unwrapped") }, "\(unchecked.map(\.message))")
        // Without a conditional header a 304 is no answer the call expects: still an error.
        #expect(try await shell.evaluate(#"httpGet("/buckets/b/collections/c/records/r", headers: ["If-None-Match": etag]).status"#) == .int(304))
    }

    @Test("generate on Kinto's document writes one model per shape, its lists' data not optional, and Swift that type-checks")
    func generated() async throws {
        let server = try await KintoServer.start()
        defer { server.stop() }
        try await withTemporaryFolder("typist-kinto-generate") { folder in
            let output = folder.appendingPathComponent("generated")
            let written = try await Built.run("typist", ["generate", "--openapi", server.baseURL + "/v1/__api__", "--output", output.path],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(written.status == 0, "\(written.error)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".swift") }
            // 89 files for about six shapes were written before: 28 of them one `permissions` object.
            #expect((4...32).contains(files.count), "\(files.sorted())")
            for name in ["Permissions", "BucketPermissions", "CollectionPermissions", "Bucket", "BucketData"] {
                #expect(files.contains("Models/\(name).swift"), "\(files.sorted())")
            }
            #expect(!files.contains { $0.hasSuffix("ResponsePermissions.swift") }, "\(files.sorted())")
            let list = try String(contentsOf: output.appendingPathComponent("Models/GetBucketsResponse.swift"), encoding: .utf8)
            #expect(list.contains("public var data: [BucketData]\n"), "\(list)")
            let checked = try await GenerateTests.typecheck(folder: output)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }
}

private extension Value {
    /// The value, or nil for `.null`.
    var nonNull: Value? { self == .null ? nil : self }
}
