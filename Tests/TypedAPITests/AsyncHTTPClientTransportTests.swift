import FaultServer
import Foundation
import HTTPTypes
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient

/// What only the AsyncHTTPClient transport needs checking.
@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    @Test("A GET whose connection closes before any answer is sent once more; a POST is not")
    func retryWhenNothingCame() async throws {
        // The first connection of each pair reads the request and closes without a word (a server
        // dropping a kept-alive connection as it is reused); the next one answers.
        let (server, _) = try connectionDroppingServer { $0 % 2 == 1 }
        defer { server.stop() }
        func request(_ method: HTTPRequest.Method) -> HTTPRequest {
            HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/n")
        }
        let transport = AsyncHTTPClientTransport()
        let (response, body) = try await transport.send(request(.get), body: nil, timeout: .seconds(300))
        #expect(response.status == .ok)
        #expect(String(decoding: body, as: UTF8.self) == #"{"n":2}"#)
        #expect(server.requestHeads.count == 2)
        // A POST may have been acted on: it is not sent twice, and the failure is the caller's.
        await #expect(throws: TransportFailure.self) {
            _ = try await transport.send(request(.post), body: Data("{}".utf8), timeout: .seconds(300))
        }
        #expect(server.requestHeads.count == 3)
    }
}
