import Foundation
import HTTPTypes

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
    func addStreams(to router: inout DemoRouter) {
        router.get("/events") { request in
            let parameters = try StreamParameters(request)
            let resumeAfter = HTTPField.Name("Last-Event-ID").flatMap { request.headers[$0] }.flatMap { Int($0) } ?? 0
            let first = resumeAfter + 1
            let last = min(parameters.count, first + (parameters.disconnectAfter ?? parameters.count) - 1)
            return DemoResponse(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                                body: .stream(length: nil) { writer in
                                    var pending = Array("retry: \(parameters.retryMilliseconds)\n\n".utf8)
                                    if first <= last {
                                        for n in first...last {
                                            Self.writeServerSentEvent(n, into: &pending)
                                            try await Self.write(&pending, to: &writer, gap: parameters.gapMilliseconds)
                                        }
                                    }
                                    try await writer.write(pending)
                                    if parameters.disconnectAfter != nil, last < parameters.count { throw TruncatedOnPurpose() }
                                })
        }
        router.get("/events.ndjson") { request in
            let parameters = try StreamParameters(request)
            return DemoResponse(status: .ok, headers: [.contentType: "application/x-ndjson"],
                                body: .stream(length: nil) { writer in
                                    var pending: [UInt8] = []
                                    if parameters.count > 0 {
                                        for n in 1...parameters.count {
                                            Self.writeJSONLine(n, into: &pending)
                                            try await Self.write(&pending, to: &writer, gap: parameters.gapMilliseconds)
                                        }
                                    }
                                    try await writer.write(pending)
                                })
        }
    }

    /// Writes what is pending after an item: at once, then waits `gap` ms, when the stream has gaps;
    /// without gaps, once 16 KiB have gathered (as a buffered server would, instead of a write and
    /// a flush per item).
    private static func write(_ pending: inout [UInt8], to writer: inout BodyWriter, gap: Int) async throws {
        guard gap > 0 || pending.count >= 16 << 10 else { return }
        try await writer.write(pending)
        pending.removeAll(keepingCapacity: true)
        if gap > 0 { try await Task.sleep(for: .milliseconds(gap)) }
    }

    /// Writes event `n` as the stream sends it: odd ones compact on one `data:` line, even ones
    /// pretty over two, and a heartbeat comment after every third. Written straight into the buffer
    /// (no JSON encoder, no Foundation string work per event): the benchmark's 100,000 events must
    /// cost the server much less than any client reading them, or it measures the server.
    static func writeServerSentEvent(_ n: Int, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: "id: ".utf8)
        buffer.append(contentsOf: String(n).utf8)
        buffer.append(contentsOf: "\nevent: build\ndata: ".utf8)
        writeJSON(n, into: &buffer, split: n % 2 == 0)
        buffer.append(contentsOf: (n % 3 == 0 ? "\n\n: heartbeat\n\n" : "\n\n").utf8)
    }

    /// Writes event `n` as one line of JSON Lines.
    static func writeJSONLine(_ n: Int, into buffer: inout [UInt8]) {
        writeJSON(n, into: &buffer, split: false)
        buffer.append(contentsOf: "\n".utf8)
    }

    /// `BuildEvent.number(n)` as JSON with sorted keys; `split` breaks it after the log onto a second
    /// `data:` line.
    private static func writeJSON(_ n: Int, into buffer: inout [UInt8], split: Bool) {
        let number = String(n)
        buffer.append(contentsOf: "{\"log\":\"step ".utf8)
        buffer.append(contentsOf: number.utf8)
        buffer.append(contentsOf: (n % 2 == 0 ? "\\nsecond line\"," : "\",").utf8)
        if split { buffer.append(contentsOf: "\ndata:  ".utf8) }
        buffer.append(contentsOf: "\"n\":".utf8)
        buffer.append(contentsOf: number.utf8)
        buffer.append(contentsOf: ",\"status\":\"".utf8)
        buffer.append(contentsOf: BuildEvent.status(of: n).utf8)
        buffer.append(contentsOf: "\"}".utf8)
    }
}

/// `count`, `gapMs` and `disconnectAfter` of a stream request, each checked.
private struct StreamParameters {
    var count: Int
    var gapMilliseconds: Int
    var disconnectAfter: Int?
    var retryMilliseconds: Int

    init(_ request: DemoRequest) throws {
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
            guard let text = request.query(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw ParameterRefusal(message: "\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        count = try number("count", default: 10, in: 0...DemoRoutes.maximumStreamEvents)
        gapMilliseconds = try number("gapMs", default: 0, in: 0...60_000)
        retryMilliseconds = try number("retryMs", default: 2000, in: 0...60_000)
        disconnectAfter = request.query("disconnectAfter") == nil ? nil : try number("disconnectAfter", default: 1, in: 1...DemoRoutes.maximumStreamEvents)
    }
}
