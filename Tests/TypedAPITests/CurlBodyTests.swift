import FaultServer
import Foundation
import HTTPTypes
import Testing
import TypedAPI
@testable import TypedAPICurl

/// How the libcurl transport keeps a body: a large announced one in one mapping populated at once,
/// handed over without a copy; anything else, or more than announced, in a growing Data.
@Suite("libcurl response bodies")
struct CurlBodyTests {
    /// Bytes that differ from position to position, so a misplaced chunk shows.
    private static func pattern(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 12) }
    }

    private static func append(_ bytes: [UInt8], to body: CurlBody, chunk: Int = 16_384) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            bytes[offset..<end].withUnsafeBytes { body.append($0) }
            offset = end
        }
    }

    @Test("A body announced at 1 MiB or more goes into a mapping and comes out whole")
    func mapped() {
        let bytes = Self.pattern(3 << 20)
        let body = CurlBody()
        body.reserve(bytes.count)
        #expect(body.isMapped)
        Self.append(bytes, to: body)
        #expect(body.count == bytes.count)
        let data = body.take()
        #expect(Array(data) == bytes)
        #expect(body.count == 0 && !body.isMapped)
        // A smaller one is kept in a Data.
        let small = CurlBody()
        small.reserve(CurlBody.mappedSize - 1)
        #expect(!small.isMapped)
    }

    @Test("With the platform tuning off (TYPIST_PLAIN=1) a large body is a Data, whole")
    func plain() {
        let bytes = Self.pattern(3 << 20, seed: 5)
        let body = CurlBody(maps: false)
        body.reserve(bytes.count)
        #expect(!body.isMapped)
        Self.append(bytes, to: body)
        #expect(Array(body.take()) == bytes)
    }

    @Test("An announced length alone commits no memory: pages are populated a window ahead of the bytes")
    func populatedAhead() {
        let body = CurlBody()
        body.reserve(200 << 20)
        #expect(body.isMapped)
        #expect(body.populatedCount == 0)
        Self.append(Self.pattern(1 << 20), to: body)
        #expect(body.populatedCount == CurlBody.window)
        Self.append(Self.pattern(8 << 20), to: body)
        #expect(body.count == 9 << 20)
        #expect(body.populatedCount == 3 * CurlBody.window)
        #expect(body.populatedCount - body.count <= CurlBody.window)
    }

    @Test("More than announced moves what came to a Data and goes on")
    func longerThanAnnounced() {
        let bytes = Self.pattern((1 << 20) + 5_000, seed: 3)
        let body = CurlBody()
        body.reserve(1 << 20)
        Self.append(bytes, to: body, chunk: 9_999)
        #expect(!body.isMapped)
        #expect(Array(body.take()) == bytes)
    }

    @Test("A compressed body's announced length is not the decoded one: no mapping, every byte kept")
    func compressed() throws {
        let transfer = CurlExchange(CurlTransfer(url: "http://127.0.0.1:1/", method: "GET", headerLines: [], body: nil,
                                                 timeoutMilliseconds: 1_000, maximumResponseSize: 64 << 20))
        for line in ["HTTP/1.1 200 OK", "Content-Length: 2000000", "Content-Encoding: gzip"] {
            Array(line.utf8).withUnsafeBytes { transfer.receiveHeader($0) }
        }
        let decoded = Self.pattern(3_000_000, seed: 11)
        var offset = 0
        while offset < decoded.count {
            let end = min(offset + 16_384, decoded.count)
            #expect(decoded[offset..<end].withUnsafeBytes { transfer.receiveBody($0) } == end - offset)
            #expect(!transfer.received.isMapped)
            offset = end
        }
        let (response, body) = try transfer.response()
        #expect(response.status == .ok)
        #expect(Array(body) == decoded)
    }

    @Test("A 3 MiB body from a real server arrives whole through libcurl")
    func realServer() async throws {
        let bytes = Self.pattern(3 << 20, seed: 5)
        let server = try FaultServer { connection in
            try connection.respond(headers: ["Content-Type: application/octet-stream"], body: bytes)
        }
        defer { server.stop() }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/bytes")
        try await CurlTransport.withOwnEngine { curl, _ in
            let (response, body) = try await curl.send(head, body: nil, timeout: .seconds(60))
            #expect(response.status == .ok)
            #expect(body.count == bytes.count)
            #expect(Array(body) == bytes)
        }
    }
}
