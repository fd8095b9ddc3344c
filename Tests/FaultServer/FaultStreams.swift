import Foundation

/// Streams that misbehave, as ``FaultServer`` handlers: a server-sent event stream that stalls,
/// one that trickles a few bytes at a time, one event without end, bytes that are not UTF-8, a
/// JSON Lines stream whose line has no end, and one whose connection closes before its length.
public enum FaultStreams {
    /// The head of a streaming answer of `contentType`, with no length: the body runs until the
    /// connection closes.
    public static func head(_ contentType: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
    }

    /// The head of an answer of `contentType` whose body is `length` bytes: one whose end is not
    /// in doubt, for the streams whose tests are about their items, not about how a body ends.
    public static func head(_ contentType: String, length: Int) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
    }

    /// Event `n` of these streams: its data is `{"n":…,"status":"running","log":"…"}`, the log with
    /// non-ASCII text so that a chunk may end inside a character.
    public static func event(_ n: Int) -> String {
        "id: \(n)\nevent: build\ndata: {\"n\":\(n),\"status\":\"running\",\ndata: \"log\":\"étape \(n) ✓\"}\n\n"
    }

    /// `events` events, then nothing (not even a heartbeat) until the client closes.
    public static func stall(after events: Int) -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            try connection.send(head("text/event-stream"))
            for n in stride(from: 1, through: events, by: 1) { try connection.send(event(n)) }
            try connection.waitForClose()
        }
    }

    /// `events` events written `bytes` at a time with a pause between (1 ms asked for): every gap
    /// is short, and chunks end anywhere, inside a field or a character. The body runs until the
    /// connection closes, or has its length when `withLength` (for URLSession: under load,
    /// FoundationNetworking once delivered nothing of a close-delimited trickle; see `invalidUTF8`).
    public static func trickle(events: Int, bytes: Int, withLength: Bool = false) -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            let body = Array((1...events).map(event).joined().utf8)
            try connection.send(withLength ? head("text/event-stream", length: body.count) : head("text/event-stream"))
            var offset = 0
            while offset < body.count {
                let end = min(offset + bytes, body.count)
                try connection.send(Array(body[offset..<end]))
                try connection.pause(0.001)
                offset = end
            }
        }
    }

    /// One line with no end, written a megabyte at a time up to `limit` bytes (1 GiB by
    /// default): in a server-sent event stream (`data: xxxx…`) or in JSON Lines (`{"log":"xxxx…`).
    /// `sent` counts what was written before the client went; the handler ends normally either way.
    public static func endless(_ contentType: String, limit: Int = 1 << 30, sent: Counter) -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            try connection.send(head(contentType))
            try connection.send(contentType.hasPrefix("text/event-stream") ? "data: " : "{\"log\":\"")
            let megabyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            do {
                while sent.value < limit {
                    try connection.send(megabyte)
                    sent.add(megabyte.count)
                }
            } catch is FaultConnection.Gone {
                // The client went: what this stream is for (the test reads how far it got).
            }
        }
    }

    /// One good event, then one whose data has bytes that are not UTF-8 (`0xFF 0xFE`), then the end.
    ///
    /// With its length: a close-delimited body was sometimes held back whole by FoundationNetworking
    /// under load (README, Streams: URLSession), and these tests are about the items.
    public static func invalidUTF8() -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            let body = Array(event(1).utf8) + Array("data: {\"n\":2,\"status\":\"".utf8) + [0xFF, 0xFE] + Array("\",\"log\":\"\"}\n\n".utf8)
            try connection.send(head("text/event-stream", length: body.count))
            try connection.send(body)
        }
    }

    /// In one write: event 1; event 2 with its number written `2.0` (a JSON number an `Int` is
    /// decoded from, though not by the streams' fast path); event 3 whose number is a string (no
    /// `Int` at all); event 4; the end (a body with its length, as `invalidUTF8`).
    public static func badItem() -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            let body = Array((event(1) + "data: {\"n\":2.0,\"status\":\"running\",\"log\":\"\"}\n\n"
                + "data: {\"n\":\"three\",\"status\":\"running\",\"log\":\"\"}\n\n" + event(4)).utf8)
            try connection.send(head("text/event-stream", length: body.count))
            try connection.send(body)
        }
    }

    /// As OpenAI-compatible services and proxies stream: event 1, keep-alives between items (an
    /// `event: ping` with empty data, one with `data: keep-alive`, a comment), event 2, then
    /// `data: [DONE]` — and the connection left open, as a proxy may, until the client closes.
    public static func keepAlivesThenDone() -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            try connection.send(head("text/event-stream"))
            try connection.send(event(1) + "event: ping\ndata: \n\n" + "event: ping\ndata: keep-alive\n\n" + ": still here\n\n")
            try connection.send(event(2) + "data: [DONE]\n\n")
            try connection.waitForClose()
        }
    }

    /// In one write, JSON Lines: two whole lines and the start of a third; then nothing until the
    /// client closes.
    public static func linesCutShort() -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            try connection.send(head("application/x-ndjson"))
            try connection.send(linesCutShortBody)
            try connection.waitForClose()
        }
    }

    /// What ``linesCutShort()`` writes.
    public static let linesCutShortBody = "{\"n\":1,\"status\":\"queued\",\"log\":\"a\"}\n{\"n\":2,\"status\":\"running\",\"log\":\"b\"}\n{\"n\":3,\"sta"

    /// JSON Lines with a length that promises more: two whole lines, then the connection closes
    /// (the body cut short, which the client must report, not take for the end).
    public static func linesThenClose() -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            let body = "{\"n\":1,\"status\":\"queued\",\"log\":\"a\"}\n{\"n\":2,\"status\":\"running\",\"log\":\"b\"}\n"
            try connection.send(head("application/x-ndjson", length: body.utf8.count + 1000))
            try connection.send(body)
        }
    }

    /// Event 1 (asking for a 1 ms reconnection), then the connection dropped short of its length —
    /// on every connection, also one that resumes after event 1: the stream never gets further.
    /// `connections` counts them.
    public static func sameEventThenDrop(connections: Counter) -> @Sendable (FaultConnection) throws -> Void {
        { connection in
            connections.add(1)
            let body = "retry: 1\n" + event(1)
            try connection.send(head("text/event-stream", length: body.utf8.count + 1000))
            try connection.send(body)
        }
    }

    /// A count shared between a handler and a test.
    public final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        public init() {}

        public var value: Int { lock.withLock { count } }

        func add(_ amount: Int) { lock.withLock { count += amount } }
    }
}
