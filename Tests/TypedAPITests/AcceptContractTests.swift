import DemoService
import FaultServer
import Foundation
import Testing
import TypedAPI

/// The content-type check holds a response to what the request asked for in `Accept`: an
/// endpoint's own header, when it sets one, is the contract.
@Suite("Accept is the contract")
struct AcceptContractTests {
    static let post = Array(#"{"userId":1,"id":3,"title":"t","body":"b"}"#.utf8)

    private func withServer<T>(_ transport: TransportChoice, contentType: String,
                               _ body: (APIClient) async throws -> T) async throws -> T {
        let server = try FaultServer { connection in
            try connection.respond(headers: ["Content-Type: \(contentType)"], body: Self.post)
        }
        defer { server.stop() }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make())
        return try await body(client)
    }

    @Test("JSON served as text/plain decodes when the endpoint accepts text/plain, and is refused when it does not",
          arguments: TransportChoice.allCases)
    func endpointsOwnAccept(transport: TransportChoice) async throws {
        try await withServer(transport, contentType: "text/plain; charset=utf-8") { client in
            let lenient = Endpoint<Public, Post>(path: "/post", headers: [.accept(["text/plain", "application/json"])])
            let value = try await client.send(lenient)
            #expect(value.id == 3)
            let strict = Endpoint<Public, Post>(path: "/post")
            let error = await expectAPIError { try await client.send(strict) }
            guard case .unexpectedContentType(_, let expected, _)? = error else {
                Issue.record("expected a content-type error, got \(String(describing: error))")
                return
            }
            #expect(expected == "application/json")
        }
    }

    @Test("A type the Accept header refuses with q=0 does not count, wildcards do", arguments: [
        ("text/html, application/json;q=0", false),
        ("text/*;q=0.5", true),
        ("*/*", true),
        ("application/xml", false),
    ])
    func acceptLists(accept: String, accepted: Bool) async throws {
        try await withServer(.curl, contentType: "text/plain") { client in
            let endpoint = Endpoint<Public, Post>(path: "/post", headers: [.accept([accept])])
            if accepted {
                let value = try await client.send(endpoint)
                #expect(value.id == 3)
            } else if case .unexpectedContentType(_, let expected, _)? = await expectAPIError({ try await client.send(endpoint) }) {
                #expect(expected == accept)
            } else {
                Issue.record("expected a content-type error")
            }
        }
    }
}
