import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
@testable import TypedAPI
import TypedAPICurl

/// Header values with bytes outside ASCII (RFC 9110's obs-text), as real services send them.
@Suite("Header values outside ASCII")
struct HeaderBytesTests {
    final class LastExchange: APIClientDelegate {
        let headers = Mutex<[String: String]>([:])
        func client(_ client: APIClient, didReceive exchange: Exchange) {
            headers.withLock { stored in
                for header in exchange.responseHeaders { stored[header.name.lowercased()] = header.value }
            }
        }
    }

    @Test("UTF-8 and Latin-1 header bytes never fail the call, and read as the text they are",
          arguments: TransportChoice.allCases)
    func obsText(transport: TransportChoice) async throws {
        let server = try FaultServer { connection in
            let latin1 = Array("Content-Disposition: attachment; filename=\"caf".utf8) + [0xE9] + Array(".txt\"\r\n".utf8)
            try connection.send(postAnswer(headers: Array("X-Test-Header: v 1; ü\r\n".utf8) + latin1))
        }
        defer { server.stop() }
        let recorder = LastExchange()
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               delegate: recorder)
        #if os(Linux)
        if transport == .urlSession {
            // FoundationNetworking fails such a response itself: the error says why and what reads it.
            await #expect { try await client.send(Endpoint<Public, Post>(path: "/post")) } throws: { error in
                "\(error)".contains("not UTF-8") && "\(error)".contains("libcurl transport")
            }
            return
        }
        #endif
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

/// Two `Set-Cookie` headers stay two cookies through every transport.
@Suite("Repeated Set-Cookie headers")
struct RepeatedSetCookieTests {
    @Test("Each cookie keeps its own attributes", arguments: TransportChoice.allCases)
    func twoCookies(transport: TransportChoice) async throws {
        let server = try FaultServer { connection in
            try connection.send(postAnswer(headers: Array("""
                Set-Cookie: first=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT\r
                Set-Cookie: second=2; Path=/; Max-Age=0\r
                Set-Cookie: third=3; Path=/\r

                """.utf8)))
        }
        defer { server.stop() }
        let jar = CookieJar()
        var configuration = APIClient.Configuration()
        configuration.cookies = jar
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               configuration: configuration)
        _ = try await client.send(Endpoint<Public, Post>(path: "/post"))
        // `second` deleted itself (Max-Age=0); `first` keeps its 2099 expiry, not another's.
        #expect(jar.cookies().map(\.name) == ["first", "third"], "\(jar.cookies())")
        #expect(jar.cookies().first?.expires.map { $0 > Date(timeIntervalSince1970: 4_000_000_000) } == true)
    }

    @Test("Joined Set-Cookie values come apart where a cookie starts, not inside a date")
    func separate() {
        #expect(URLSessionTransport.separateSetCookies("a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT, b=2; Path=/, c=3")
                == ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "b=2; Path=/", "c=3"])
        #expect(URLSessionTransport.separateSetCookies("solo=1") == ["solo=1"])
    }
}

/// A header larger than any client takes is one clear error.
@Suite("Oversized headers")
struct OversizedHeaderTests {
    @Test("A 10 MB header is named as such, not 'Out of memory'", arguments: TransportChoice.allCases)
    func tenMegabytes(transport: TransportChoice) async throws {
        let server = try FaultServer { connection in
            try? connection.send(postAnswer(headers: Array("X-Big: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
                                            + Array("\r\n".utf8)))
        }
        defer { server.stop() }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make())
        await #expect { try await client.send(Endpoint<Public, Post>(path: "/post")) } throws: { error in
            let text = "\(error)"
            // AsyncHTTPClient (SwiftNIO) has its own limit and words; libcurl's are translated.
            return !text.contains("Out of memory") && (transport == .asyncHTTPClient || text.contains("headers are larger"))
        }
    }
}

/// A 200 answer with a `Post` body, the given header lines (raw bytes, each ending `\r\n`) after
/// its Content-Type and Content-Length.
private func postAnswer(headers: [UInt8]) -> [UInt8] {
    let body = Array(#"{"userId":1,"id":1,"title":"t","body":"b"}"#.utf8)
    return Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n".utf8) + headers
        + Array("\r\n".utf8) + body
}
