import Foundation
import Testing
@testable import TypedAPI

/// The event stream format as the WHATWG HTML standard reads it, and JSON Lines: the same events
/// however the bytes are cut into chunks.
@Suite("Server-sent events and JSON Lines, read as they arrive")
struct EventStreamTests {
    private func events(_ text: String, chunk: Int? = nil) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let bytes = Array(text.utf8)
        guard let chunk else { return try parser.feed(bytes) }
        var result: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            result += try parser.feed(bytes[start..<min(bytes.count, start + chunk)])
        }
        parser.finish()
        return result
    }

    @Test("The standard's examples: data lines joined, ids kept, comments and unknown fields ignored")
    func standardExamples() throws {
        #expect(try events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        #expect(try events(stream) == [
            ServerSentEvent(data: "first event", id: "1"),
            ServerSentEvent(data: "second event"),
            ServerSentEvent(data: " third event"),
        ])
        // `data` alone is an empty line of data; two blank-line-ended `data` events.
        #expect(try events("data\n\ndata\ndata\n\ndata:\n") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        #expect(try events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test("Event types, retry (digits only), ids (not with NUL) that last across events")
    func fields() throws {
        let stream = "event: build\ndata: {\"n\":1}\nid: 7\nretry: 2500\n\ndata: next\n\nretry: 1.5\nid: a\u{0}b\nfoo: bar\ndata: third\n\n"
        #expect(try events(stream) == [
            ServerSentEvent(event: "build", data: #"{"n":1}"#, id: "7", retry: .milliseconds(2500)),
            ServerSentEvent(data: "next", id: "7", retry: .milliseconds(2500)),
            ServerSentEvent(data: "third", id: "7", retry: .milliseconds(2500)),
        ])
        // A type is the event's own: the same one again, another, then none ("message").
        #expect(try events("event: a\ndata: 1\n\nevent: a\ndata: 2\n\nevent: b\ndata: 3\n\ndata: 4\n\nevent:\ndata: 5\n\n", chunk: 3).map(\.event)
                == ["a", "a", "b", "message", "message"])
        // A type that is not UTF-8 is an error when its event is dispatched, after the events before it.
        var typed = ServerSentEventParser()
        var before: [ServerSentEvent] = []
        #expect(throws: ServerSentEventParser.Failure.self) {
            try typed.feed(Array("event: ok\ndata: 1\n\nevent: ".utf8) + [0xC3, 0x28] + Array("\ndata: 2\n\n".utf8), into: &before)
        }
        #expect(before.map(\.data) == ["1"])
        // An event with no data is not dispatched, but its id counts.
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("id: 42\nevent: ping\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "42")
    }

    @Test("CR, LF and CRLF end lines, also when a CRLF is cut between chunks; a BOM is dropped; the same events at every chunk size",
          arguments: [1, 2, 3, 7, 64])
    func lineEnds(chunk: Int) throws {
        let stream = "\u{FEFF}data: a\r\ndata: b\rdata: c\n\r\nevent: x\rdata: d\r\r: done\r\n"
        let expected = [ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(event: "x", data: "d")]
        #expect(try events(stream) == expected)
        #expect(try events(stream, chunk: chunk) == expected)
    }

    @Test("An event the stream ends in the middle of is discarded")
    func unfinished() throws {
        #expect(try events("data: complete\n\ndata: cut off", chunk: 4) == [ServerSentEvent(data: "complete")])
        #expect(try events("data: no blank line\n", chunk: 4).isEmpty)
    }

    @Test("Bytes that are not UTF-8, and an event past the limit, are errors with their place; memory stays bounded")
    func refusals() throws {
        var parser = ServerSentEventParser()
        #expect(throws: ServerSentEventParser.Failure.self) { try parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x0A]) }
        var small = ServerSentEventParser(maximumEventBytes: 1 << 20)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        var failure: ServerSentEventParser.Failure?
        do {
            _ = try small.feed(Array("data: ".utf8))
            for _ in 0..<64 { _ = try small.feed(chunk) }
        } catch {
            failure = error
        }
        #expect(failure?.message.contains("an event larger than 1 MiB") == true, "\(String(describing: failure))")
    }

    @Test("JSON Lines: one text per line, CRLF or LF, blank lines skipped, a last line without LF kept", arguments: [1, 5, 100])
    func jsonLines(chunk: Int) throws {
        let bytes = Array("{\"a\":1}\n\r\n{\"a\":2}\r\n  \n{\"a\":3}".utf8)
        var framer = JSONLinesFramer()
        var lines: [String] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            lines += try framer.feed(bytes[start..<min(bytes.count, start + chunk)]).map { String(decoding: $0, as: UTF8.self) }
        }
        if let last = framer.finish() { lines.append(String(decoding: last, as: UTF8.self)) }
        #expect(lines == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#])
        var tight = JSONLinesFramer(maximumLineBytes: 4)
        #expect(throws: JSONLinesFramer.Failure.self) { try tight.feed(Array("{\"a\":1}\n".utf8)) }
    }
}
