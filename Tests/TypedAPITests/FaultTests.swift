import DemoService
import Foundation
import Testing
import TypistTesting
import TypedAPI

/// Every `APIError` case, caused by the demo service's fault routes or by bad input.
@Suite("Faults become APIErrors a person can act on")
struct FaultTests {
    @Test("An unacceptable status names method, URL, status and the start of the body",
          arguments: TransportChoice.allCases)
    func unacceptableStatus(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, server in
            let error = await expectAPIError { try await client.send(.status(code: 503)) }
            let message = error.map(String.init(describing:)) ?? ""
            #expect(message.hasPrefix("GET \(server.baseURL)/faults/status/503: 503"))
            #expect(message.contains(#""message":"status 503 as requested""#))
            #expect((error.flatMap { if case .unacceptableStatus(_, let r) = $0 { r.serverError } else { nil } }
                as? StatusReport)?.status == 503)
            let ok = try await client.send(.status(code: 200))
            #expect(ok.status == 200)
        }
    }

    @Test("A body that is not JSON is a decoding failure with the text around it", arguments: TransportChoice.allCases)
    func malformed(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let error = await expectAPIError { try await client.send(.malformed) }
            guard case .decodingFailed(_, let failure)? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
            #expect(failure.type == "Post")
            #expect(failure.expected == "valid JSON")
            #expect(failure.snippet?.contains("unfinished") == true)
        }
    }

    @Test("A wrong type names the coding path, expected and found values", arguments: TransportChoice.allCases)
    func wrongType(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let error = await expectAPIError { try await client.send(.wrongType) }
            guard case .decodingFailed(_, let failure)? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                return
            }
            #expect(failure.codingPath == "id")
            #expect(failure.expected == "Int")
            #expect(failure.found == #"a string "one""#)
            #expect(failure.snippet?.contains(#""id":"one""#) == true)
            #expect(String(describing: error!).contains(#"cannot decode Post at id: expected Int, found a string "one""#))
        }
    }

    @Test("HTML where JSON was asked for is an unexpected content type", arguments: TransportChoice.allCases)
    func notJSON(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let error = await expectAPIError { try await client.send(.notJSON) }
            guard case .unexpectedContentType(_, let expected, let response)? = error else {
                Issue.record("expected a content type error, got \(String(describing: error))")
                return
            }
            #expect(expected == "application/json")
            #expect(response.contentType?.hasPrefix("text/html") == true)
            #expect(String(describing: error!).contains("<h1>Maintenance</h1>"))
        }
    }

    @Test("A truncated body is a transport failure, not a crash or a hang", arguments: TransportChoice.allCases)
    func truncated(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let error = await expectAPIError { try await client.send(.truncated) }
            guard case .transport(_, let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .connectionClosed)
        }
    }

    @Test("A slow answer past the time limit is a time-out", arguments: TransportChoice.allCases)
    func timeout(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            // The answer comes at 30 s as a success: a time-out is proof that the limit acted first (no clock is read).
            let error = await expectAPIError { try await client.send(Endpoint.slow(ms: 30_000).timeout(.milliseconds(300))) }
            guard case .timedOut(_, let limit)? = error else {
                Issue.record("expected a time-out, got \(String(describing: error))")
                return
            }
            #expect(limit == .milliseconds(300))
            #expect(String(describing: error!).contains("timed out after 300 ms"))
        }
    }

    @Test("The client-wide time limit applies when the endpoint sets none", arguments: TransportChoice.allCases)
    func clientTimeout(transport: TransportChoice) async throws {
        // The answer comes after 30 s and the limit is 3 s: only the limit can end the call first.
        try await withDemoServer(transport, configuration: .init(timeout: .seconds(3))) { client, _ in
            let error = await expectAPIError { try await client.send(.slow(ms: 30_000)) }
            guard case .timedOut? = error else {
                Issue.record("expected a time-out, got \(String(describing: error))")
                return
            }
            // The client is not wedged: the next call is answered. Its own limit is long, so a busy
            // machine's slowness to answer even 10 ms cannot turn it into a time-out.
            let quick = try await client.send(Endpoint.slow(ms: 10).timeout(.seconds(300)))
            #expect(quick.waitedMs == 10)
        }
    }

    @Test("Cancelling the task cancels the HTTP exchange promptly", arguments: TransportChoice.allCases)
    func cancellation(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let task = Task { try await client.send(.slow(ms: 30_000)) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let result = await task.result
            guard case .failure(let error) = result, case .cancelled? = error as? APIError else {
                Issue.record("expected cancelled, got \(result)")
                return
            }
        }
    }

    @Test("The completion-handler form delivers results and can be cancelled", arguments: TransportChoice.allCases)
    func completionHandler(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let post = try await withCheckedThrowingContinuation { continuation in
                client.send(.post(id: 3)) { continuation.resume(with: $0) }
            }
            #expect(post.id == 3)
            let error: APIError? = await withCheckedContinuation { continuation in
                let handle = client.send(.slow(ms: 5_000)) { result in
                    if case .failure(let error) = result { continuation.resume(returning: error) }
                    else { continuation.resume(returning: nil) }
                }
                handle.cancel()
                #expect(handle.isCancelled)
            }
            guard case .cancelled? = error else {
                Issue.record("expected cancelled, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("A refused port is a transport failure that says what to check", arguments: TransportChoice.allCases)
    func refused(transport: TransportChoice) async throws {
        try await withClosedLoopbackPort { port in
            let client = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:\(port)"),
                                   transport: transport.make())
            let error = await expectAPIError { try await client.send(.posts) }
            guard case .transport(let request, let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .connectionRefused)
            #expect(request.url == "http://127.0.0.1:\(port)/posts")
            #expect(String(describing: error!).contains("is the server running"))
        }
    }

    @Test("TLS to a server that speaks plain HTTP is a transport failure, not a hang", arguments: TransportChoice.allCases)
    func tlsFailure(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { _, server in
            let client = APIClient(environment: try ServerEnvironment(url: "https://127.0.0.1:\(server.port)"),
                                   transport: transport.make(), configuration: .init(timeout: .seconds(30)))
            let error = await expectAPIError { try await client.send(.posts) }
            guard case .transport(_, let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .tls, "\(failure)")
            #expect(failure.description.hasPrefix("TLS failed: "))
        }
    }

    @Test("A path with a space, '#', a broken escape or a non-ASCII letter is an invalid URL naming the part, and nothing is sent",
          arguments: ["/posts/a b", "/posts/#top", "/posts/%zz", "/naïve"])
    func invalidPath(path: String) async throws {
        let transport = InMemoryTransport()
        let client = APIClient(environment: try ServerEnvironment(url: "http://example.test"), transport: transport)
        let error = await expectAPIError { try await client.send(Endpoint<Public, Post>(path: path)) }
        guard case .invalidURL(let url, let reason)? = error else {
            Issue.record("expected an invalid URL, got \(String(describing: error))")
            return
        }
        #expect(url.hasSuffix(path))
        #expect(reason.contains("the path '\(path)'"))
        #expect(transport.requests.isEmpty)
    }

    @Test("Base URLs that are wrong say which part is wrong",
          arguments: [("example.com", "no scheme"), ("ftp://example.com", "the scheme 'ftp'"),
                      ("http://", "the host is empty"), ("http://host:99999", "the port 99999"),
                      ("http://host:abc", "the port 'abc'"), ("http://host/a?b=c", "query"),
                      ("http://user:pw@host", "credentials"), ("http://ho st", "a space")])
    func invalidBaseURL(url: String, part: String) {
        #expect {
            try ServerEnvironment(url: url)
        } throws: { error in
            guard case .invalidURL(_, let reason) = error as? APIError else { return false }
            return reason.contains(part)
        }
    }
}
