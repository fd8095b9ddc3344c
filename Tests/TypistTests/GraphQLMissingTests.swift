import Foundation
import Testing
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistGraphQL

/// `typist` built without the package's `GraphQL` trait (its default, so the first build pays
/// nothing for GraphQLSwift): every way of asking for GraphQL answers with how to build it in,
/// instead of an unknown option or command, and nothing is read or sent first.
@Suite("Without the GraphQL trait, asking for GraphQL says how to build it in",
       .enabled(if: !BuildTraits.graphQL, "built with the GraphQL trait: the GraphQL suites test it instead"))
struct GraphQLMissingTests {
    static let howTo = "swift run --traits default,GraphQL typist"
    static let examples = Built.packageRoot.appendingPathComponent("Examples/GraphQL")
    static let schema = examples.appendingPathComponent("schema.graphql").path

    @Test("--graphql-schema, --graphql, a .graphql beside a script, generate and cassette verify: exit 69 and the command that builds it in")
    func commandLine() async throws {
        let prompt = try await Built.run("typist", ["--graphql-schema", Self.schema], input: ":quit\n")
        #expect(prompt.status == ExitStatus.unavailable)
        #expect(prompt.error.contains(Self.howTo), "\(prompt.error)")
        #expect(prompt.standard.isEmpty, "\(prompt.standard)")

        try await withTemporaryFolder("graphql-missing") { folder in
            let script = folder.appendingPathComponent("smoke.api")
            try "1 + 1\n".write(to: script, atomically: true, encoding: .utf8)
            // Nothing listens on port 9: the answer comes before anything is sent.
            let introspect = try await Built.run("typist", ["run", script.path, "--graphql", "http://127.0.0.1:9/graphql"])
            #expect(introspect.status == ExitStatus.unavailable)
            #expect(introspect.error.contains(Self.howTo), "\(introspect.error)")
            #expect(!introspect.error.contains("127.0.0.1"), "\(introspect.error)")
            let plain = try await Built.run("typist", ["check", script.path])
            #expect(plain.status == ExitStatus.success, "\(plain.error)")
            try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("tracker.graphql"),
                                             to: folder.appendingPathComponent("smoke.graphql"))
            let beside = try await Built.run("typist", ["check", script.path, "--graphql-schema", Self.schema])
            #expect(beside.status == ExitStatus.unavailable)
            #expect(beside.error.contains(Self.howTo), "\(beside.error)")

            let output = folder.appendingPathComponent("Generated")
            let generate = try await Built.run("typist", ["generate", "--graphql-schema", Self.schema,
                                                          "--graphql-operations", Self.examples.appendingPathComponent("tracker.graphql").path,
                                                          "--output", output.path])
            #expect(generate.status == ExitStatus.unavailable)
            #expect(generate.error.contains(Self.howTo), "\(generate.error)")
            #expect(!FileManager.default.fileExists(atPath: output.path))

            let har = folder.appendingPathComponent("empty.har")
            try #"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": []}}"#
                .write(to: har, atomically: true, encoding: .utf8)
            let verify = try await Built.run("typist", ["cassette", "verify", har.path, "--graphql-schema", Self.schema])
            #expect(verify.status == ExitStatus.unavailable)
            #expect(verify.error.contains(Self.howTo), "\(verify.error)")
        }
    }

    @Test(":graphql at the prompt is listed, and fails saying how to build it in")
    func promptCommand() async throws {
        let run = try await Built.run("typist", ["--no-color"], input: ":help\n:graphql \(Self.schema)\n")
        #expect(run.standard.contains(":graphql url|schema-file"), "\(run.standard)")
        #expect(run.error.contains(Self.howTo), "\(run.error)")
        #expect(run.status == ExitStatus.failure)
    }

    @Test("A host that adds TypistGraphQL without the trait: its loader says which trait, before reading or sending anything")
    func library() async throws {
        let request = GraphQLLoadRequest(endpoint: "http://127.0.0.1:9/graphql", schema: nil, operations: [])
        do {
            _ = try await GraphQLLoader.load(request, transport: CurlTransport(), tls: .system, credential: nil, cacheDirectory: nil)
            Issue.record("a build without GraphQLSwift loaded a schema")
        } catch let error as MissingFeature {
            #expect(error.description.contains(#"traits: [.defaults, "GraphQL"]"#), "\(error)")
        }
        #expect(throws: GraphQLSchemaError.self) { try GraphQLSchemaModel(sdl: "type Query { a: Int }") }
    }
}
