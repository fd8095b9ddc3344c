import Foundation
import Testing

/// GraphQL at the prompt in a real terminal: Tab inside an operation being written offers the
/// schema's fields. Skipped, and reported as skipped, where tmux is not installed.
@Suite("GraphQL at the prompt in a terminal (tmux)", .serialized, .enabled(if: BuildTraits.graphQL, BuildTraits.withoutGraphQL),
       .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests cannot run here"))
struct GraphQLTerminalTests {
    @Test("Tab inside graphql(\"…\") completes the selection's fields from the schema; :describe reads a type")
    func completion() async throws {
        let directory = try TerminalTests.temporaryHome()
        let schema = Built.packageRoot.appendingPathComponent("Examples/GraphQL/schema.graphql").path
        // Nothing is sent: the schema is a file, and nothing here calls an operation.
        let session = try TmuxSession("'\(try Built.executable("typist").path)' --graphql-schema '\(schema)' --base-url http://127.0.0.1:9",
                                      home: directory, removingHome: true)
        defer {
            let left = session.close()
            #expect(left.isEmpty, "processes outlived their terminal: \(left)")
        }
        try await session.waitFor("typist>")
        try session.type(#"graphql("{ rep"#)
        try session.send("Tab")
        try session.type("|")
        try await session.waitFor(#"graphql("{ repository|"#)
        try await session.clearLine()
        try session.type(#"graphql("{ repository(owner: \"a\", name: \"b\") { issues { nodes { "#)
        try session.send("Tab", "Tab")
        let screen = try await session.waitFor("createdAt")
        #expect(screen.contains("number") && screen.contains("labels") && screen.contains("author"))
        try await session.clearLine()
        try session.type(":describe IssueState")
        try session.send("Enter")
        try await session.waitFor("case CLOSED")
    }
}
