#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import DemoService
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICombine
import TypedAPICurl

// README:begin
struct BlogPost: Decodable, Sendable {
    let userId: Int
    let id: Int
    let title: String
}

struct SearchHits: Decodable, Sendable {
    let total: Int
}

extension Endpoint where Kind == Public, Response == BlogPost {
    static func post(id: Int) -> Self { Endpoint(path: "/posts/\(id)") }
}

extension Endpoint where Kind == Bearer, Response == SearchHits {
    static func search(query: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "q", value: query)]), path: "/v1/search", envelope: "result")
    }
}

func readmeExample(baseURL: String, token: AccessToken) async throws -> String {
    let client = APIClient(environment: try ServerEnvironment(url: baseURL),
                           transport: AsyncHTTPClientTransport())
    let post: BlogPost = try await client.send(.post(id: 1))
    let hits: SearchHits = try await client.send(.search(query: "swift"), with: token) // needs the token
    return "\(post.title): \(hits.total) hits"
}
// README:end

// README-streams:begin
func followBuild(baseURL: String) async throws -> [String] {
    let client = APIClient(environment: try ServerEnvironment(url: baseURL), transport: CurlTransport())
    var seen: [String] = []
    for try await event in client.stream(Endpoint<Public, BuildEvent>(path: "/events")) {
        seen.append("\(event.n) \(event.status)")    // each item decoded into the endpoint's type
        if event.status == "passed" { break }      // leaving the loop closes the connection
    }
    return seen
}
// README-streams:end

// README-publisher:begin
func stars(client: APIClient, then received: @escaping @Sendable ([Int]) -> Void) -> AnyCancellable {
    client.publisher(for: .searchRepositories(query: "Swift"))   // AnyPublisher<RepositorySearch, any Error>
        .map(\.items)
        .replaceError(with: [])
        .sink { repositories in received(repositories.map(\.stargazersCount)) }
}
// README-publisher:end

@Suite("README")
struct ReadmeExampleTests {
    @Test("The README's stream example is this file's code, and it runs")
    func streams() async throws {
        let (code, readme) = try Self.block("README-streams")
        #expect(readme.contains("```swift\n" + code + "```"))
        let seen = try await Self.withDemoServer { server in try await followBuild(baseURL: server.baseURL) }
        #expect(seen == ["1 queued", "2 running", "3 passed"])
    }

    @Test("The README's TypedAPI example is this file's code, and it runs")
    func example() async throws {
        let (code, readme) = try Self.block("README")
        #expect(readme.contains("```swift\nimport TypedAPI\nimport TypedAPIAsyncHTTPClient\n\n" + code + "```"))
        let line = try await Self.withDemoServer { server in
            let client = APIClient(environment: try ServerEnvironment(url: server.baseURL),
                                   transport: AsyncHTTPClientTransport())
            let session = try await client.send(.login(user: "ada", password: "lovelace"))
            return try await readmeExample(baseURL: server.baseURL, token: AccessToken(session.token))
        }
        #expect(line.hasSuffix(" hits") && !line.hasPrefix(": "))
    }

    @Test("The README's publisher example is this file's code, and it gives the search's stars")
    func publisher() async throws {
        let (code, readme) = try Self.block("README-publisher")
        #expect(readme.contains("```swift\n" + code + "```"))
        let (expected, received) = try await Self.withDemoServer { server in
            let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: CurlTransport())
            let expected = try await client.send(.searchRepositories(query: "Swift")).items.map(\.stargazersCount)
            var cancellable: AnyCancellable?
            let received: [Int] = await withCheckedContinuation { continuation in
                cancellable = stars(client: client) { continuation.resume(returning: $0) }
            }
            withExtendedLifetime(cancellable) {}
            return (expected, received)
        }
        #expect(!expected.isEmpty)
        #expect(received == expected)
    }

    /// Runs `body` with a demo server, stopped whatever happens.
    private static func withDemoServer<T>(_ body: (DemoServer) async throws -> T) async throws -> T {
        let server = try await DemoServer.start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// This file's code between `// MARKER:begin` and `// MARKER:end`, and the README's text.
    private static func block(_ marker: String) throws -> (code: String, readme: String) {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let code = try #require(between("// \(marker):begin\n", "// \(marker):end", in: source))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (code, try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
    }

    private static func between(_ start: String, _ end: String, in text: String) -> String? {
        guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex)
        else { return nil }
        return String(text[lower.upperBound..<upper.lowerBound])
    }
}
