// Only `import Typist` (and the test's own modules): a host's view of the registration API.
import FaultServer
import Foundation
import Synchronization
import Testing
import Typist

/// A host's enum: `extension …: ScriptArgument {}` is all it writes.
enum IssueState: String, CaseIterable, Sendable { case open, closed }
extension IssueState: ScriptArgument {}

/// Array, set, dictionary and enum parameters need no hand-written conversion and no `import APIScript`.
@Suite("Collection parameters")
struct CollectionParameterTests {
    struct Echo: Decodable, Sendable { let target: String }

    static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Register("issues", summary: "Issues by labels, ids, filters and state",
                     Parameter<[String]>("labels"), Parameter<Set<Int>>("ids", default: []),
                     Parameter<[String: String]>("filters", default: [:]), Parameter<IssueState?>("state")) { labels, ids, filters, state in
                var query = labels.map { URLQueryItem(name: "label", value: $0) }
                query += ids.sorted().map { URLQueryItem(name: "id", value: String($0)) }
                query += filters.keys.sorted().map { URLQueryItem(name: $0, value: filters[$0]) }
                if let state { query.append(URLQueryItem(name: "state", value: state.rawValue)) }
                return Endpoint<Public, Echo>(.get(query: query), path: "/issues")
            }
        }
    }

    @Test("A call with arrays, a set, a dictionary and an enum case builds the query the host's closure writes")
    func collections() async throws {
        let server = try FaultServer { connection in
            let target = connection.requestHead.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            try connection.respond(body: Array("{\"target\": \"\(target)\"}".utf8))
        }
        defer { server.stop() }
        let output = CapturedShellOutput()
        let shell = try Shell(registry: try Self.registry(), environment: try ServerEnvironment(url: server.baseURL),
                              transport: URLSessionTransport(), output: output.shellOutput)
        let value = try await shell.evaluate(#"issues(labels: ["bug", "ui"], ids: [3, 1, 3], filters: ["sort": "new"], state: .open).target"#)
        #expect("\(value)".contains("/issues?label=bug&label=ui&id=1&id=3&sort=new&state=open"), "\(value)")
        let refused = await shell.handle(#"issues(labels: ["a", 2])"#)
        #expect(refused == false)
        #expect(output.text.contains("cannot convert value of type 'Int' to expected type 'String'"), "\(output.text)")
    }
}

/// Output collected without naming the language's types.
final class CapturedShellOutput: Sendable {
    private let collected = Mutex("")
    var text: String { collected.withLock { $0 } }
    var shellOutput: ShellOutput {
        ShellOutput(standard: { text in self.collected.withLock { $0 += text } },
                    error: { text in self.collected.withLock { $0 += text } })
    }
}
