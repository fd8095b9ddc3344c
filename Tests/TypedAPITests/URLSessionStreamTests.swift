import Foundation
import Testing
@testable import TypedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession pushes a body and cannot hold a server back: its stream transfer bounds what waits
/// for the reader, and drops what comes after the end.
@Suite("URLSession's stream transfer")
struct URLSessionStreamTests {
    private static func response() -> URLResponse {
        HTTPURLResponse(url: URL(string: "http://127.0.0.1/events")!, statusCode: 200, httpVersion: "HTTP/1.1",
                        headerFields: ["Content-Type": "text/event-stream"])!
    }

    @Test("Chunks wait for the reader in order; the end comes after them")
    func inOrder() async throws {
        let transfer = StreamTransfer(maximumLag: 100)
        #expect(transfer.receive(Self.response()))
        #expect((try await transfer.head() as? HTTPURLResponse)?.statusCode == 200)
        transfer.receive(Data("ab".utf8))
        transfer.receive(Data("cd".utf8))
        transfer.complete(nil)
        #expect(try await transfer.next() == Data("ab".utf8))
        #expect(try await transfer.next() == Data("cd".utf8))
        #expect(try await transfer.next() == nil)
    }

    @Test("A reader more than the lag behind ends the stream with responseTooLarge; later chunks are dropped")
    func lagIsBounded() async throws {
        let transfer = StreamTransfer(maximumLag: 100)
        _ = transfer.receive(Self.response())
        transfer.receive(Data(count: 60))
        transfer.receive(Data(count: 60))
        transfer.receive(Data(count: 60))
        do {
            _ = try await transfer.next()
            Issue.record("the stream did not fail")
        } catch let failure as TransportFailure {
            #expect(failure.kind == .responseTooLarge)
            #expect("\(failure)".contains("the reader fell more than 100 bytes behind the stream"), "\(failure)")
        }
    }

    @Test("A reader waiting gets the next chunk at once; cancelling wakes it with the cancellation")
    func waitingReader() async throws {
        let transfer = StreamTransfer(maximumLag: 100)
        _ = transfer.receive(Self.response())
        async let first = transfer.next()
        // The reader is waiting or not yet: either way it gets this chunk.
        transfer.receive(Data("x".utf8))
        #expect(try await first == Data("x".utf8))
        let second = Task { try await transfer.next() }
        transfer.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
    }
}
