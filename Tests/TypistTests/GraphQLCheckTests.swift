import APIScript
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import TypedAPITesting
import TypistTesting
@testable import TypistCore
@testable import TypistGraphQL

/// A GraphQL schema read offline, and operations checked against it before anything is sent: the
/// specification's rules with their places, the script's arguments against the variables, and a
/// result typed from its selection set.
@Suite("GraphQL operations, checked before they are sent", .enabled(if: BuildTraits.graphQL, BuildTraits.withoutGraphQL))
struct GraphQLCheckTests {
    static let schema = #"""
        """A code repository"""
        type Repository implements Node {
          id: ID!
          name: String!
          stargazerCount: Int!
          createdAt: DateTime!
          metadata: JSON
          url: URI!
          "Its issues, a page at a time"
          issues(first: Int = 10, after: String, states: [IssueState!]): IssueConnection!
          watchers: Int @deprecated(reason: "Use stargazerCount.")
        }
        interface Node { id: ID! }
        type User implements Node { id: ID! login: String! }
        union SearchResult = Repository | User
        enum IssueState { OPEN CLOSED }
        scalar DateTime
        scalar JSON
        scalar URI
        type Issue { number: Int! title: String! state: IssueState! }
        type PageInfo { hasNextPage: Boolean! endCursor: String }
        type IssueConnection { nodes: [Issue!]! pageInfo: PageInfo! }
        type Query {
          repository(owner: String!, name: String!): Repository
          search(text: String!): [SearchResult!]!
          node(id: ID!): Node
        }
        type Mutation { addStar(id: ID!): Repository! }
        type Subscription { starred: Repository! }
        """#

    /// A shell on `schema` whose operations go to a port nothing listens on (or `transport`, which
    /// answers them in memory).
    private func shell(operations: String? = nil, output: CapturedOutput = CapturedOutput(),
                       transport: any HTTPTransport = CurlTransport()) async throws -> Shell {
        try await withTemporaryFolder("graphql-check") { folder in
            let schemaFile = folder.appendingPathComponent("schema.graphql")
            try Self.schema.write(to: schemaFile, atomically: true, encoding: .utf8)
            var files: [String] = []
            if let operations {
                let file = folder.appendingPathComponent("ops.graphql")
                try operations.write(to: file, atomically: true, encoding: .utf8)
                files.append(file.path)
            }
            let document = try await GraphQLLoader.load(GraphQLLoadRequest(endpoint: nil, schema: schemaFile.path, operations: files),
                                                        transport: CurlTransport(), tls: .system, credential: nil, cacheDirectory: nil)
            let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: transport, output: output.shellOutput)
            _ = try shell.addEndpoints(document.registrations)
            try GraphQLLoader.setUp(shell, document: document, server: nil)
            return shell
        }
    }

    private func diagnostics(_ shell: Shell, _ text: String) -> [Diagnostic] {
        shell.check(ScriptSource(name: "s.api", text: text))
    }

    @Test("A named operation is a function: its variables the labels, its result a record typed from the selection")
    func namedOperation() async throws {
        let shell = try await shell(operations: """
            query Repo($owner: String!, $name: String!, $states: [IssueState!]) {
              repository(owner: $owner, name: $name) {
                name stargazerCount createdAt metadata url
                issues(states: $states) { nodes { number state } }
              }
            }
            """)
        #expect(diagnostics(shell, #"let r = repo(owner: "apple", name: "swift"); let n: Int? = r.repository?.stargazerCount"#).isEmpty)
        // The scalars: DateTime and URI are Strings, JSON any value; an enum a String.
        #expect(diagnostics(shell, #"let r = repo(owner: "a", name: "b").repository!; let d: String = r.createdAt; let u: String = r.url; let s: String = r.issues.nodes[0].state"#).isEmpty)
        let noMember = diagnostics(shell, #"repo(owner: "a", name: "b").repository?.owner"#)
        #expect(noMember.map(\.message) == ["RepositoryQuery.Repository has no member 'owner'"] || noMember.first?.message.contains("no member 'owner'") == true)
        // A required variable left out, a wrong type, an enum list: said by the checker.
        #expect(diagnostics(shell, #"repo(owner: "a")"#).map(\.message) == ["missing argument for parameter 'name' in call"])
        #expect(diagnostics(shell, #"repo(owner: 1, name: "b")"#).first?.message.contains("'Int'") == true)
        #expect(diagnostics(shell, #"repo(owner: "a", name: "b", states: ["OPEN"])"#).isEmpty)
        // A list of an enum takes its cases too, each checked at its place.
        #expect(diagnostics(shell, #"repo(owner: "a", name: "b", states: [.OPEN, .CLOSED])"#).isEmpty)
        let misspelt = diagnostics(shell, #"repo(owner: "a", name: "b", states: [.OPEN, .CLOSD])"#)
        #expect(misspelt.map { shell.describeSpan($0) + ": " + $0.message } == ["1:45: type 'IssueState' has no member 'CLOSD'"], "\(misspelt)")
        #expect(shell.describeText("repo")?.contains("param:    states: [IssueState]? = nil  (one of .OPEN, .CLOSED)") == true,
                "\(shell.describeText("repo") ?? "")")
        let typing = #"repo(owner: "a", name: "b", states: [.OPEN, ."#
        #expect(shell.interpreter.completions(for: typing, cursor: typing.count).candidates == ["OPEN", "CLOSED"])
        #expect(shell.describeText("repo")?.contains("request:  POST /graphql") == true)
        // :swift writes what generate writes for it, and the call with the session's token.
        let output = CapturedOutput()
        let swift = try await self.shell(operations: "query Repo($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { name } }",
                                         output: output)
        #expect(await swift.handle(#":swift repo(owner: "a", name: "b").repository?.name"#))
        #expect(output.standard.contains("extension Endpoint where Kind == Bearer, Response == RepoQuery {"), "\(output.standard)")
        #expect(output.standard.contains("public static func repo(owner: String, name: String) -> Self {"))
        #expect(output.standard.contains(#"try await client.send(.repo(owner: "a", name: "b"), with: token).repository?.name"#))
        // An inline operation is written as the endpoint it was specialised to, its variables the labels.
        output.clear()
        #expect(await swift.handle(#":swift graphql("query($n: String!) { repository(owner: \"a\", name: $n) { name } }", n: "b").repository?.name"#))
        #expect(output.standard.contains("extension Endpoint where Kind == Bearer, Response == GraphqlQuery {"), "\(output.standard)")
        #expect(output.standard.contains("public static func graphql(n: String) -> Self {"))
        #expect(output.standard.contains(#"try await client.send(.graphql(n: "b"), with: token).repository?.name"#), "\(output.standard)")
        // A text the checker cannot read has none.
        output.clear()
        #expect(await swift.handle(#":swift graphql(String("{ user(login: \"a\") { name } }"))"#) == false)
        #expect(output.error.contains("not a literal has no Swift of its own"), "\(output.error)")
    }

    @Test("An enum variable takes the enum's values, written as cases; another value is refused before anything is sent")
    func enumVariable() async throws {
        let output = CapturedOutput()
        let shell = try await shell(operations: """
            query Closed($state: IssueState!) { repository(owner: "a", name: "b") { issues(states: [$state]) { nodes { number } } } }
            """, output: output)
        #expect(diagnostics(shell, "closed(state: .CLOSED)").isEmpty)
        #expect(diagnostics(shell, "closed(state: .SHUT)").first?.message.contains("SHUT") == true)
        #expect(await shell.handle(#"closed(state: "SHUT")"#) == false)
        #expect(output.error.contains("OPEN"), "\(output.error)")
        #expect(!output.error.contains("127.0.0.1:9"), "nothing is sent: \(output.error)")
    }

    @Test("An operations file with errors is refused whole, each error at its line and column, with the nearest name")
    func operationsFileErrors() async throws {
        do {
            _ = try await shell(operations: """
                query A { repository(owner: "a", name: "b") { nmae } }
                query B($n: Int!) { repository(owner: "a", name: $n) { name } }
                query C { search(text: "x") { ... on Issue { number } } }
                """)
            Issue.record("the file was accepted")
        } catch let error as GraphQLProblems {
            let text = error.description
            #expect(text.contains(#"ops.graphql:1:47: cannot query field "nmae" on type "Repository". Did you mean "name"?"#), "\(text)")
            #expect(text.contains("ops.graphql:2:"), "\(text)")  // Int where String! is wanted
            #expect(text.contains("Variable \"$n\" of type \"Int!\" used in position expecting type \"String!\"") || text.contains("$n"), "\(text)")
            #expect(text.contains("ops.graphql:3:"), "\(text)")  // a fragment on a type the union does not hold
            #expect(error.problems.count == 3)
        }
    }

    @Test("An inline query is checked at its place in the script; a deprecated field is a warning; a subscription is refused")
    func inlineQuery() async throws {
        let shell = try await shell()
        let unknown = diagnostics(shell, """
            let r = graphql(\"""
                query($owner: String!) {
                  repository(owner: $owner, name: "swift") { nam }
                }
                \""", owner: "apple")
            """)
        #expect(unknown.count == 1)
        #expect(unknown.first?.message == #"cannot query field "nam" on type "Repository". Did you mean "name"?"#)
        #expect(unknown.first?.suggestion == "name")
        // Line 3 of the script, where `nam` is.
        #expect(unknown.first.map { shell.describeSpan($0) } == "3:50")
        #expect(diagnostics(shell, #"graphql("{ repository(owner: \"a\", name: \"b\") { name } }").repository?.name"#).isEmpty)
        let missing = diagnostics(shell, #"graphql("query($owner: String!) { repository(owner: $owner, name: \"b\") { name } }")"#)
        #expect(missing.map(\.message) == ["missing argument for parameter 'owner' in call"])
        let deprecated = diagnostics(shell, #"graphql("{ repository(owner: \"a\", name: \"b\") { watchers } }")"#)
        #expect(deprecated.map(\.severity) == [.warning, .warning] || deprecated.allSatisfy { $0.severity == .warning })
        #expect(deprecated.first?.message == "Repository.watchers is deprecated: Use stargazerCount.")
        let subscription = diagnostics(shell, #"graphql("subscription { starred { name } }")"#)
        #expect(subscription.first?.message.hasPrefix("subscriptions are not supported") == true)
        let typo = diagnostics(shell, #"graphql("{ repository(owner: \"a\", nme: \"b\") { name } }")"#)
        #expect(typo.map(\.message).contains(#"field "repository" on type "Query" does not have argument "nme". Did you mean "name"?"#), "\(typo.map(\.message))")
    }

    @Test("GraphQL over HTTP: a 400 with errors names them; an answer that is not GraphQL's says what came; the request is the operation and its variables")
    func refusals() async throws {
        let output = CapturedOutput()
        let refusing = InMemoryTransport(json: #"{"errors": [{"message": "the query is too deep", "locations": [{"line": 1, "column": 3}]}]}"#,
                                         status: 400, contentType: "application/graphql-response+json")
        let shell = try await shell(operations: #"query Repo($name: String!) { repository(owner: "a", name: $name) { name } }"#, output: output,
                                    transport: refusing)
        #expect(await shell.handle(#"repo(name: "b")"#) == false)
        #expect(output.error.contains("repo: the service refused the query with 400 Bad Request and 1 GraphQL error"), "\(output.error)")
        #expect(output.error.contains("the query is too deep"))
        let body = try #require(refusing.requests.last?.body)
        #expect(try JSONReader.parse(body) == .dictionary([
            "operationName": .string("Repo"), "variables": .dictionary(["name": .string("b")]),
            "query": .string("query Repo($name: String!) {\n  repository(owner: \"a\", name: $name) {\n    name\n  }\n}"),
        ]))
        output.clear()
        let html = try await self.shell(operations: #"query Repo($name: String!) { repository(owner: "a", name: $name) { name } }"#, output: output,
                                        transport: InMemoryTransport(json: "<html>maintenance</html>", contentType: "text/html"))
        #expect(await html.handle(#"repo(name: "b")"#) == false)
        #expect(output.error.contains("the answer is not JSON"), "\(output.error)")
        #expect(output.error.contains("<html>maintenance</html>"))
    }

    @Test("typist check reads the operations beside a script (smoke.graphql for smoke.api) when none are named")
    func operationsBeside() async throws {
        try await withTemporaryFolder("graphql-beside") { folder in
            let examples = Built.packageRoot.appendingPathComponent("Examples/GraphQL")
            let script = folder.appendingPathComponent("smoke.api")
            try FileManager.default.copyItem(at: examples.appendingPathComponent("tracker.api"), to: script)
            let schema = examples.appendingPathComponent("schema.graphql").path
            let without = try await Built.run("typist", ["check", script.path, "--graphql-schema", schema], environment: ["TYPIST_NO_CACHE": "1"])
            #expect(without.status == 65)
            #expect(without.error.contains("cannot find 'repository' in scope"), "\(without.error)")
            try FileManager.default.copyItem(at: examples.appendingPathComponent("tracker.graphql"), to: folder.appendingPathComponent("smoke.graphql"))
            let beside = try await Built.run("typist", ["check", script.path, "--graphql-schema", schema], environment: ["TYPIST_NO_CACHE": "1"])
            #expect(beside.status == 0, "\(beside.error)")
        }
    }

    @Test("A fragment on an interface member selects optional fields; a union's members each their own")
    func fragments() async throws {
        let shell = try await shell(operations: """
            query Search($text: String!) {
              search(text: $text) { __typename ... on Repository { name } ...UserParts }
            }
            fragment UserParts on User { login }
            """)
        #expect(diagnostics(shell, #"let hits = search(text: "x").search; let n: String? = hits[0].name; let l: String? = hits[0].login; let t: String = hits[0].__typename"#).isEmpty)
    }

    @Test("Tab offers the fields of the selection being written inside graphql(\"…\"), and a result's fields from its selection")
    func completion() async throws {
        let shell = try await shell(operations: "query Repo($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { name url } }")
        #expect(shell.completions(before: #"graphql("{ rep"#).candidates == ["repository"])
        #expect(shell.completions(before: #"graphql("{ repository(owner: \"a\", name: \"b\") { sta"#).candidates == ["stargazerCount"])
        #expect(shell.completions(before: "graphql(\"\"\"\nquery { repository(owner: \"a\", name: \"b\") { issues { nodes { ").candidates
                == ["__typename", "number", "state", "title"])
        #expect(shell.completions(before: #"graphql("{ search(text: \"x\") { "#).candidates == ["... on Repository", "... on User", "__typename"])
        #expect(shell.completions(before: #"graphql("mutation { addSt"#).candidates == ["addStar"])
        // Inside an argument list, or after the literal is closed: not the schema's.
        #expect(shell.completions(before: #"graphql("{ repository(ow"#).candidates.isEmpty)
        #expect(shell.completions(before: #"repo(owner: "a", name: "b").repository?."#).candidates == ["name", "url"])
    }

    @Test("generate: a fragment two operations spread is one shared type, a property of each selection; a narrower one stays merged")
    func sharedFragments() throws {
        let service = try GraphQLSchemaCache.service(text: Self.schema, name: "schema.graphql", path: "/graphql", directory: nil)
        let (operations, _) = try service.operations(in: """
            query A { repository(owner: "a", name: "b") { ...RepoParts url } }
            query B { node(id: 1) { id ...RepoParts } }
            fragment RepoParts on Repository { name stargazerCount }
            """, name: "ops.graphql")
        let files = GraphQLSwiftGenerator(operations: operations, kind: "Public", path: "/graphql", origin: "test").files()
        #expect(files.map(\.path).filter { $0.hasPrefix("Fragments/") } == ["Fragments/RepoParts.swift"])
        let a = try #require(files.first { $0.path == "Operations/AQuery.swift" }).text
        #expect(a.contains("public let repoParts: RepoParts"))
        #expect(a.contains("repoParts = try RepoParts(from: decoder)"))
        // On the interface Node, RepoParts applies to some values only: its fields are optional, and no property.
        let b = try #require(files.first { $0.path == "Operations/BQuery.swift" }).text
        #expect(!b.contains("repoParts"))
        #expect(b.contains("public let name: String?"))
    }

    @Test("generate: an enum a variable takes is one Swift enum, alone or in a list; an enum in a result stays String")
    func generatedEnums() throws {
        let service = try GraphQLSchemaCache.service(text: Self.schema, name: "schema.graphql", path: "/graphql", directory: nil)
        let (operations, _) = try service.operations(in: """
            query One($state: IssueState!) { repository(owner: "a", name: "b") { issues(states: [$state]) { nodes { state } } } }
            query Many($states: [IssueState!], $maybe: IssueState = OPEN) {
              repository(owner: "a", name: "b") { issues(states: $states) { nodes { number } } other: issues(states: [$maybe]) { nodes { number } } }
            }
            """, name: "ops.graphql")
        let files = GraphQLSwiftGenerator(operations: operations, kind: "Public", path: "/graphql", origin: "test").files()
        let enums = files.filter { $0.path.hasPrefix("Enums/") }
        #expect(enums.map(\.path) == ["Enums/IssueState.swift"])
        #expect(enums.first?.text.contains("public enum IssueState: String, Codable, Sendable, CaseIterable {\n    case OPEN\n    case CLOSED\n}") == true,
                "\(enums.first?.text ?? "")")
        let one = try #require(files.first { $0.path == "Operations/OneQuery.swift" }).text
        #expect(one.contains("public static func one(state: IssueState) -> Self"), "\(one)")
        #expect(one.contains("public let state: String"), "\(one)")
        let many = try #require(files.first { $0.path == "Operations/ManyQuery.swift" }).text
        #expect(many.contains("public static func many(states: [IssueState]? = nil, maybe: IssueState? = nil) -> Self"), "\(many)")
        let registrations = try #require(files.first { $0.path == "Registrations.swift" }).text
        #expect(registrations.contains("extension IssueState: ScriptArgument {}"))
        #expect(registrations.contains(#"Parameter<[IssueState]?>("states"), Parameter<IssueState?>("maybe")"#), "\(registrations)")

        // An enum named as a type the files use (`Error`, which GraphQLErrors conforms to) is declared with a number.
        let clashing = try GraphQLSchemaCache.service(text: "enum Error { A B }\ntype Query { f(e: Error): Int }", name: "clash.graphql",
                                                      path: "/graphql", directory: nil)
        let (found, _) = try clashing.operations(in: "query F($e: Error) { f(e: $e) }", name: "ops.graphql")
        let clashFiles = GraphQLSwiftGenerator(operations: found, kind: "Public", path: "/graphql", origin: "test").files()
        #expect(clashFiles.map(\.path).contains("Enums/Error2.swift"))
        #expect(clashFiles.first { $0.path == "Enums/Error2.swift" }?.text.contains("public enum Error2: String") == true)
        #expect(clashFiles.first { $0.path == "Operations/FQuery.swift" }?.text.contains("public static func f(e: Error2? = nil) -> Self") == true)
        #expect(clashFiles.first { $0.path == "Registrations.swift" }?.text.contains("extension Error2: ScriptArgument {}") == true)
    }

    @Test("A schema that defines a field twice (GitHub's does) is read with a warning, the first definition kept")
    func duplicateFields() throws {
        let schema = try GraphQLSchemaModel(sdl: """
            type Query { a: Int b: String a: String }
            """)
        #expect(schema.types["Query"]?.fields.map(\.name) == ["a", "b"])
        #expect(schema.types["Query"]?.field(named: "a")?.type == .named("Int"))
        #expect(schema.warnings == ["Query.a is defined twice in the schema; the first definition is used"])
    }

    @Test("Bad schemas are one clear error each, never a crash", arguments: [
        ("type Query {", "the schema does not parse: line 1, column 13"),
        ("{}", "the JSON is not an introspection answer"),
        ("{\"data\": {\"__schema\": {\"types\": [{\"kind\": \"OBJECT\"}]}}}", "__schema.types[0] has no name"),
        ("scalar Date", "defines no object types"),
        ("{\"__schema\": {\"types\": [{\"kind\": \"NOPE\", \"name\": \"X\"}]}}", "has no kind GraphQL knows"),
        // A name that is no GraphQL name: it would reach the terminal and the validator's SDL.
        ("{\"__schema\": {\"queryType\": {\"name\": \"Q\"}, \"types\": [{\"kind\": \"OBJECT\", \"name\": \"Q\\u001b[31m\"}]}}",
         "is not a GraphQL name"),
        ("{\"__schema\": {\"queryType\": {\"name\": \"Q\"}, \"types\": [{\"kind\": \"OBJECT\", \"name\": \"Q\", \"fields\": [{\"name\": \"a b\", \"args\": [], \"type\": {\"kind\": \"SCALAR\", \"name\": \"Int\"}}]}]}}",
         "Q.fields[0]: 'a b' is not a GraphQL name"),
        // Nesting that GraphQLSwift's recursive parser would follow off its stack.
        ("type Query { a(x: " + String(repeating: "[", count: 100_000) + "Int): Int }", "nests deeper than 100 levels"),
        ("{\"__schema\": {\"queryType\": {\"name\": \"Q\"}, \"types\": [{\"kind\": \"OBJECT\", \"name\": \"Q\", \"fields\": [{\"name\": \"a\", \"args\": [], \"type\": "
            + String(repeating: "{\"kind\": \"LIST\", \"ofType\": ", count: 40) + "{\"kind\": \"SCALAR\", \"name\": \"Int\"}" + String(repeating: "}", count: 40)
            + "}]}]}}", "Q.fields[0] has no name or type"),
    ])
    func badSchemas(text: String, expected: String) throws {
        do {
            _ = try GraphQLSchemaCache.service(text: text, name: "s", path: "/graphql", directory: nil)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    @Test("An operation that nests deeper than GraphQLSwift can follow is refused at its place, not followed off the stack")
    func deepOperation() async throws {
        let shell = try await shell()
        let deep = String(repeating: "{ a ", count: 50_000) + String(repeating: "}", count: 50_000)
        let found = diagnostics(shell, "graphql(\"\(deep)\")")
        #expect(found.first?.message.contains("nests deeper than 100 levels") == true, "\(found.map(\.message))")
        #expect(found.first.map { shell.describeSpan($0) } == "1:410")  // the 101st "{", after `graphql("`
    }

    @Test("A large schema (2,000 types) is read, cached by content, and types an operation")
    func largeSchema() async throws {
        var text = "type Query {\n"
        for index in 0..<2_000 { text += "  t\(index)(id: ID!): T\(index)\n" }
        text += "}\n"
        for index in 0..<2_000 { text += "type T\(index) { id: ID! name: String size: Int next: T\((index + 1) % 2_000) }\n" }
        try await withTemporaryFolder("graphql-cache") { folder in
            let first = try GraphQLSchemaCache.service(text: text, name: "big", path: "/graphql", directory: folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1)
            let second = try GraphQLSchemaCache.service(text: text, name: "big", path: "/graphql", directory: folder)
            #expect(first.schema.types.count == second.schema.types.count)
            #expect(second.schema.types.count == 2_001 + GraphQLSchemaModel.builtInScalars.count)
            let (operations, _) = try second.typer.operations(in: "query Q { t1999(id: 1) { name next { next { id } } } }", name: "q")
            #expect(operations.first?.resultType.description == "QQuery")
        }
    }
}

extension Shell {
    /// `line:column` of a diagnostic's start, for tests.
    func describeSpan(_ diagnostic: Diagnostic) -> String {
        guard let position = diagnostic.source?.position(at: diagnostic.span.start) else { return "?" }
        return "\(position.line):\(position.column)"
    }
}
