import DemoService
import FaultServer
import Foundation
import Testing
@testable import TypedAPI
import TypedAPICurl

/// Streams from a server that misbehaves, through the client on each transport that streams: each
/// failure one clear error with its place, memory bounded, the connection closed.
@Suite("Streams that misbehave", .timeLimit(.minutes(5)))
struct StreamFaultTests {
    /// What a stream from `handler` gives the client: the items' numbers (the first `leaveAfter`,
    /// when given), and the error it ended with (`nil` for a clean end).
    private static func read(_ transport: StreamingTransport, _ handler: @escaping @Sendable (FaultConnection) throws -> Void,
                             timeout: Duration = .seconds(30), leaveAfter: Int? = nil,
                             configuration: APIClient.Configuration = APIClient.Configuration()) async throws
        -> (items: [Int], failure: APIError?, server: FaultServer)
    {
        let server = try FaultServer(handler)
        var items: [Int] = []
        var failure: APIError?
        try await transport.withClient(server.baseURL, configuration: configuration) { client in
            do {
                for try await item in client.stream(Endpoint<Public, BuildEvent>(path: "/events").timeout(timeout)) {
                    items.append(item.n)
                    if items.count == leaveAfter { break }
                }
            } catch let error as APIError {
                failure = error
            }
        }
        return (items, failure, server)
    }

    // Not URLSession: the fault server's streams are close-delimited (no chunked encoding), and
    // under load FoundationNetworking held back the events that came before the pause (README,
    // Streams: URLSession). `DemoStreamTests` leaves a chunked stream early on all three.
    @Test("Leaving a stream before its end closes its connection", arguments: [StreamingTransport.curl, .asyncHTTPClient])
    func leaving(_ transport: StreamingTransport) async throws {
        let (items, failure, server) = try await Self.read(transport, FaultStreams.stall(after: 5), leaveAfter: 3)
        defer { server.stop() }
        #expect(items == [1, 2, 3])
        #expect(failure == nil, "\(String(describing: failure))")
        // The handler waits for the client to close: it ends only because the client did.
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }

    // Not URLSession: under load, FoundationNetworking may hold the bytes that came just before a
    // pause in a close-delimited stream (README, Streams: URLSession).
    @Test("A stream that stalls after two events is a time-out once the gap passes the limit; the connection is closed",
          arguments: [StreamingTransport.curl, .asyncHTTPClient])
    func stall(_ transport: StreamingTransport) async throws {
        // The limit is long enough for two events to arrive on a busy machine, whatever the transport.
        let (items, failure, server) = try await Self.read(transport, FaultStreams.stall(after: 2), timeout: .seconds(2))
        defer { server.stop() }
        #expect(items == [1, 2])
        guard case .timedOut(_, let limit)? = failure else {
            Issue.record("not a time-out: \(String(describing: failure))")
            return
        }
        #expect(limit == .seconds(2))
        // The handler waits for the client to close: it ends only because the client did.
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("A stream that trickles (chunks ending inside fields and characters) arrives whole",
          arguments: StreamingTransport.allCases, [1, 3, 7])
    func trickle(_ transport: StreamingTransport, bytes: Int) async throws {
        // Close-delimited, as a plain HTTP/1.0-style stream ends, except over URLSession (README,
        // Streams: URLSession).
        let (items, failure, server) = try await Self.read(transport, FaultStreams.trickle(events: 4, bytes: bytes,
                                                                                            withLength: transport == .urlSession))
        defer { server.stop() }
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(items == [1, 2, 3, 4])
    }

    @Test("An event or a JSON line without end is an error at the client's limit (1 MiB here, 16 MiB unless set), not a gigabyte in memory",
          arguments: StreamingTransport.allCases, ["text/event-stream", "application/x-ndjson"])
    func endless(_ transport: StreamingTransport, contentType: String) async throws {
        #expect(APIClient.Configuration().maximumStreamItemBytes == 16 << 20)
        var configuration = APIClient.Configuration()
        // A megabyte, not the default 16: a debug build reads the bytes one by one, and on a busy
        // machine 16 MiB took long enough to meet the fault server's give-up time.
        configuration.maximumStreamItemBytes = 1 << 20
        let sent = FaultStreams.Counter()
        let (items, failure, server) = try await Self.read(transport, FaultStreams.endless(contentType, sent: sent),
                                                           configuration: configuration)
        defer { server.stop() }
        #expect(items.isEmpty)
        if transport == .urlSession, case .transport(_, let lag)? = failure {
            // URLSession cannot hold the flood back: a reader slower than it (a debug build) ends
            // the stream once 64 MiB wait for it, before the item reaches its limit.
            #expect(lag.kind == .responseTooLarge && "\(lag)".contains("fell more than 64 MiB behind"), "\(lag)")
            while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
            return
        }
        guard case .decodingFailed(_, let decoding)? = failure else {
            Issue.record("not a decoding failure: \(String(describing: failure))")
            return
        }
        let message = String(describing: failure.map { $0 } ?? APIError.invalidURL("", reason: ""))
        if contentType == "text/event-stream" {
            #expect(decoding.found.hasPrefix("an event larger than 1 MiB (at byte "), "\(message)")
            #expect(message.contains("cannot decode the stream of BuildEvent: expected a server-sent event stream, found an event larger than 1 MiB"), "\(message)")
        } else {
            #expect(decoding.found == "a line longer than 1 MiB (line 1)", "\(message)")
        }
        // The client stopped reading at the limit and closed: the server wrote a few buffers past
        // it, not the gigabyte it had. URLSession cannot stop a server (FoundationNetworking reads
        // on after the task is cancelled, and the transport drops what comes: see
        // `URLSessionStreamTests`), so the server may write all it has to it.
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
        if transport != .urlSession { #expect(sent.value < 64 << 20, "\(sent.value) bytes sent") }
    }

    @Test("An event whose data is not UTF-8 is an error that names its place, after the good one before it",
          arguments: StreamingTransport.allCases)
    func invalidUTF8(_ transport: StreamingTransport) async throws {
        let (items, failure, server) = try await Self.read(transport, FaultStreams.invalidUTF8())
        defer { server.stop() }
        #expect(items == [1])
        guard case .decodingFailed(_, let decoding)? = failure else {
            Issue.record("not a decoding failure: \(String(describing: failure))")
            return
        }
        #expect(decoding.found.hasPrefix("an event that is not UTF-8 text (before byte "), "\(decoding)")
    }

    @Test("An item that does not decode is an error with its key, after the items before it; one the fast path declines still decodes",
          arguments: StreamingTransport.allCases)
    func badItem(_ transport: StreamingTransport) async throws {
        let (items, failure, server) = try await Self.read(transport, FaultStreams.badItem())
        defer { server.stop() }
        #expect(items == [1, 2])
        guard case .decodingFailed(_, let decoding)? = failure else {
            Issue.record("not a decoding failure: \(String(describing: failure))")
            return
        }
        #expect(decoding.codingPath == "n", "\(decoding)")
        #expect(decoding.found.contains("three") || decoding.snippet?.contains("three") == true, "\(decoding)")
    }

    // Not URLSession: the fault server's streams are close-delimited (see `leaving`).
    @Test("Keep-alives are no items, and data: [DONE] ends a typed stream cleanly, its connection closed",
          arguments: [StreamingTransport.curl, .asyncHTTPClient])
    func keepAlivesAndDone(_ transport: StreamingTransport) async throws {
        let (items, failure, server) = try await Self.read(transport, FaultStreams.keepAlivesThenDone())
        defer { server.stop() }
        #expect(items == [1, 2])
        #expect(failure == nil, "\(String(describing: failure))")
        // The server leaves the connection open after [DONE]: its handler ends because the client closed.
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // Without a terminator, [DONE] is an item like any other, and does not decode.
        var configuration = APIClient.Configuration()
        configuration.streamTerminator = nil
        let (plain, plainFailure, again) = try await Self.read(transport, FaultStreams.keepAlivesThenDone(), configuration: configuration)
        defer { again.stop() }
        #expect(plain == [1, 2])
        guard case .decodingFailed? = plainFailure else {
            Issue.record("not a decoding failure: \(String(describing: plainFailure))")
            return
        }
    }

    @Test("A stream that drops after the same event every time is an error after five reconnections, not reconnected forever",
          arguments: [StreamingTransport.curl, .asyncHTTPClient])
    func sameEventThenDrop(_ transport: StreamingTransport) async throws {
        let connections = FaultStreams.Counter()
        // At most 50 items are read: without the limit on reconnections that bring nothing new,
        // the stream would go on (one reconnection a millisecond) and the test would stop here.
        let (items, failure, server) = try await Self.read(transport, FaultStreams.sameEventThenDrop(connections: connections), leaveAfter: 50)
        defer { server.stop() }
        #expect(failure != nil, "\(items.count) items")
        #expect(items.allSatisfy { $0 == 1 } && items.count <= 1 + 5, "\(items)")
        #expect(connections.value == 1 + 5)
    }

    @Test("retry: asks for a reconnection time; more than a minute is a minute, none is three seconds")
    func reconnectionDelay() {
        #expect(StreamReader.reconnectionDelay(asked: .milliseconds(Int64.max)) == .seconds(60))
        #expect(StreamReader.reconnectionDelay(asked: .milliseconds(250)) == .milliseconds(250))
        #expect(StreamReader.reconnectionDelay(asked: nil) == .seconds(3))
    }

    // Against the demo service (Hummingbird, a length and keep-alive) rather than the fault
    // server's close-delimited answer: under two busy cores FoundationNetworking twice held that
    // small answer back until the 30 s limit (see the README, Streams: URLSession).
    @Test("An answer that is not a stream says what it is instead, with the start of its body", arguments: TransportChoice.allCases)
    func notAStream(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            var items = 0
            var failure: APIError?
            do {
                for try await _ in client.stream(Endpoint<Public, BuildEvent>(path: "/faults/html")) { items += 1 }
            } catch let error as APIError {
                failure = error
            }
            #expect(items == 0)
            guard case .unexpectedContentType(_, let expected, let response)? = failure else {
                Issue.record("not a content-type error: \(String(describing: failure))")
                return
            }
            #expect(expected == "text/event-stream or application/x-ndjson")
            #expect(response.contentType == "text/html; charset=utf-8")
            #expect("\(String(describing: failure))".contains("<h1>Maintenance</h1>"))
        }
    }
}
