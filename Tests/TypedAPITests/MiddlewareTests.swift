import Foundation
import HTTPTypes
import Synchronization
import Testing
import TypedAPI
import TypedAPITesting

/// The client's middleware chain: stages in order, each exchange its own, the call's context
/// handed to each, a dry run that only a stage can answer.
@Suite("Middlewares")
struct MiddlewareTests {
    struct Post: Codable, Equatable { var id: Int }

    /// Lines noted, in order.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Notes what it sees under its name, and adds a header on the way through.
    struct Noting: APIClientMiddleware {
        let name: String
        let log: Log

        func prepare(_ request: inout PreparedRequest, context: CallContext) throws {
            log.append("\(name).prepare")
            request.setHeader(.custom(name: "X-Stage-\(name)", value: "1"))
        }

        func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
            let label = context.label.map { "\($0.endpoint ?? "-") \($0.responseType ?? "-")" } ?? "none"
            log.append("\(name) \(URL(string: request.url)?.path ?? "") #\(context.redirects) \(label)")
            return try await next(request, context)
        }
    }

    /// Signs in `willSend`, after every stage's `prepare`.
    struct Signing: APIClientDelegate {
        let log: Log

        func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {
            log.append("delegate.willSend \(request.header(named: "X-Stage-a") ?? "-")")
        }
    }

    @Test("Stages run in order around each exchange (a redirect is its own), prepare before the delegate signs, the context handed to each")
    func order() async throws {
        let log = Log()
        let transport = InMemoryTransport { request in
            request.path == "/old" ? (301, [.location: "/posts/1"], Data()) : (200, [.contentType: "application/json"], Data(#"{"id":1}"#.utf8))
        }
        var configuration = APIClient.Configuration()
        configuration.middlewares = [Noting(name: "a", log: log), Noting(name: "b", log: log)]
        let client = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: transport,
                               configuration: configuration, delegate: Signing(log: log))
        let post = try await client.send(Endpoint<Public, Post>(path: "/old"), context: CallContext(label: ExchangeLabel(endpoint: "moved")))
        #expect(post == Post(id: 1))
        #expect(log.all == [
            "a.prepare", "b.prepare", "delegate.willSend 1",
            "a /old #0 moved Post", "b /old #0 moved Post",
            "a /posts/1 #1 moved Post", "b /posts/1 #1 moved Post",
        ])
        #expect(transport.last?.header("X-Stage-b") == "1")
    }

    /// Answers every call itself, with what it was given.
    struct Answering: APIClientMiddleware {
        func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
            guard context.isDryRun else { return try await next(request, context) }
            return TransportResponse(head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                                     body: .whole(Data(#"{"id":7}"#.utf8)))
        }
    }

    @Test("A dry run reaches no transport and asks no delegate: a stage answers it, else it is refused")
    func dryRun() async throws {
        let log = Log()
        let transport = InMemoryTransport(json: #"{"id":1}"#)
        var configuration = APIClient.Configuration()
        configuration.middlewares = [Answering()]
        let client = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: transport,
                               configuration: configuration, delegate: Signing(log: log))
        let answered = try await client.send(Endpoint<Public, Post>(path: "/posts/1"), context: CallContext(isDryRun: true))
        #expect(answered == Post(id: 7))
        #expect(transport.requests.isEmpty)
        #expect(log.all.isEmpty)

        let bare = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: transport)
        await #expect(throws: APIError.self) {
            _ = try await bare.send(Endpoint<Public, Post>(path: "/posts/1"), context: CallContext(isDryRun: true))
        }
        #expect(transport.requests.isEmpty)
    }

    /// A host's streaming transport that declares its conformance in an extension.
    final class Chunked: HTTPTransport {
        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
            (HTTPResponse(status: .ok), Data("whole".utf8))
        }
    }

    @Test("A transport that adopts StreamingHTTPTransport streams through the one entry; one that does not is refused, saying which")
    func streamingByConformance() async throws {
        let request = TransportRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:9", path: "/"),
                                       body: nil, timeout: .seconds(1), delivery: .streamed)
        let answer = try await Chunked().exchange(request, context: CallContext())
        guard case .streamed(let chunks) = answer.body else {
            Issue.record("not streamed: \(answer.body)")
            return
        }
        var received: [String] = []
        for try await chunk in chunks { received.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(received == ["a", "b"])
        await #expect(throws: StreamingUnsupported.self) {
            _ = try await InMemoryTransport().exchange(request, context: CallContext())
        }
    }
}

extension MiddlewareTests.Chunked: StreamingHTTPTransport {
    func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, HTTPBodyChunks) {
        let rest = Mutex(["a", "b"])
        return (HTTPResponse(status: .ok), HTTPBodyChunks {
            rest.withLock { $0.isEmpty ? nil : Data($0.removeFirst().utf8) }
        })
    }
}
