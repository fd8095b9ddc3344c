import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistGraphQL

/// A real GraphQL service (strawberry-graphql on FastAPI, from PyPI) through every transport the
/// prompt has: its schema read by introspection, named operations and inline ones typed and
/// called, its errors with their paths and the partial data, a non-null it breaks, Relay pages,
/// a token, and a cassette.
@Suite("A GraphQL service (strawberry-graphql)", .enabled(if: BuildTraits.graphQL, BuildTraits.withoutGraphQL),
       .enabled(if: StrawberryServer.unavailable == nil, "\(StrawberryServer.unavailable ?? "")"))
struct GraphQLServiceTests {
    /// The tracker's schema and operations (`Examples/GraphQL`), which `Tests/GeneratedDocuments/GraphQLTracker` is generated from.
    static let folder = Built.packageRoot.appendingPathComponent("Examples/GraphQL")
    static var operations: String {
        (try? String(contentsOf: folder.appendingPathComponent("tracker.graphql"), encoding: .utf8)) ?? ""
    }

    enum Transport: String, CaseIterable, Sendable {
        case curl, urlsession

        var transport: any HTTPTransport {
            switch self {
            case .curl: CurlTransport()
            case .urlsession: URLSessionTransport()
            }
        }
    }

    /// A shell on the service's `path`, its schema read by introspection and `operations` its functions.
    private func shell(_ server: PythonServer, _ transport: Transport, path: String = "/graphql", credential: DocumentCredential? = nil,
                       output: CapturedOutput) async throws -> Shell {
        try await withTemporaryFolder("graphql-service") { folder in
            let file = folder.appendingPathComponent("ops.graphql")
            try Self.operations.write(to: file, atomically: true, encoding: .utf8)
            let document = try await GraphQLLoader.load(
                GraphQLLoadRequest(endpoint: server.baseURL + path, schema: nil, operations: path == "/big/graphql" ? [] : [file.path]),
                transport: transport.transport, tls: .system, credential: credential, cacheDirectory: nil)
            let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: server.baseURL),
                                  transport: transport.transport, output: output.shellOutput)
            _ = try shell.addEndpoints(document.registrations)
            try GraphQLLoader.setUp(shell, document: document, server: nil)
            return shell
        }
    }

    @Test("Named operations are typed from their selections and called; pages { … } follows a Relay connection", arguments: Transport.allCases)
    func namedOperations(transport: Transport) async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await shell(server, transport, output: output)
        let repository = try await shell.evaluate(#"repository(owner: "typist", name: "typist").repository!"#)
        guard case .record(let record) = repository else { Issue.record("not a record: \(repository)"); return }
        #expect(record.type.name == "RepositoryQuery.Repository")
        #expect(try await shell.evaluate(#"repository(owner: "typist", name: "typist").repository!.issues.nodes.count"#) == .int(10))
        // DateTime is the String the service sent, JSON any value, an enum its name.
        #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist").repository!.issues.nodes[0].createdAt"#)
                == .string("2024-01-02T12:00:00+00:00"))
        #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist").repository!.issues.nodes[1].labels"#)
                == .dictionary(["priority": .int(2), "tags": .array([.string("t2")])]))
        #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist", states: [.CLOSED]).repository!.issues.nodes.map(\.state)"#)
                == .array(Array(repeating: .string("CLOSED"), count: 8)))
        // Every page: 25 issues, ten at a time, by endCursor in $after.
        #expect(try await shell.evaluate(#"pages { repository(owner: "t", name: "typist") }.map(\.number)"#) == .array((1...25).map { .int($0) }))
        // A part is said to be one.
        output.clear()
        #expect(try await shell.evaluate(#"pages(limit: 2) { repository(owner: "t", name: "typist") }.count"#) == .int(20))
        #expect(output.error.contains("stopped at its limit of 2 pages"))
        // A repository the service does not have: nil, not an error.
        #expect(try await shell.evaluate(#"repository(owner: "t", name: "nope").repository"#) == .null)
        let before = try await shell.evaluate(#"addStar(name: "typist").addStar.stargazerCount"#)
        #expect(try await shell.evaluate(#"addStar(name: "typist").addStar.stargazerCount"#) == before.adding(1))
        // An inline query, its variable a label, typed as a named one is.
        #expect(try await shell.evaluate(#"graphql("query($n: String!) { repository(owner: \"t\", name: $n) { name } }", n: "typist").repository?.name"#)
                == .string("typist"))
        // A text the checker cannot see is checked as it runs, its variables in `variables:`.
        #expect(try await shell.evaluate(#"let q = "query($n: String!) { repository(owner: \"t\", name: $n) { name } }"; graphql(q, variables: ["n": "typist"])"#)
                != .null)
    }

    @Test("Errors beside data name each path and leave the partial data reachable; a broken non-null is said; nothing is lost", arguments: Transport.allCases)
    func errors(transport: Transport) async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await shell(server, transport, output: output)
        #expect(await shell.handle(#"graphql("{ repository(owner: \"t\", name: \"typist\") { name secretNotes } }")"#) == false)
        #expect(output.error.contains("graphql: the service answered with 1 GraphQL error; the partial data is json(response!.body).data"), "\(output.error)")
        #expect(output.error.contains("at repository.secretNotes: secretNotes needs the admin scope"))
        #expect(try await shell.evaluate("json(response!.body).data") == .dictionary(["repository": .dictionary(["name": .string("typist"), "secretNotes": .null])]))
        output.clear()
        #expect(await shell.handle("ghost()") == false)
        #expect(output.error.contains("at user.email: Cannot return null for non-nullable field User.email."), "\(output.error)")
        output.clear()
        #expect(await shell.handle("viewer()") == false)
        #expect(output.error.contains("at viewer: authentication required"))
        // The session is as it was: the next call works.
        #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist").repository?.name"#) == .string("typist"))
    }

    @Test("A service that wants a token even to introspect: said how to send one; sent with it, masked in :curl", arguments: Transport.allCases)
    func token(transport: Transport) async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        do {
            _ = try await shell(server, transport, path: "/private/graphql", output: output)
            Issue.record("introspection without a token was accepted")
        } catch {
            #expect("\(error)".contains("answered the introspection query with 401"), "\(error)")
            #expect("\(error)".contains("TYPIST_TOKEN"))
        }
        let shell = try await shell(server, transport, path: "/private/graphql", credential: .bearer(AccessToken(StrawberryServer.token)),
                                    output: output)
        // Before the session holds a token, :curl shows the call as it would go: without one.
        output.clear()
        #expect(await shell.handle(":curl viewer()"))
        #expect(!output.standard.contains("Authorization"), "\(output.standard)")
        _ = try await shell.evaluate(#"token = "\#(StrawberryServer.token)""#)
        #expect(try await shell.evaluate("viewer().viewer.login") == .string("ada"))
        output.clear()
        #expect(await shell.handle(":curl viewer()"))
        #expect(output.standard.contains("-X POST"))
        #expect(output.standard.contains(#""operationName":"Viewer""#))
        #expect(!output.all.contains(StrawberryServer.token))
    }

    @Test("A large schema by introspection: 400 generated types, each field typed", arguments: Transport.allCases)
    func largeSchema(transport: Transport) async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await shell(server, transport, path: "/big/graphql", output: output)
        #expect(shell.describeText("Thing399")?.contains("tags: [String!]!") == true)
        #expect(shell.check(ScriptSource(name: "s.api", text: #"let t: [String]? = graphql("{ thing399 { id name tags } }").thing399?.tags"#)).isEmpty)
        #expect(try await shell.evaluate(#"graphql("{ thing7 { id } }").thing7"#) == .null)
    }

    @Test("typist run: a script with a REST call and GraphQL operations; recorded into a cassette, token scrubbed, replayed with the service gone")
    func cassette() async throws {
        let server = try await StrawberryServer.start()
        var stopped = false
        defer { if !stopped { server.stop() } }
        try await withTemporaryFolder("graphql-cassette") { folder in
            let ops = folder.appendingPathComponent("ops.graphql")
            try Self.operations.write(to: ops, atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("smoke.api")
            try """
                let health = httpGet("/health")
                expect(health.status == 200)
                let one = repository(owner: "t", name: "typist").repository!
                let closed = repository(owner: "t", name: "typist", states: ["CLOSED"]).repository!
                expect(one.issues.nodes.count == 10)
                expect(closed.issues.nodes.allSatisfy { $0.state == "CLOSED" })
                print(viewer().viewer.login)
                print(pages { repository(owner: "t", name: "typist") }.count)
                """.write(to: script, atomically: true, encoding: .utf8)
            let har = folder.appendingPathComponent("graphql.har").path
            let arguments = ["run", script.path, "--graphql", server.baseURL + "/graphql", "--graphql-operations", ops.path, "--cassette", har]
            let recorded = try await Built.run("typist", arguments + ["--record-mode", "once"],
                                               environment: ["TYPIST_TOKEN": StrawberryServer.token, "TYPIST_NO_CACHE": "1"])
            #expect(recorded.status == 0, "\(recorded.error)")
            #expect(recorded.standard == "ada\n25\n")
            let file = try String(contentsOfFile: har, encoding: .utf8)
            #expect(!file.contains(StrawberryServer.token))
            #expect(file.contains("IntrospectionQuery"))
            server.stop()
            stopped = true
            let replayed = try await Built.run("typist", arguments, environment: ["CI": "1", "TYPIST_TOKEN": StrawberryServer.token, "TYPIST_NO_CACHE": "1"])
            #expect(replayed.status == 0, "\(replayed.error)")
            #expect(replayed.standard == "ada\n25\n")
            // cassette verify reads each recorded GraphQL answer with today's operations; a changed one drifts.
            let schema = Self.folder.appendingPathComponent("schema.graphql").path
            let verify = ["cassette", "verify", har, "--graphql-schema", schema, "--graphql-operations", ops.path]
            let verified = try await Built.run("typist", verify, environment: ["TYPIST_NO_CACHE": "1"])
            #expect(verified.status == 0, "\(verified.standard)\(verified.error)")
            #expect(verified.standard.contains("POST /graphql → RepositoryQuery"), "\(verified.standard)")
            try file.replacingOccurrences(of: #"\"number\":1,"#, with: #"\"number\":\"one\","#).write(toFile: har, atomically: true, encoding: .utf8)
            let drifted = try await Built.run("typist", verify, environment: ["TYPIST_NO_CACHE": "1"])
            #expect(drifted.status == 1, "\(drifted.standard)\(drifted.error)")
            #expect(drifted.standard.contains("DRIFT"), "\(drifted.standard)")
        }
    }

    @Test("typist check: an operations file's error is exit 65 with its place; a script's inline query too")
    func check() async throws {
        try await withTemporaryFolder("graphql-checkcli") { folder in
            let schema = folder.appendingPathComponent("schema.graphql")
            try GraphQLCheckTests.schema.write(to: schema, atomically: true, encoding: .utf8)
            let ops = folder.appendingPathComponent("ops.graphql")
            try "query A { repository(owner: \"a\", name: \"b\") { nmae } }\n".write(to: ops, atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("s.api")
            try "graphql(\"{ repository(owner: \\\"a\\\", name: \\\"b\\\") { stars } }\")\n".write(to: script, atomically: true, encoding: .utf8)
            let bad = try await Built.run("typist", ["check", script.path, "--graphql-schema", schema.path, "--graphql-operations", ops.path],
                                          environment: ["TYPIST_NO_CACHE": "1"])
            #expect(bad.status == 65)
            #expect(bad.error.contains(#"ops.graphql:1:47: cannot query field "nmae" on type "Repository". Did you mean "name"?"#), "\(bad.error)")
            let inline = try await Built.run("typist", ["check", script.path, "--graphql-schema", schema.path], environment: ["TYPIST_NO_CACHE": "1"])
            #expect(inline.status == 65)
            #expect(inline.error.contains(#"s.api:1:52: error: cannot query field "stars" on type "Repository""#), "\(inline.error)")
        }
    }
}

extension GraphQLServiceTests {
    @Test("typist generate: the tracker's Swift is current, compiles, gives a host the functions typist has, and calls the service")
    func generated() async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let schema = Self.folder.appendingPathComponent("schema.graphql").path
        let operations = Self.folder.appendingPathComponent("tracker.graphql").path
        try await withTemporaryFolder("graphql-generate") { folder in
            let checked = try await Built.run("typist", ["generate", "--graphql-schema", schema, "--graphql-operations", operations,
                                                         "--output", Built.packageRoot.appendingPathComponent("Tests/GeneratedDocuments/GraphQLTracker").path, "--check"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(checked.status == 0, "\(checked.error)")
            #expect(checked.standard == "8 files match schema.graphql, tracker.graphql\n")
            // The committed schema is the service's: the same types by introspection.
            let output = CapturedOutput()
            let live = try await shell(server, .curl, output: output)
            let fromFile = try GraphQLSchemaCache.service(file: schema, path: "/graphql", directory: nil)
            #expect(live.describeText("Repository") == fromFile.schema.describe("Repository"))
            // The same functions, labels and argument types as typist's own.
            let host = try await Built.run("generated-host", ["graphql-tracker"])
            #expect(host.status == 0, "\(host.error)")
            let functions = host.standard.split(separator: "\n").filter { $0.contains("->") }.map { line in line.firstIndex(of: ")").map { String(line[...$0]) } ?? "" }
            let expected = live.registry.endpoints.map { endpoint in
                "\(endpoint.name)(" + endpoint.parameters.map { "\($0.label ?? "_"): \($0.scriptType)" }.joined(separator: ", ") + ")"
            }.sorted()
            #expect(functions.sorted() == expected, "\(host.standard)")
            // Called through the typed client, the generated endpoint reads data and throws the service's errors.
            let call = try await Built.run("generated-host", ["graphql-call", server.baseURL])
            #expect(call.status == 0, "\(call.error)")
            #expect(call.standard.hasPrefix("typist: [3, 6, 9, 12, 15, 18, 21, 24]\n"), "\(call.standard)")
            #expect(call.standard.contains("user.email: Cannot return null for non-nullable field User.email."), "\(call.standard)")
        }
    }

    @Test(":graphql at the prompt adds a service beside the session's own: its operations call its origin; :describe reads its schema")
    func promptCommand() async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        try await withTemporaryFolder("graphql-prompt") { folder in
            let ops = folder.appendingPathComponent("ops.graphql")
            try Self.operations.write(to: ops, atomically: true, encoding: .utf8)
            let output = CapturedOutput()
            let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: CurlTransport(), output: output.shellOutput)
            shell.add(commands: [GraphQLCommand.command], after: "model")
            #expect(await shell.handle(":graphql \(server.baseURL)/graphql --operations \(ops.path)"))
            #expect(output.standard.contains("4 operations from \(server.baseURL)/graphql"), "\(output.all)")
            #expect(output.standard.contains("they call \(server.baseURL)"))
            #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist").repository?.stargazerCount"#) != .null)
            #expect(try await shell.evaluate(#"graphql("{ user(login: \"ada\") { login } }").user.login"#) == .string("ada"))
            // :swift writes an inline operation for the service's own origin, not the session's.
            output.clear()
            #expect(await shell.handle(#":swift graphql("{ user(login: \"ada\") { login } }").user.login"#))
            #expect(output.standard.contains("let documentClient = client.replacingEnvironment(with: try ServerEnvironment(url: \"\(server.baseURL)\"))"),
                    "\(output.standard)")
            #expect(output.standard.contains("try await documentClient.send(.graphql, with: token).user.login"), "\(output.standard)")
            output.clear()
            #expect(await shell.handle(":describe Query.repository"))
            #expect(output.standard.contains("Query.repository: Repository  (GraphQL field)"), "\(output.standard)")
            #expect(output.standard.contains("argument: owner: String!"))
            // A schema that cannot be read leaves the session as it was.
            output.clear()
            #expect(await shell.handle(":graphql \(folder.path)/missing.graphql") == false)
            #expect(output.error.contains("cannot read"), "\(output.error)")
            #expect(try await shell.evaluate(#"repository(owner: "t", name: "typist").repository?.name"#) == .string("typist"))
        }
    }

    @Test("Examples/GraphQL/tracker.api runs against the tracker and exits 0; typist check reads it offline")
    func example() async throws {
        let server = try await StrawberryServer.start()
        defer { server.stop() }
        let script = Self.folder.appendingPathComponent("tracker.api").path
        let operations = Self.folder.appendingPathComponent("tracker.graphql").path
        let run = try await Built.run("typist", ["run", script, "--graphql", server.baseURL + "/graphql", "--graphql-operations", operations],
                                      environment: ["TYPIST_NO_CACHE": "1"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.standard == "typist: 41 stars; the first page has 10 issues\nclosed: [3, 6, 9, 12, 15, 18, 21, 24]\nada Ada Lovelace\n")
        let check = try await Built.run("typist", ["check", script, "--graphql-schema", Self.folder.appendingPathComponent("schema.graphql").path,
                                                   "--graphql-operations", operations], environment: ["TYPIST_NO_CACHE": "1"])
        #expect(check.status == 0, "\(check.error)")
    }

    @Test("generate: a GraphQL schema without operations, or both kinds of source, is a usage error")
    func generateUsage() async throws {
        let schema = Self.folder.appendingPathComponent("schema.graphql").path
        let alone = try await Built.run("typist", ["generate", "--graphql-schema", schema, "--output", "/tmp/unused"])
        #expect(alone.status == 64)
        #expect(alone.error.contains("--graphql-operations"))
        let both = try await Built.run("typist", ["generate", "--graphql-schema", schema, "--openapi", "x.yaml", "--output", "/tmp/unused"])
        #expect(both.status == 64)
    }
}

private extension Value {
    func adding(_ amount: Int) -> Value {
        if case .int(let number) = self { return .int(number + amount) }
        return self
    }
}
