import DemoService
import FaultServer
import Foundation
import HTTPTypes
import Synchronization
import Testing
import TypedAPI
@testable import TypedAPICurl

/// The buffer between libcurl's write callback and a stream's reader: bounded, paused when full and
/// resumed once the reader has taken it below half, what is buffered taken together (up to a
/// limit), a waiting reader woken by the next chunk, the end or its cancellation.
@Suite("libcurl streams' buffer", .timeLimit(.minutes(5)))
struct CurlStreamTests {
    private static let chunk = [UInt8](repeating: 0x61, count: 64 << 10)

    private static func push(_ stream: CurlStream) -> Bool { chunk.withUnsafeBytes { stream.push($0) } }

    @Test("Full at a megabyte: the transfer pauses, and resumes once the reader has taken it below half")
    func backPressure() async throws {
        let stream = CurlStream()
        var accepted = 0
        while Self.push(stream) { accepted += Self.chunk.count }
        #expect(accepted == CurlStream.highWater)
        let resumed = Atomic(0)
        var taken = 0
        var last = 0
        while resumed.load(ordering: .relaxed) == 0 {
            last = try #require(try await stream.next { resumed.add(1, ordering: .relaxed) }).count
            taken += last
        }
        // Resumed when what is left went below half, and only then.
        #expect(accepted - taken < CurlStream.highWater / 2)
        #expect(accepted - taken + last >= CurlStream.highWater / 2)
        #expect(Self.push(stream))
        stream.finish(nil, head: nil)
        while let chunk = try await stream.next(resume: {}) { taken += chunk.count }
        #expect(taken == accepted + Self.chunk.count)
        #expect(resumed.load(ordering: .relaxed) == 1)
    }

    @Test("A reader that has fallen behind takes what is buffered in one chunk, up to the limit; a larger chunk comes alone")
    func chunksTakenTogether() async throws {
        let stream = CurlStream()
        for _ in 0..<10 { #expect(Self.push(stream)) }
        let perTake = CurlStream.takeLimit / Self.chunk.count
        #expect(perTake > 1)
        var sizes: [Int] = []
        stream.finish(nil, head: nil)
        while let chunk = try await stream.next(resume: {}) {
            #expect(chunk.allSatisfy { $0 == 0x61 })
            sizes.append(chunk.count)
        }
        #expect(sizes.reduce(0, +) == 10 * Self.chunk.count)
        #expect(sizes.allSatisfy { $0 <= CurlStream.takeLimit })
        #expect(sizes.first == perTake * Self.chunk.count)

        let large = CurlStream()
        let big = [UInt8](repeating: 0x62, count: CurlStream.takeLimit + 1)
        #expect(big.withUnsafeBytes { large.push($0) })
        #expect(Self.push(large))
        #expect(try await large.next(resume: {})?.count == big.count)
        #expect(try await large.next(resume: {})?.count == Self.chunk.count)
    }

    @Test("A reader that stays just behind holds only what is buffered, not every chunk it has taken")
    func takenChunksGo() async throws {
        let stream = CurlStream()
        var buffered = 0
        for _ in 0..<3 {
            #expect(Self.push(stream))
            buffered += Self.chunk.count
        }
        // Never caught up: some taken, one more arrives, a thousand times over.
        for _ in 0..<1_000 {
            buffered -= try #require(try await stream.next(resume: {})).count
            #expect(Self.push(stream))
            buffered += Self.chunk.count
        }
        #expect(stream.heldBytes == buffered)
        #expect(stream.heldBytes <= 3 * Self.chunk.count)
    }

    @Test("A waiting reader gets the next chunk, then the end; an error ends it with that error")
    func waiting() async throws {
        let stream = CurlStream()
        let first = Task { try await stream.next(resume: {}) }
        // The reader may or may not wait yet: either way the chunk reaches it.
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.push(stream))
        #expect(try await first.value?.count == Self.chunk.count)
        let end = Task { try await stream.next(resume: {}) }
        stream.finish(nil, head: nil)
        #expect(try await end.value == nil)

        let failing = CurlStream()
        let failed = Task { try await failing.next(resume: {}) }
        failing.finish(TransportFailure(.connectionClosed, detail: "reset"), head: nil)
        await #expect(throws: TransportFailure.self) { try await failed.value }
    }

    @Test("A stream seven times the buffer, from a server that writes as fast as it can to a reader that falls behind, arrives whole and in order")
    func slowReader() async throws {
        let count = 100_000
        let server = try FaultServer { connection in
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n")
            var block: [UInt8] = []
            for n in 1...count {
                block += Array(#"{"n":\#(n),"status":"running","log":"step \#(n) of the build, as it goes"}"#.utf8) + [0x0A]
                if block.count >= 64 << 10 || n == count {
                    try connection.send(block)
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
        defer { server.stop() }
        try await CurlTransport.withOwnEngine { curl, _ in
            // A per-gap limit far above any wait here: a transfer paused and never resumed fails
            // with a time-out instead of hanging.
            let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: curl,
                                   configuration: .init(timeout: .seconds(60)))
            var next = 1
            for try await item in client.stream(Endpoint<Public, BuildEvent>(path: "/lines")) {
                #expect(item.n == next)
                if item.n != next { break }
                // Behind at once: the server fills the buffer (1 MB of the 7.5) meanwhile, and the
                // transfer pauses until the reader has taken half of it.
                if next == 1 { try await Task.sleep(for: .milliseconds(200)) }
                next += 1
            }
            #expect(next == count + 1)
        }
    }

    @Test("Leaving a stream before its end closes its connection")
    func leavingCloses() async throws {
        let server = try FaultServer { connection in
            // A stream that has not ended: five items, then nothing until the client hangs up.
            try connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n\r\n")
            for n in 1...5 { try connection.send(#"{"n":\#(n),"status":"running","log":"again"}"# + "\n") }
            try connection.waitForClose()
        }
        defer { server.stop() }
        try await CurlTransport.withOwnEngine { curl, _ in
            let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: curl)
            var seen = 0
            for try await item in client.stream(Endpoint<Public, BuildEvent>(path: "/open")) {
                seen = item.n
                if seen == 3 { break }
            }
            #expect(seen == 3)
            // The handler ends only when the client closes the connection. (Its wait is not bounded
            // here; the suite's time limit is.)
            while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("A reader waiting for a chunk or for the head is ended by its task's cancellation")
    func cancellation() async throws {
        let stream = CurlStream()
        let reader = Task { try await stream.next(resume: {}) }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        let head = Task { try await stream.head() }
        head.cancel()
        await #expect(throws: CancellationError.self) { try await head.value }
        // The head, once there, is handed over at once.
        stream.deliverHead(HTTPResponse(status: .ok))
        #expect(try await stream.head().status == .ok)
    }
}
