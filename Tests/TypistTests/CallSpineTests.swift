import APIScript
import DemoBindings
import DemoService
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPICurl
import TypistCore
import TypistOpenAPI

/// Every call a script makes goes one way: the session's client and its middlewares, with the
/// call's context handed to each — a typed endpoint's, a document's operation's, an untyped
/// request's and a stream's alike.
@Suite("One call spine")
struct CallSpineTests {
    /// A host's middleware that notes each exchange it sees, with the context it was handed.
    final class Counting: APIClientMiddleware {
        struct Seen: Equatable, CustomStringConvertible {
            var path: String
            var endpoint: String?
            var responseType: String?
            var streamed: Bool
            var description: String { "\(path) \(endpoint ?? "-") \(responseType ?? "-") \(streamed ? "streamed" : "whole")" }
        }

        private let seen = Mutex<[Seen]>([])
        private let prepared = Mutex(0)

        var exchanges: [Seen] { seen.withLock { $0 } }
        var preparedCalls: Int { prepared.withLock { $0 } }

        func prepare(_ request: inout PreparedRequest, context: CallContext) throws {
            prepared.withLock { $0 += 1 }
            request.setHeader(.custom(name: "X-Counted", value: "yes"))
        }

        func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
            let path = URL(string: request.url)?.path ?? request.url
            seen.withLock {
                $0.append(Seen(path: path, endpoint: context.label?.endpoint, responseType: context.label?.responseType,
                               streamed: context.delivery == .streamed))
            }
            return try await next(request, context)
        }
    }

    @Test("A typed, a document, an untyped and a stream call each pass a host's middleware exactly once; a preview passes none")
    func everyKindOnce() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let counting = Counting()
        let output = CapturedOutput()
        let shell = try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: server.baseURL),
                              transport: CurlTransport(), output: output.shellOutput, middlewares: [counting])
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.yaml", cacheDirectory: nil)
        let documentShell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: server.baseURL),
                                      transport: CurlTransport(), output: output.shellOutput, middlewares: [counting])

        #expect(try await shell.evaluate("post(id: 1).id") == .int(1))
        #expect(counting.exchanges == [Counting.Seen(path: "/posts/1", endpoint: "post", responseType: "Post", streamed: false)])

        #expect(try await documentShell.evaluate("post(id: 2).id") == .int(2))
        #expect(counting.exchanges.last == Counting.Seen(path: "/posts/2", endpoint: "post", responseType: "Post", streamed: false),
                "\(counting.exchanges)")

        #expect(try await shell.evaluate(#"httpGet("/posts/3").status"#) == .int(200))
        #expect(counting.exchanges.last == Counting.Seen(path: "/posts/3", endpoint: nil, responseType: nil, streamed: false),
                "\(counting.exchanges)")

        #expect(try await shell.evaluate("events(count: 3).reduce(0) { $0 + $1.n }") == .int(6))
        #expect(counting.exchanges.last == Counting.Seen(path: "/events", endpoint: "events", responseType: "BuildEvent", streamed: true),
                "\(counting.exchanges)")

        #expect(counting.exchanges.count == 4, "\(counting.exchanges)")
        #expect(counting.preparedCalls == 4)

        // A preview builds the requests and sends nothing: the host's stage sees no exchange of it.
        output.clear()
        #expect(await shell.handle(":curl post(id: 5)"))
        #expect(output.standard.contains("/posts/5"), "\(output.standard)")
        // What the host's stage adds to a request shows in the preview, as it would be sent.
        #expect(output.standard.contains("-H 'X-Counted: yes'"), "\(output.standard)")
        #expect(counting.exchanges.count == 4, "\(counting.exchanges)")
        await server.stop()
    }

    @Test("pages { … } in calls that run side by side: each closure's call follows its own pages")
    func pagesSideBySide() async throws {
        try await withDemoShell { shell, _, _ in
            let counts = try await shell.evaluate(
                #"[2, 3].concurrentMap { size in pages(limit: 2) { searchRepositories(query: "swift", perPage: size) }.count }"#)
            #expect(counts == .array([.int(4), .int(6)]))
        }
    }
}
