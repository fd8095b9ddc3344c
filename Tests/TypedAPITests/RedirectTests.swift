import DemoService
import Foundation
import Testing
import TypedAPI

/// Credentials never follow a redirect to another origin, through either transport.
@Suite("Redirects")
struct RedirectTests {
    /// A bearer endpoint that redirects to `target`.
    private func redirecting(to target: String) -> Endpoint<Bearer, HeaderEcho> {
        Endpoint(.get(query: [URLQueryItem(name: "to", value: target)]), path: "/faults/redirect")
            .header(.custom(name: "Cookie", value: "session=secret"))
            .header(.custom(name: "X-Trace", value: "kept"))
    }

    @Test("Another origin gets no Authorization, Cookie or API key", arguments: TransportChoice.allCases)
    func crossOrigin(transport: TransportChoice) async throws {
        let other = try await DemoServer.start()
        defer { Task { await other.stop() } }
        try await withDemoServer(transport) { client, _ in
            let echo = try await client.send(redirecting(to: "\(other.baseURL)/debug/headers"), with: "s3cret")
            #expect(echo.headers["authorization"] == nil)
            #expect(echo.headers["cookie"] == nil)
            #expect(echo.headers["x-trace"] == "kept")

            let keyed = Endpoint<APIKey, HeaderEcho>(
                .get(query: [URLQueryItem(name: "to", value: "\(other.baseURL)/debug/headers")]),
                path: "/faults/redirect")
            let keyEcho = try await client.send(keyed, with: APIKeyCredential(name: "X-API-Key", value: "k"))
            #expect(keyEcho.headers["x-api-key"] == nil)

            let basic = Endpoint<Basic, HeaderEcho>(
                .get(query: [URLQueryItem(name: "to", value: "\(other.baseURL)/debug/headers")]),
                path: "/faults/redirect")
            let basicEcho = try await client.send(basic, with: BasicCredentials(username: "ada", password: "lovelace"))
            #expect(basicEcho.headers["authorization"] == nil)
        }
        await other.stop()
    }

    @Test("Client-wide secret headers (API keys, cookies, tokens) never reach another origin",
          arguments: TransportChoice.allCases)
    func crossOriginDefaultHeaders(transport: TransportChoice) async throws {
        let other = try await DemoServer.start()
        defer { Task { await other.stop() } }
        try await withDemoServer(transport) { client, server in
            client.defaultHeaders = [
                .custom(name: "X-Api-Key", value: "key-1"), .custom(name: "Cookie", value: "sid=2"),
                .custom(name: "X-Auth-Token", value: "t-3"), .custom(name: "Private-Token", value: "p-4"),
                .custom(name: "X-Trace", value: "kept"),
            ]
            let endpoint = Endpoint<Public, HeaderEcho>(
                .get(query: [URLQueryItem(name: "to", value: "\(other.baseURL)/debug/headers")]), path: "/faults/redirect")
            let echo = try await client.send(endpoint)
            for name in ["x-api-key", "cookie", "x-auth-token", "private-token"] {
                #expect(echo.headers[name] == nil, "\(name) followed the redirect")
            }
            #expect(echo.headers["x-trace"] == "kept")
            // The same origin still gets them.
            let same = Endpoint<Public, HeaderEcho>(
                .get(query: [URLQueryItem(name: "to", value: "\(server.baseURL)/debug/headers")]), path: "/faults/redirect")
            let kept = try await client.send(same)
            #expect(kept.headers["x-api-key"] == "key-1" && kept.headers["cookie"] == "sid=2")
        }
        await other.stop()
    }

    @Test("The same origin keeps the credentials", arguments: TransportChoice.allCases)
    func sameOrigin(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, server in
            let echo = try await client.send(redirecting(to: "\(server.baseURL)/debug/headers"), with: "s3cret")
            #expect(echo.headers["authorization"] == "Bearer s3cret")
            let relative = try await client.send(redirecting(to: "/debug/headers"), with: "s3cret")
            #expect(relative.headers["authorization"] == "Bearer s3cret")
        }
    }

    @Test("A redirect loop stops with a clear error", arguments: TransportChoice.allCases)
    func loop(transport: TransportChoice) async throws {
        try await withDemoServer(transport, configuration: .init(maximumRedirects: 3)) { client, _ in
            let error = await expectAPIError { try await client.send(.redirectLoop) }
            guard case .tooManyRedirects(_, let count)? = error else {
                Issue.record("expected too many redirects, got \(String(describing: error))")
                return
            }
            #expect(count == 3)
            #expect(String(describing: error!).contains("redirecting in a loop"))
        }
    }
}
