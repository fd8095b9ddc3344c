import Foundation
import HTTPTypes
import Synchronization

extension CassetteTransport: StreamingHTTPTransport {
    /// The most bytes of one stream a cassette keeps (16 MiB): an endless stream is recorded up to
    /// its last line end before the limit.
    public static var maximumRecordedStreamBytes: Int { 16 << 20 }

    /// Replays a recorded answer as a stream (its body as one chunk, then the failure that ended
    /// it, if one did), or records one as it is read: the chunks pass through as they arrive, and
    /// the exchange is kept when the stream ends, fails, or its reader leaves — with what had
    /// arrived by then (up to ``maximumRecordedStreamBytes``) and the failure, so that a replay
    /// reads the same items and ends the same way. A stream that did not reach its end is kept up
    /// to its last line end: the part of a line after it was never an item, and would be a broken
    /// one in the replay. The transport recorded from must stream (adopt ``StreamingHTTPTransport``).
    /// Sent this way, an exchange is recorded without a label (see ``exchange(_:context:)``).
    public func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        try await streamed(TransportRequest(head: request, body: body, timeout: idleTimeout, tls: tls, delivery: .streamed),
                           context: CallContext())
    }

    func streamed(_ request: TransportRequest, context: CallContext) async throws -> (HTTPResponse, HTTPBodyChunks) {
        let live: any HTTPTransport
        switch try lookUp(request.head, body: request.body) {
        case .replay(let entry):
            let (head, recorded) = try head(entry)
            return (head, HTTPBodyChunks(whole: recorded, then: entry.interruption))
        case .record(let transport):
            live = transport
        }
        let idleTimeout = request.timeout
        let entry = entryMaker(for: request.head, body: request.body, label: context.label)
        let (head, chunks): (HTTPResponse, HTTPBodyChunks)
        do {
            let answer = try await live.exchange(request, context: context)
            (head, chunks) = (answer.head, answer.chunks)
        } catch {
            if let failure = Self.failure(error, idleTimeout: idleTimeout) { keep(entry(.failure(failure), nil)) }
            throw error
        }
        // Registered as open until it is kept: a save meanwhile (a signal ends the program) writes
        // what it has read so far.
        let number = Mutex<Int?>(nil)
        let tape = StreamRecording(head: head) { [self] outcome, failure in
            keep(entry(outcome, failure), closingStream: number.withLock { $0 })
        }
        let opened = openStream { [weak tape] in tape?.snapshot().map { entry($0, nil) } }
        number.withLock { $0 = opened }
        return (head, HTTPBodyChunks {
            do {
                let chunk = try await chunks.next()
                tape.add(chunk)
                return chunk
            } catch {
                // A failure is replayed after the body.
                tape.finish(atEnd: false, failure: Self.failure(error, idleTimeout: idleTimeout))
                throw error
            }
        })
    }

    /// What a stream's error is to replay: a transport's failure, or a time-out when the stream's
    /// reader stopped the wait because it passed the client's limit; `nil` when the reader left
    /// (a cancellation), which is only where what was read ends.
    private static func failure(_ error: any Error, idleTimeout: Duration) -> TransportFailure? {
        if IdleLimitWatch.current?.hasPassed == true {
            return TransportFailure(.timedOut, detail: "nothing arrived for \(idleTimeout), the client's limit")
        }
        return (error as? TransportFailure).flatMap { $0.kind == .cancelled ? nil : $0 }
    }
}

/// The body of a stream being recorded, kept as an exchange once: at its end, at a failure, or
/// when its reader lets it go.
private final class StreamRecording: Sendable {
    private let head: HTTPResponse
    private let record: @Sendable (Cassette.Outcome, TransportFailure?) -> Void
    private let body = Mutex<(bytes: Data, full: Bool, kept: Bool)>((Data(), false, false))

    init(head: HTTPResponse, record: @escaping @Sendable (Cassette.Outcome, TransportFailure?) -> Void) {
        self.head = head
        self.record = record
    }

    deinit { finish(atEnd: false) }

    /// The next chunk, or the end (`nil`).
    func add(_ chunk: Data?) {
        guard let chunk else { return finish(atEnd: true) }
        body.withLock { body in
            guard !body.full else { return }
            if body.bytes.count + chunk.count <= CassetteTransport.maximumRecordedStreamBytes {
                body.bytes += chunk
            } else {
                // Up to the last line end that fits: a replay's last event or line is whole.
                body.bytes += Self.wholeLines(chunk.prefix(CassetteTransport.maximumRecordedStreamBytes - body.bytes.count))
                body.full = true
            }
        }
    }

    /// `bytes` up to their last line end.
    private static func wholeLines(_ bytes: Data) -> Data {
        bytes.lastIndex(of: 0x0A).map { bytes[...$0] } ?? Data()
    }

    /// What has arrived so far, up to its last line end, as an answer; nil once it has been kept.
    func snapshot() -> Cassette.Outcome? {
        let bytes: Data? = body.withLock { $0.kept ? nil : Self.wholeLines($0.bytes) }
        return bytes.map { Exchange.response(head, body: $0) }
    }

    /// Keeps the exchange with what arrived, once: all of it at the stream's end, else up to the
    /// last line end, and the failure that ended it there, if one did.
    func finish(atEnd: Bool, failure: TransportFailure? = nil) {
        let bytes: Data? = body.withLock { body in
            guard !body.kept else { return nil }
            body.kept = true
            return atEnd ? body.bytes : Self.wholeLines(body.bytes)
        }
        guard let bytes else { return }
        record(Exchange.response(head, body: bytes), failure)
    }
}
