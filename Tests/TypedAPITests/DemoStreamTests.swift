import DemoService
import Foundation
import HTTPTypes
import Testing
import TypedAPI

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
