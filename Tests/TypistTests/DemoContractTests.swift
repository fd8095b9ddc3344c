import DemoBindings
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import Typist
@testable import TypistCore

/// Docs/DemoService.md and the demo's registrations say the same: every documented function is
/// registered and every registered one documented, with the same method, path and query names.
@Suite("The demo service's reference matches its registrations")
struct DemoContractTests {
    /// `(function name, "GET /posts/{id}", query names)` for each row of the reference's tables.
    static func documented() throws -> [(name: String, route: String, query: Set<String>)] {
        let text = try String(contentsOf: Built.packageRoot.appendingPathComponent("Docs/DemoService.md"), encoding: .utf8)
        var rows: [(String, String, Set<String>)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")).prefix { $0 != "(" }
            let route = cells[1].split(separator: "`").first.map(String.init) ?? ""
            rows.append((String(name), Self.pathPart(route), Self.queryNames(route)))
        }
        return rows
    }

    static func pathPart(_ route: String) -> String { String(route.prefix { $0 != "?" }) }

    static func queryNames(_ route: String) -> Set<String> {
        guard let mark = route.firstIndex(of: "?") else { return [] }
        return Set(route[route.index(after: mark)...].split(separator: "&").map { String($0.prefix { $0 != "=" }) })
    }

    @Test("Every documented function is registered, every registered one documented, routes alike")
    func sameFunctionsAndRoutes() async throws {
        let documented = try Self.documented()
        let registry = try DemoBindings.registry()
        #expect(Set(documented.map(\.name)) == Set(registry.endpoints.map(\.name)),
                "only documented: \(Set(documented.map(\.name)).subtracting(registry.endpoints.map(\.name))); only registered: \(Set(registry.endpoints.map(\.name)).subtracting(documented.map(\.name)))")
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(), output: CapturedOutput().shellOutput)
        for row in documented {
            guard let endpoint = registry.endpoint(named: row.name) else { continue }
            let route = try #require(shell.routeTemplate(endpoint), "\(row.name)")
            #expect(Self.pathPart(route) == row.route, "\(row.name): \(route) against \(row.route)")
            #expect(Self.queryNames(route) == row.query, "\(row.name): \(route) against the documented query")
        }
    }

    @Test("The routes the seeds call are served: the flat /comments (seed 002) and the redirect loop, registered")
    func seedRoutes() async throws {
        try await withDemoShell { shell, output, _ in
            let all = try await shell.evaluate("allComments().count")
            let one = try await shell.evaluate("allComments(postId: 3).map(\\.postId)")
            #expect(all == .int(500))
            #expect(one == .array(Array(repeating: .int(3), count: 5)))
            #expect(await shell.handle("redirectLoop()") == false)
            #expect(output.error.contains("redirect"), "\(output.error)")
        }
    }
}
