// How a host tests its own endpoints and scripts with TypistTesting: no server, no network.
import Foundation
import Testing
import Typist
import TypistTesting
@testable import example_host

@Suite("The example host's reading list")
struct ReadingListTests {
    /// The host's backend, answered in memory (one per test: it records what each sends).
    static func backend() -> InMemoryTransport {
        InMemoryTransport(routes: [
            "/posts": #"[{"id": 25, "title": "Typed", "userId": 1}, {"id": 26, "title": "Other", "userId": 2}]"#,
            "/posts/25": #"{"id": 25, "title": "Typed", "userId": 1}"#,
            "/users/1": #"{"id": 1, "name": "Ada", "company": {"name": "Engines"}}"#,
        ])
    }

    @Test("A script over the host's endpoints runs and its expectations hold")
    func script() async throws {
        let tester = ShellTester(registry: try ReadingList.registry, transport: Self.backend())
        let outcome = try await tester.run(script: """
            let picks = articles().filter { $0.id % 25 == 0 }
            for pick in picks { print("#\\(pick.id) by \\(writer(id: pick.userId).name)") }
            expect(article(number: 25).title == "Typed")
            """)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "#25 by Ada\n")
    }

    @Test("A misspelt field is a check error with a suggestion, exit status 65, nothing sent")
    func checkError() async throws {
        let transport = InMemoryTransport()
        let tester = ShellTester(registry: try ReadingList.registry, transport: transport)
        let outcome = try await tester.run(script: "print(article(number: 1).titel)")
        #expect(outcome.status == 65)
        #expect(outcome.errors.contains("test.api:1:26: error: Article has no member 'titel'"), "\(outcome.errors)")
        #expect(transport.requests.isEmpty)
    }

    @Test("At the prompt: the host's name, results, and the request that was sent")
    func prompt() async throws {
        let backend = Self.backend()
        let tester = ShellTester(registry: try ReadingList.registry, transport: backend)
        let outcome = try await tester.runPrompt(["writer(id: 1).company.name", ":curl article(number: 25)"], name: "example-host")
        #expect(outcome.prompts == ["example-host> ", "example-host> ", "example-host> "])
        #expect(outcome.output == """
            "Engines"
            curl \\
              'https://api.example.test/posts/25' \\
              -H 'User-Agent: typist/0.16.0' \\
              -H 'Accept: application/json'

            """, "\(outcome.output)")
        // :curl sends nothing: one request, the writer's.
        #expect(backend.requests.map(\.url) == ["https://api.example.test/users/1"])
    }
}
