import DemoService
import FaultServer
import Foundation
import Testing
import TypedAPI

/// Real services compress: every transport asks for gzip and deflate and decodes them, and the
/// size limit counts decoded bytes.
@Suite("Compressed responses")
struct CompressionTests {
    static let post = Array(#"{"userId":1,"id":7,"title":"compressed","body":"b"}"#.utf8)
    static let endpoint = Endpoint<Public, Post>(path: "/post")

    private func withServer<T>(_ transport: TransportChoice, maximumResponseSize: Int = 256 << 20,
                               handler: @escaping @Sendable (FaultConnection) throws -> Void,
                               _ body: (APIClient, FaultServer) async throws -> T) async throws -> T {
        let server = try FaultServer(handler)
        defer { server.stop() }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL),
                               transport: transport.make(maximumResponseSize: maximumResponseSize),
                               configuration: .init(timeout: .seconds(60)))
        return try await body(client, server)
    }

    @Test("gzip and deflate bodies are decoded, and every request says it accepts both",
          arguments: TransportChoice.allCases, ["gzip", "deflate"])
    func decoded(transport: TransportChoice, coding: String) async throws {
        try await withServer(transport, handler: { connection in
            let body = coding == "gzip" ? FaultBodies.gzip(Self.post) : FaultBodies.zlib(Self.post)
            try connection.respond(headers: ["Content-Type: application/json", "Content-Encoding: \(coding)"], body: body)
        }) { client, server in
            let post = try await client.send(Self.endpoint)
            #expect(post.id == 7 && post.title == "compressed")
            let head = try #require(server.requestHeads.first).lowercased()
            let accepted = head.split(separator: "\r\n").first { $0.hasPrefix("accept-encoding:") }
            #expect(accepted?.contains("gzip") == true && accepted?.contains("deflate") == true, "\(head)")
        }
    }

    @Test("A large compressed body (several deflate blocks) arrives whole", arguments: TransportChoice.allCases)
    func largeBody(transport: TransportChoice) async throws {
        let posts = (1...3_000).map { #"{"userId":1,"id":\#($0),"title":"post \#($0)","body":"b"}"# }
        let json = Array(("[" + posts.joined(separator: ",") + "]").utf8)
        #expect(json.count > 65_535 * 2)
        try await withServer(transport, handler: { connection in
            try connection.respond(headers: ["Content-Type: application/json", "Content-Encoding: gzip"], body: FaultBodies.gzip(json))
        }) { client, _ in
            let all = try await client.send(Endpoint<Public, [Post]>(path: "/posts"))
            #expect(all.count == 3_000 && all.last?.title == "post 3000")
        }
    }

    @Test("An error about a compressed body names its Content-Encoding", arguments: TransportChoice.allCases)
    func errorNamesEncoding(transport: TransportChoice) async throws {
        try await withServer(transport, handler: { connection in
            try connection.respond(headers: ["Content-Type: application/json", "Content-Encoding: gzip"],
                                   body: FaultBodies.gzip(Array("<html>not json</html>".utf8)))
        }) { client, _ in
            let error = await expectAPIError { try await client.send(Self.endpoint) }
            let text = String(describing: error.map { $0 as Any } ?? "none")
            #expect(text.contains("Content-Encoding: gzip"), "\(text)")
        }
    }
}
