import DemoService
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo service's own HTTP/1.1 server, spoken to byte by byte: what the transports' tests do
/// not send — requests kept alive, chunked and `Expect: 100-continue` bodies, a head that never
/// ends, bytes that are not HTTP — and a stop that ends idle connections.
@Suite("The demo's HTTP server, on the wire")
struct DemoHTTPServerTests {
    /// A raw connection to the server.
    private final class Wire {
        let descriptor: Int32

        init(port: Int) throws {
            #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #if canImport(Glibc)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            _ = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
        }

        /// What arrives until `text` has (or the connection ends).
        func read(until text: String) -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).contains(text) {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// Everything until the server closes the connection.
        func readToEnd() -> String { read(until: "\u{0}never\u{0}") }
    }

    private func withServer(_ body: (DemoServer) async throws -> Void) async throws {
        let server = try await DemoServer.start()
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("Requests on one connection are answered in turn; Connection: close ends it after the answer")
    func keepAlive() async throws {
        try await withServer { server in
            let wire = try Wire(port: server.port)
            wire.send("GET /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(wire.read(until: "\"userId\":1}").hasPrefix("HTTP/1.1 200 OK\r\n"))
            wire.send("GET /users/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let second = wire.readToEnd()
            #expect(second.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(second)")
            #expect(second.contains("Connection: close\r\n") && second.contains("Antonette"), "\(second)")
        }
    }

    @Test("A chunked body and an Expect: 100-continue body are read whole")
    func requestBodies() async throws {
        try await withServer { server in
            let chunked = try Wire(port: server.port)
            let body = #"{"userId":1,"title":"t","body":"b"}"#
            let split = body.index(body.startIndex, offsetBy: 10)
            chunked.send("POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(body[..<split].utf8.count, radix: 16) + "\r\n" + body[..<split] + "\r\n"
                + String(body[split...].utf8.count, radix: 16) + "\r\n" + body[split...] + "\r\n0\r\n\r\n")
            let created = chunked.readToEnd()
            #expect(created.hasPrefix("HTTP/1.1 201 Created\r\n"), "\(created)")
            #expect(created.contains(#""title":"t""#), "\(created)")

            let expecting = try Wire(port: server.port)
            expecting.send("POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
            #expect(expecting.read(until: "\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n")
            expecting.send(body)
            #expect(expecting.readToEnd().hasPrefix("HTTP/1.1 201 Created\r\n"))
        }
    }

    @Test("Bytes that are not HTTP, and a head without end, are refused at once and the connection closed")
    func refusals() async throws {
        try await withServer { server in
            let handshake = try Wire(port: server.port)
            handshake.send("\u{16}\u{03}\u{01}\u{02}\u{00}")
            let refused = handshake.readToEnd()
            #expect(refused.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(refused)")
            #expect(refused.contains("Connection: close\r\n"))

            let endless = try Wire(port: server.port)
            endless.send("GET /posts HTTP/1.1\r\n" + String(repeating: "X-Filler: " + String(repeating: "a", count: 1000) + "\r\n", count: 70))
            #expect(endless.readToEnd().hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        }
    }

    @Test("stop() ends a connection kept alive with nothing under way, and returns")
    func stopEndsIdleConnections() async throws {
        let server = try await DemoServer.start()
        let wire = try Wire(port: server.port)
        wire.send("GET /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(wire.read(until: "\"userId\":1}").hasPrefix("HTTP/1.1 200 OK\r\n"))
        await server.stop()
        // The server closed its end: reading finds it.
        #expect(wire.readToEnd().isEmpty)
    }
}
