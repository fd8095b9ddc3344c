import DemoService
import Foundation
import HTTPTypes
import Testing
@testable import TypedAPI
import TypistTesting

/// The demo service's event streams, read whole through every transport and then by the parsers
/// in pieces of every size: ids, types, two-line data, a heartbeat, `retry`, resuming after
/// `Last-Event-ID`, a connection closed mid-stream, and JSON Lines.
@Suite("The demo's event streams")
struct DemoStreamTests {
    private static func events(_ body: Data, chunk: Int) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let bytes = Array(body)
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            events += try parser.feed(bytes[start..<min(bytes.count, start + chunk)])
        }
        parser.finish()
        return events
    }

    @Test("Server-sent events decode into the endpoint's item type, whatever the chunks", arguments: TransportChoice.allCases)
    func serverSentEvents(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let (head, body) = try await client.transport.send(HTTPRequest(method: .get, scheme: "http", authority: client.environment.authority,
                                                                            path: "/events?count=7"), body: nil, timeout: .seconds(60))
            #expect(head.status.code == 200)
            #expect(head.headerFields[.contentType] == "text/event-stream")
            for chunk in [1, 3, 64, body.count] {
                let events = try Self.events(body, chunk: chunk)
                #expect(events.map(\.id) == (1...7).map { String($0) })
                #expect(events.allSatisfy { $0.event == "build" && $0.retry == .milliseconds(2000) })
                let items = try events.map { try JSONDecoder().decode(BuildEvent.self, from: Data($0.data.utf8)) }
                #expect(items == (1...7).map(BuildEvent.number))
            }
        }
    }

    @Test("Last-Event-ID resumes after it; disconnectAfter closes the connection mid-stream")
    func resumeAndDisconnect() async throws {
        try await withDemoServer(.curl) { client, _ in
            var request = HTTPRequest(method: .get, scheme: "http", authority: client.environment.authority, path: "/events?count=7")
            request.headerFields[try #require(HTTPField.Name("Last-Event-ID"))] = "5"
            let (_, body) = try await client.transport.send(request, body: nil, timeout: .seconds(60))
            #expect(try Self.events(body, chunk: 5).map(\.id) == ["6", "7"])
            let cut = HTTPRequest(method: .get, scheme: "http", authority: client.environment.authority, path: "/events?count=7&disconnectAfter=2")
            await #expect(throws: TransportFailure.self) { try await client.transport.send(cut, body: nil, timeout: .seconds(60)) }
        }
    }

    @Test("JSON Lines: one item per line", arguments: TransportChoice.allCases)
    func jsonLines(transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let (head, body) = try await client.transport.send(HTTPRequest(method: .get, scheme: "http", authority: client.environment.authority,
                                                                            path: "/events.ndjson?count=5"), body: nil, timeout: .seconds(60))
            #expect(head.headerFields[.contentType] == "application/x-ndjson")
            var framer = JSONLinesFramer()
            var lines = try framer.feed(body)
            if let last = framer.finish() { lines.append(last) }
            #expect(try lines.map { try JSONDecoder().decode(BuildEvent.self, from: $0) } == (1...5).map(BuildEvent.number))
        }
    }
}

/// `APIClient.stream`: typed items as they arrive, over a transport that streams.
@Suite("Typed streams from the client")
struct ClientStreamTests {
    private static func events(_ query: String) -> Endpoint<Public, BuildEvent> {
        Endpoint(path: "/events?" + query)
    }

    @Test("Server-sent events and JSON Lines decode into the endpoint's item type, in order", arguments: TransportChoice.allCases)
    func typedItems(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            var items: [BuildEvent] = []
            for try await item in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "7")]), path: "/events")) {
                items.append(item)
            }
            #expect(items == (1...7).map(BuildEvent.number))
            var lines: [BuildEvent] = []
            for try await item in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "4")]), path: "/events.ndjson")) {
                lines.append(item)
            }
            #expect(lines == (1...4).map(BuildEvent.number))
        }
    }

    // Not URLSession: under load, FoundationNetworking may end a task whose connection dropped
    // without handing over the bytes that came just before (README, Streams: URLSession).
    @Test("An event stream cut mid-way is taken up again after its retry wait, from Last-Event-ID: every event once, in order", arguments: [TransportChoice.curl, .asyncHTTPClient])
    func reconnection(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let cut = Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "7"), URLQueryItem(name: "disconnectAfter", value: "2"),
                                                                URLQueryItem(name: "retryMs", value: "10")]), path: "/events")
            var items: [Int] = []
            for try await item in client.stream(cut) { items.append(item.n) }
            #expect(items == Array(1...7))
        }
    }

    @Test("Leaving a long stream early ends it; the next call on the client works", arguments: TransportChoice.allCases)
    func earlyEnd(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            var seen = 0
            // Not a million events: the in-process demo server (a debug build) was seen buffering a
            // stream its reader had paused without bound, on the event loops every test shares.
            // That leaving closes the connection is CurlStreamTests.leavingCloses's to show.
            for try await item in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "2000")]), path: "/events")) {
                seen = item.n
                if seen == 3 { break }
            }
            #expect(seen == 3)
            var again: [Int] = []
            for try await item in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "2")]), path: "/events")) {
                again.append(item.n)
            }
            #expect(again == [1, 2])
        }
    }

    @Test("The time limit is for each gap, an error status is the client's error, and a transport that cannot stream says so", arguments: TransportChoice.allCases)
    func failures(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, server in
            // A gap of a minute, which the server's stop cuts short: the client's limit is passed
            // however long the machine keeps this test's tasks waiting.
            let stalled = Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "3"), URLQueryItem(name: "gapMs", value: "60000")]),
                                                       path: "/events").timeout(.milliseconds(300))
            var received = 0
            var failure: (any Error)?
            do {
                for try await _ in client.stream(stalled) { received += 1 }
            } catch {
                failure = error
            }
            #expect(received <= 1)
            guard case .timedOut? = failure as? APIError else {
                Issue.record("not a time-out: \(String(describing: failure))")
                return
            }
            var refused: (any Error)?
            do {
                for try await _ in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "x")]), path: "/events")) {}
            } catch {
                refused = error
            }
            guard case .unacceptableStatus(_, let summary)? = refused as? APIError else {
                Issue.record("not a status error: \(String(describing: refused))")
                return
            }
            #expect(summary.status == 400)
            // The stream that timed out holds nothing back: the next one on the same client runs.
            var after: [Int] = []
            for try await item in client.stream(Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "2")]), path: "/events")) {
                after.append(item.n)
            }
            #expect(after == [1, 2])
            // A transport that answers whole bodies only (here the in-memory one of unit tests).
            let other = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: InMemoryTransport())
            var unsupported: (any Error)?
            do {
                for try await _ in other.stream(Endpoint<Public, BuildEvent>(path: "/events")) {}
            } catch {
                unsupported = error
            }
            #expect("\(String(describing: unsupported))".contains("cannot stream"), "\(String(describing: unsupported))")
        }
    }

    @Test("Each iteration of a stream sends the request anew and reads its own answer; an error ends that iteration", arguments: TransportChoice.allCases)
    func iterations(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let stream = client.stream(Self.events("count=3"))
            var first = stream.makeAsyncIterator()
            #expect(try await first.next()?.n == 1)
            // A second reading while the first is under way: its own request, from the start.
            var second: [Int] = []
            for try await item in stream { second.append(item.n) }
            #expect(second == [1, 2, 3])
            #expect(try await first.next()?.n == 2)
            #expect(try await first.next()?.n == 3)
            #expect(try await first.next() == nil)
            #expect(try await first.next() == nil)
            // A refused request: the error once, then the end.
            var refused = client.stream(Self.events("count=x")).makeAsyncIterator()
            await #expect(throws: APIError.self) { try await refused.next() }
            #expect(try await refused.next() == nil)
        }
    }

    @Test("A cancelled task gets none of the chunk at hand: its next item is the cancellation, then the end", arguments: TransportChoice.allCases)
    func cancellationMidChunk(_ transport: TransportChoice) async throws {
        try await withDemoServer(transport) { client, _ in
            let outcome = await Task { () async throws -> String in
                var iterator = client.stream(Self.events("count=100000")).makeAsyncIterator()
                // Read until items of the chunk at hand are still to come.
                repeat {
                    guard try await iterator.next() != nil else { return "the stream ended first" }
                } while iterator.index >= iterator.batch.count
                withUnsafeCurrentTask { $0?.cancel() }
                do {
                    let item = try await iterator.next()
                    return "item \(item?.n ?? -1) after the cancellation"
                } catch let error as APIError {
                    guard case .cancelled = error else { return "\(error)" }
                    return try await iterator.next() == nil ? "cancelled, then the end" : "an item after the end"
                }
            }.result
            #expect(try outcome.get() == "cancelled, then the end")
            // The connection it left is closed and the client goes on.
            var after: [Int] = []
            for try await item in client.stream(Self.events("count=2")) { after.append(item.n) }
            #expect(after == [1, 2])
        }
    }

    /// Code written for 0.7.0, when `stream` returned an `AsyncThrowingStream`: it names the type.
    private static func count(_ items: AsyncThrowingStream<BuildEvent, any Error>) async throws -> Int {
        var count = 0
        for try await _ in items { count += 1 }
        return count
    }

    @Test("Code that names AsyncThrowingStream, as 0.7.0's stream returned, still compiles and reads the same items")
    func asyncThrowingStreamStillCompiles() async throws {
        try await withDemoServer(.curl) { client, _ in
            let named: AsyncThrowingStream<BuildEvent, any Error> = client.stream(Self.events("count=4"))
            var items: [Int] = []
            for try await item in named { items.append(item.n) }
            #expect(items == [1, 2, 3, 4])
            #expect(try await Self.count(client.stream(Self.events("count=5"))) == 5)
            #expect(try await Self.count(client.stream(Self.events("count=2")).asyncThrowingStream()) == 2)
        }
    }
}
