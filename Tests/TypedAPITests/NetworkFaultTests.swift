import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPICurl

/// What a misbehaving server can do, through every transport: each is one clear `APIError`, within
/// the time limit, and the client goes on working. Where time matters, the server misbehaves for
/// minutes and the test checks the order of events (the error came while the server was still at
/// it), with a wall-clock bound far above the limit, so a loaded machine passes as an idle one does.
@Suite("A misbehaving server: every fault a clear APIError, through every transport", .timeLimit(.minutes(10)))
struct NetworkFaultTests {
    static let post = Array(#"{"userId":1,"id":1,"title":"t","body":"b"}"#.utf8)
    static let endpoint = Endpoint<Public, Post>(path: "/post")

    /// Runs `body` with a client for a fault server whose connections `handler` answers.
    /// The client's time limit is long unless a test is about it: on a busy machine a fault that is
    /// not a time-out (a body over the limit) must not turn into one; a client that hung would be
    /// caught by the suite's own limit.
    private func withFaultServer<T>(
        _ transport: TransportChoice, timeout: Duration = .seconds(300), maximumResponseSize: Int = 256 << 20,
        handler: @escaping @Sendable (FaultConnection) throws -> Void,
        _ body: (APIClient, FaultServer) async throws -> T
    ) async throws -> T {
        let server = try FaultServer(handler)
        defer { server.stop() }
        func client(_ transport: any HTTPTransport) throws -> APIClient {
            APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport,
                      configuration: .init(timeout: timeout))
        }
        guard transport == .curl else {
            return try await body(try client(transport.make(maximumResponseSize: maximumResponseSize)), server)
        }
        // libcurl on an engine of its own: the shared engine keeps idle connections from earlier
        // tests, and a fault server on a port an earlier test's server used could get this test's
        // request sent down an old connection that nobody answers (seen as a time-out instead of
        // the fault, in a full CI run).
        return try await CurlTransport.withOwnEngine(maximumResponseSize: maximumResponseSize) { curl, _ in
            try await body(try client(curl), server)
        }
    }

    /// Expects a failure of `operation`, and returns it. No clock is read: a fault the client
    /// failed to end would show as a test that never ends, which the suite's time limit fails.
    private func failure(sourceLocation: SourceLocation = #_sourceLocation,
                         _ operation: () async throws -> some Any) async -> APIError? {
        await expectAPIError(sourceLocation: sourceLocation, operation)
    }

    private func transportKind(_ error: APIError?) -> TransportFailure.Kind? {
        if case .transport(_, let failure)? = error { return failure.kind }
        return nil
    }

    @Test("A connection closed without a response", arguments: TransportChoice.allCases)
    func closedWithoutResponse(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { _ in }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) == .connectionClosed, "\(String(describing: error))")
        }
    }

    @Test("A connection reset in the middle of the body", arguments: TransportChoice.allCases)
    func resetMidBody(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"userId\":")
            try connection.pause(0.2)
            connection.reset()
        }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) == .connectionClosed, "\(String(describing: error))")
        }
    }

    @Test("A fault handler that writes after its reset writes nothing (its descriptor may be another connection's by then)")
    func nothingAfterReset() async throws {
        let afterReset = Mutex<[String]>([])
        try await withFaultServer(.urlSession, handler: { connection in
            connection.reset()
            connection.reset()
            // A new socket takes the lowest free descriptor: most likely the one just closed.
            var pair: [Int32] = [-1, -1]
            _ = pair.withUnsafeMutableBufferPointer { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, $0.baseAddress) }
            defer { for descriptor in pair where descriptor >= 0 { close(descriptor) } }
            do {
                try connection.send("HTTP/1.1 200 OK\r\n\r\n")
                afterReset.withLock { $0.append("sent") }
            } catch is FaultConnection.Gone {
                afterReset.withLock { $0.append("gone") }
            }
        }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) == .connectionClosed, "\(String(describing: error))")
        }
        #expect(afterReset.withLock { $0 } == ["gone"])
    }

    @Test("A body that trickles in past the time limit is a time-out on the whole exchange",
          arguments: TransportChoice.allCases)
    func slowBody(transport: TransportChoice) async throws {
        try await withFaultServer(transport, timeout: .seconds(2), handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n")
            for _ in 0..<300 {
                try connection.send("[")
                try connection.pause(1)
            }
        }) { client, server in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(server.finishedHandlers == 0, "the limit ended the exchange while the body was still arriving")
            guard case .timedOut(_, let limit)? = error else {
                Issue.record("expected a time-out, got \(String(describing: error))")
                return
            }
            #expect(limit == .seconds(2))
        }
    }

    @Test("A body that stalls after the head is a time-out", arguments: TransportChoice.allCases)
    func stalledBody(transport: TransportChoice) async throws {
        try await withFaultServer(transport, timeout: .seconds(2), handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            try connection.pause(300)
        }) { client, server in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(server.finishedHandlers == 0, "the limit ended the exchange during the stall")
            guard case .timedOut? = error else {
                Issue.record("expected a time-out, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("An endless stream under a time limit ends at the limit, not never",
          arguments: TransportChoice.allCases)
    func endlessStream(transport: TransportChoice) async throws {
        try await withFaultServer(transport, timeout: .seconds(2), handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
            while true {
                try connection.send(chunk)
                try connection.pause(0.01)
            }
        }) { client, server in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(server.finishedHandlers == 0)
            guard case .timedOut? = error else {
                Issue.record("expected a time-out, got \(String(describing: error))")
                return
            }
            // The client is not wedged: the next call is answered (here, refused quickly by the same server).
            let again = await failure { try await client.send(Self.endpoint) }
            #expect(again != nil)
        }
    }

    @Test("A body larger than the limit is refused as too large", arguments: TransportChoice.allCases)
    func tooLarge(transport: TransportChoice) async throws {
        try await withFaultServer(transport, maximumResponseSize: 1 << 20, handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
            for _ in 0..<16_384 { try connection.send(chunk) }  // 1 GiB, if anyone kept reading
        }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) == .responseTooLarge, "\(String(describing: error))")
        }
    }

    @Test("A Content-Length over the limit is refused at once, though the body never comes",
          arguments: TransportChoice.allCases)
    func announcedTooLarge(transport: TransportChoice) async throws {
        try await withFaultServer(transport, timeout: .seconds(600), handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{")
            try connection.pause(300)
        }) { client, server in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(server.finishedHandlers == 0, "refused at the head, not after the body's wait")
            #expect(transportKind(error) == .responseTooLarge, "\(String(describing: error))")
        }
    }

    @Test("A gzip bomb never becomes a huge body: the limit counts decompressed bytes",
          arguments: TransportChoice.allCases)
    func gzipBomb(transport: TransportChoice) async throws {
        let bomb = FaultBodies.gzipBomb(inflatingTo: 8 << 20)
        #expect(bomb.count < 64 << 10)
        try await withFaultServer(transport, maximumResponseSize: 1 << 20, handler: { connection in
            try connection.respond(headers: ["Content-Type: application/json", "Content-Encoding: gzip"], body: bomb)
        }) { client, _ in
            // Every transport decodes gzip, so every one must stop at the limit.
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) == .responseTooLarge, "\(String(describing: error))")
        }
    }

    @Test("A 401 with WWW-Authenticate comes back as the answer, body and all (URLSession waited for a credential until the limit)",
          arguments: TransportChoice.allCases)
    func authenticationChallenge(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { connection in
            try connection.respond(status: "401 Unauthorized",
                                   headers: ["Content-Type: application/json", "WWW-Authenticate: Basic realm=\"x\""],
                                   body: Array(#"{"error":"who are you?"}"#.utf8))
        }) { client, server in
            let error = await failure { try await client.send(Self.endpoint) }
            guard case .unacceptableStatus(_, let response)? = error else {
                Issue.record("expected the 401, got \(String(describing: error))")
                return
            }
            #expect(response.status == 401)
            #expect(response.bodyExcerpt == #"{"error":"who are you?"}"#)
            #expect(server.requestHeads.count == 1, "asked once, not again with a credential")
        }
    }

    @Test("64 KB of response headers", arguments: TransportChoice.allCases)
    func largeHeaders(transport: TransportChoice) async throws {
        let filler = (0..<1000).map { "X-Filler-\($0): " + String(repeating: "v", count: 50) }
        try await withFaultServer(transport, handler: { connection in
            try connection.respond(headers: ["Content-Type: application/json"] + filler, body: Self.post)
        }) { client, _ in
            do {
                let response = try await client.send(Self.endpoint.includingResponse())
                #expect(response.value.id == 1)
                #expect(response.headers.count >= 1000)
            } catch {
                // A transport may refuse headers this large; then it says so plainly.
                #expect(transportKind(error as? APIError) != nil, "\(error)")
            }
        }
    }

    @Test("HTTP/1.0 without Content-Length: the body ends with the connection", arguments: TransportChoice.allCases)
    func http10(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { connection in
            try connection.send(Array("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8) + Self.post)
        }) { client, _ in
            let post = try await client.send(Self.endpoint)
            #expect(post.title == "t")
        }
    }

    @Test("A 204 that carries a body anyway", arguments: TransportChoice.allCases)
    func noContentWithBody(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { connection in
            try connection.send("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        }) { client, _ in
            try await client.send(Endpoint<Public, Void>(.delete, path: "/post"))
            try await client.send(Endpoint<Public, Void>(.delete, path: "/post"))
        }
    }

    @Test("Broken chunked encoding", arguments: TransportChoice.allCases)
    func brokenChunked(transport: TransportChoice) async throws {
        try await withFaultServer(transport, handler: { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
        }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            #expect(transportKind(error) != nil, "\(String(describing: error))")
        }
    }

    @Test("Invalid UTF-8 inside a JSON string", arguments: TransportChoice.allCases)
    func invalidUTF8(transport: TransportChoice) async throws {
        let body = Array(#"{"userId":1,"id":1,"title":""#.utf8) + [0xFF, 0xFE, 0x80] + Array(#"","body":"b"}"#.utf8)
        try await withFaultServer(transport, handler: { connection in
            try connection.respond(body: body)
        }) { client, _ in
            let error = await failure { try await client.send(Self.endpoint) }
            guard case .decodingFailed? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("JSON nested 100,000 deep", arguments: TransportChoice.allCases)
    func deepJSON(transport: TransportChoice) async throws {
        let body = [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        try await withFaultServer(transport, handler: { connection in
            try connection.respond(body: body)
        }) { client, _ in
            let error = await failure { try await client.send(Endpoint<Public, [Post]>(path: "/posts")) }
            guard case .decodingFailed? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
            #expect(String(describing: error!).count < 4000)
        }
    }

    @Test("A delegate that puts a body on a GET is refused before anything is sent",
          arguments: TransportChoice.allCases)
    func bodyOnGet(transport: TransportChoice) async throws {
        struct AddsBody: APIClientDelegate {
            func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {
                request.body = Data("{}".utf8)
            }
        }
        let server = try FaultServer { connection in try connection.respond(body: Self.post) }
        defer { server.stop() }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               delegate: AddsBody())
        let error = await failure { try await client.send(Self.endpoint) }
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected an invalid request, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("GET request cannot carry a body"))
        #expect(server.requestHeads.isEmpty)
    }
}
