import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension DemoRoutes {
    /// The most events one stream sends.
    static let maximumStreamEvents = 1_000_000

    // MARK: Streams

    /// `GET /events` (server-sent events) and `GET /events.ndjson` (JSON Lines): `count` build events
    /// (`BuildEvent.number(n)`), written one by one, `gapMs` apart.
    ///
    /// The event stream has what a client must handle: a `retry:` first (`retryMs`, 2000), an `id:` and an `event:`
    /// on each, JSON data written over two `data:` lines where it is pretty, a `: heartbeat` comment
    /// every third event; it resumes after the `Last-Event-ID` a client sends back, and with
    /// `disconnectAfter=k` it closes the connection after k events (to test reconnection).
    func addStreams(to router: Router<BasicRequestContext>) {
        router.get("/events") { request, _ in
            let parameters = try StreamParameters(request)
            let resumeAfter = HTTPField.Name("Last-Event-ID").flatMap { request.headers[$0] }.flatMap { Int($0) } ?? 0
            let first = resumeAfter + 1
            let last = min(parameters.count, first + (parameters.disconnectAfter ?? parameters.count) - 1)
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                            body: ResponseBody { writer in
                                var pending = ByteBuffer(string: "retry: \(parameters.retryMilliseconds)\n\n")
                                if first <= last {
                                    for n in first...last {
                                        Self.writeServerSentEvent(n, into: &pending)
                                        try await Self.write(&pending, to: &writer, gap: parameters.gapMilliseconds)
                                    }
                                }
                                try await writer.write(pending)
                                if parameters.disconnectAfter != nil, last < parameters.count { throw TruncatedOnPurpose() }
                                try await writer.finish(nil)
                            })
        }
        router.get("/events.ndjson") { request, _ in
            let parameters = try StreamParameters(request)
            return Response(status: .ok, headers: [.contentType: "application/x-ndjson"],
                            body: ResponseBody { writer in
                                var pending = ByteBuffer()
                                if parameters.count > 0 {
                                    for n in 1...parameters.count {
                                        Self.writeJSONLine(n, into: &pending)
                                        try await Self.write(&pending, to: &writer, gap: parameters.gapMilliseconds)
                                    }
                                }
                                try await writer.write(pending)
                                try await writer.finish(nil)
                            })
        }
    }

    /// Writes what is pending after an item: at once, then waits `gap` ms, when the stream has gaps;
    /// without gaps, once 16 KiB have gathered (as a buffered server would, instead of a write and
    /// a flush per item).
    private static func write(_ pending: inout ByteBuffer, to writer: inout any ResponseBodyWriter, gap: Int) async throws {
        guard gap > 0 || pending.readableBytes >= 16 << 10 else { return }
        try await writer.write(pending)
        pending.clear()
        if gap > 0 { try await Task.sleep(for: .milliseconds(gap)) }
    }

    /// Writes event `n` as the stream sends it: odd ones compact on one `data:` line, even ones
    /// pretty over two, and a heartbeat comment after every third. Written straight into the buffer
    /// (no JSON encoder, no Foundation string work per event): the benchmark's 100,000 events must
    /// cost the server much less than any client reading them, or it measures the server.
    static func writeServerSentEvent(_ n: Int, into buffer: inout ByteBuffer) {
        buffer.writeStaticString("id: ")
        buffer.writeString(String(n))
        buffer.writeStaticString("\nevent: build\ndata: ")
        writeJSON(n, into: &buffer, split: n % 2 == 0)
        buffer.writeStaticString(n % 3 == 0 ? "\n\n: heartbeat\n\n" : "\n\n")
    }

    /// Writes event `n` as one line of JSON Lines.
    static func writeJSONLine(_ n: Int, into buffer: inout ByteBuffer) {
        writeJSON(n, into: &buffer, split: false)
        buffer.writeStaticString("\n")
    }

    /// `BuildEvent.number(n)` as JSON with sorted keys; `split` breaks it after the log onto a second
    /// `data:` line.
    private static func writeJSON(_ n: Int, into buffer: inout ByteBuffer, split: Bool) {
        let number = String(n)
        buffer.writeStaticString("{\"log\":\"step ")
        buffer.writeString(number)
        buffer.writeStaticString(n % 2 == 0 ? "\\nsecond line\"," : "\",")
        if split { buffer.writeStaticString("\ndata:  ") }
        buffer.writeStaticString("\"n\":")
        buffer.writeString(number)
        buffer.writeStaticString(",\"status\":\"")
        buffer.writeString(BuildEvent.status(of: n))
        buffer.writeStaticString("\"}")
    }
}

/// `count`, `gapMs` and `disconnectAfter` of a stream request, each checked.
private struct StreamParameters {
    var count: Int
    var gapMilliseconds: Int
    var disconnectAfter: Int?
    var retryMilliseconds: Int

    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
            guard let text = query.get(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw HTTPError(.badRequest, message: "\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        count = try number("count", default: 10, in: 0...DemoRoutes.maximumStreamEvents)
        gapMilliseconds = try number("gapMs", default: 0, in: 0...10_000)
        retryMilliseconds = try number("retryMs", default: 2000, in: 0...60_000)
        disconnectAfter = query.get("disconnectAfter") == nil ? nil : try number("disconnectAfter", default: 1, in: 1...DemoRoutes.maximumStreamEvents)
    }
}
