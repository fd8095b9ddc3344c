import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPICurl

/// Header values with bytes outside ASCII (RFC 9110's obs-text), as real services send them.
@Suite("Header values outside ASCII")
struct HeaderBytesTests {
    final class LastExchange: APIClientDelegate {
        let headers = Mutex<[String: String]>([:])
        func client(_ client: APIClient, didReceive exchange: Exchange) {
            headers.withLock { stored in
                for (name, value) in exchange.responseHeaders { stored[name.lowercased()] = value }
            }
        }
    }

    @Test("UTF-8 and Latin-1 header bytes never fail the call, and read as the text they are",
          arguments: [TransportChoice.curl, .asyncHTTPClient])
    func obsText(transport: TransportChoice) async throws {
        let server = try FaultServer { connection in
            let body = Array(#"{"userId":1,"id":1,"title":"t","body":"b"}"#.utf8)
            var head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n".utf8)
            head += Array("X-Test-Header: v 1; ü\r\n".utf8)
            head += Array("Content-Disposition: attachment; filename=\"caf".utf8) + [0xE9] + Array(".txt\"\r\n\r\n".utf8)
            try connection.send(head + body)
        }
        defer { server.stop() }
        let recorder = LastExchange()
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               delegate: recorder)
        let post = try await client.send(Endpoint<Public, Post>(path: "/post"))
        #expect(post.id == 1)
        let headers = recorder.headers.withLock { $0 }
        #expect(headers["x-test-header"] == "v 1; ü")
        if transport == .curl {
            #expect(headers["content-disposition"] == "attachment; filename=\"café.txt\"", "\(headers)")
        } else {
            // SwiftNIO hands its headers over as decoded strings: a Latin-1 byte arrives as U+FFFD.
            #expect(headers["content-disposition"]?.hasPrefix("attachment; filename=\"caf") == true, "\(headers)")
        }
    }
}
