import Foundation
import HTTPTypes

/// One reading of a stream: the request, sent on the first item asked for; the body's chunks; the
/// framing; the bytes of the items a chunk completed, handed over a batch at a time and decoded by
/// the iterator (``ItemStream/Iterator``), in the caller's code specialized for its item type.
@usableFromInline
actor StreamReader {
    private enum Framing {
        case events(ServerSentEventParser)
        case lines(JSONLinesFramer)
    }

    private let client: APIClient
    /// The item type's name, for the errors of a broken framing.
    private let itemType: String
    /// The call, handed to the middlewares and the transport with each (re)connection.
    private let context: CallContext
    private let prepare: @Sendable () throws(APIError) -> PreparedRequest
    private var request: PreparedRequest?
    private var chunks: HTTPBodyChunks?
    private var framing: Framing?
    private var pending = StreamBatch()
    private var ended = false
    /// Why the stream cannot be read past the items pending, once its framing broke.
    private var broken: APIError?
    /// The read of the next chunk under way, which the watchdog cancels when the gap passes the limit.
    private var reading: Task<Data?, any Error>?
    private var lastProgress = ContinuousClock.now
    private var watchdog: Task<Void, Never>?
    /// Whether the watchdog cancelled the read under way, seen by the transport under it too.
    private let idle = IdleLimitWatch()

    deinit { watchdog?.cancel() }

    /// The next chunk within the request's gap limit. One watchdog per stream keeps the limit: a
    /// timer per chunk (a task group racing a sleep) left each cancelled sleep's timer behind until
    /// its deadline, and a fast stream's memory grew with them (7 MB a million events at 30 s).
    private func nextChunk(_ chunks: HTTPBodyChunks, _ request: PreparedRequest) async throws -> Data? {
        lastProgress = .now
        idle.set(passed: false)
        if watchdog == nil {
            let limit = request.timeout
            watchdog = Task { [weak self] in
                var deadline = ContinuousClock.now + limit
                while !Task.isCancelled {
                    do { try await Task.sleep(until: deadline) } catch { return }
                    guard let self, let next = await self.check(limit: limit) else { return }
                    deadline = next
                }
            }
        }
        let read = Task { [idle] in try await IdleLimitWatch.$current.withValue(idle) { try await chunks.next() } }
        reading = read
        defer {
            reading = nil
            lastProgress = .now
        }
        do {
            return try await withTaskCancellationHandler { try await read.value } onCancel: { read.cancel() }
        } catch {
            if idle.hasPassed { throw APIError.timedOut(request.summary, after: request.timeout) }
            throw APIClient.apiError(error, for: request)
        }
    }

    /// The watchdog's look: a read waiting longer than `limit` is cancelled as timed out. Returns
    /// when to look next.
    private func check(limit: Duration) -> ContinuousClock.Instant? {
        let due = lastProgress + limit
        if let reading, ContinuousClock.now >= due {
            idle.set(passed: true)
            reading.cancel()
            return .now + limit
        }
        return reading == nil ? .now + limit : due
    }

    /// Whether an answer that is neither an event stream nor JSON Lines is read as lines, as
    /// `curl -N` shows it (items nobody declared a type for: Kubernetes' and Docker's watches
    /// answer `application/json`, a log tail `text/plain`); else it is `unexpectedContentType`.
    private let readsAnyTypeAsLines: Bool
    /// The bytes of ``APIClient/Configuration/streamTerminator``, when there is one.
    private let terminator: [UInt8]?

    init(client: APIClient, itemType: String, context: CallContext, readsAnyTypeAsLines: Bool = false,
         prepare: @escaping @Sendable () throws(APIError) -> PreparedRequest) {
        self.client = client
        terminator = client.configuration.streamTerminator.map { Array($0.utf8) }
        self.itemType = itemType
        self.context = context
        self.readsAnyTypeAsLines = readsAnyTypeAsLines
        self.prepare = prepare
    }

    /// Reconnections in a row, without a new event between, before a dropped event stream is an error.
    static var maximumReconnections: Int { 5 }
    /// The longest wait before a reconnection, whatever `retry:` asks (a stream asked for 292
    /// million years).
    static var maximumReconnectionTime: Duration { .seconds(60) }
    private var reconnections = 0
    /// The last event ID the latest reconnection resumed from: events after it with the same ID
    /// are the same events again, not progress (a stream that drops after each one would
    /// otherwise be reconnected forever).
    private var resumedFrom: String?

    /// The items read so far and not handed over (at least one), or `nil` at the end.
    @usableFromInline
    func nextBatch() async throws -> StreamBatch? {
        if chunks == nil { try await start() }
        while pending.isEmpty {
            // The items before a break in the framing are handed over first, then the error.
            if let broken { throw broken }
            guard !ended, let chunks, let request else { return nil }
            let chunk: Data?
            do {
                chunk = try await nextChunk(chunks, request)
            } catch let error as APIError {
                // An event stream whose connection drops is taken up again where it stopped, after
                // the wait it asked for (`retry:`), with `Last-Event-ID`, as the standard says.
                // Not a body too large to keep, nor TLS refused: those would only happen again.
                guard case .transport(_, let failure) = error, ![.responseTooLarge, .tls, .cancelled].contains(failure.kind),
                      case .events(var parser) = framing, reconnections < Self.maximumReconnections else { throw error }
                reconnections += 1
                parser.finish()
                framing = .events(parser)
                try await Task.sleep(for: Self.reconnectionDelay(asked: parser.reconnectionTime))
                resumedFrom = parser.lastEventID
                try await start(lastEventID: parser.lastEventID)
                continue
            }
            if let chunk {
                let before = pending.count
                read(chunk)
                if pending.count > before, madeProgress { reconnections = 0 }
            } else {
                ended = true
                finish()
            }
        }
        var batch = StreamBatch()
        swap(&batch, &pending)
        batch.request = request?.summary ?? batch.request
        return batch
    }

    /// How long to wait before reconnecting: what the stream asked (`retry:`), three seconds
    /// when it asked nothing, never more than ``maximumReconnectionTime``.
    static func reconnectionDelay(asked: Duration?) -> Duration {
        min(asked ?? .seconds(3), maximumReconnectionTime)
    }

    /// Whether the items just read took the stream further: an event stream with IDs has gone
    /// past the one it last resumed from; anything else, by reading at all.
    private var madeProgress: Bool {
        guard case .events(let parser) = framing, let resumedFrom, !resumedFrom.isEmpty else { return true }
        return parser.lastEventID != resumedFrom
    }

    private func start(lastEventID: String = "") async throws {
        var prepared = try prepare()
        if !lastEventID.isEmpty { prepared.setHeader(.custom(name: "Last-Event-ID", value: lastEventID)) }
        // What the stream may be, unless the endpoint said what it accepts.
        prepared.acceptStreams()
        try await client.ready(&prepared, context: context)
        request = prepared
        let (client, sent, context) = (client, prepared, context)
        let (response, body) = try await Self.withIdleLimit(sent) {
            let answer = try await client.exchange(sent, context: context).answer
            return (answer.head, answer.chunks)
        }
        chunks = body
        guard (200..<300).contains(response.status.code) else {
            // The error's body, as much as a message needs.
            throw APIError.unacceptableStatus(prepared.summary, try await Self.summary(of: response, body, upTo: 64 << 10, prepared))
        }
        switch (MediaType.streamFraming(of: response.headerFields[.contentType] ?? ""), framing) {
        case (.events?, .events?):
            break   // Taken up again: the parser keeps the last event ID and the reconnection time.
        case (.events?, _):
            framing = .events(ServerSentEventParser(maximumEventBytes: client.configuration.maximumStreamItemBytes))
        case (.lines?, _):
            framing = .lines(JSONLinesFramer(maximumLineBytes: client.configuration.maximumStreamItemBytes))
        case (nil, _) where readsAnyTypeAsLines:
            framing = .lines(JSONLinesFramer(maximumLineBytes: client.configuration.maximumStreamItemBytes))
        case (nil, _):
            throw APIError.unexpectedContentType(prepared.summary, expected: "text/event-stream or application/x-ndjson",
                                                 try await Self.summary(of: response, body, upTo: ResponseSummary.excerptLength, prepared))
        }
    }

    /// Frames `chunk`, adding the items it completes to ``pending`` (each event's data or line, as
    /// read). A break in the framing is kept in ``broken``: the items before it are handed over
    /// first, then it is thrown.
    private func read(_ chunk: Data) {
        // Gathered apart from the actor's state: a closure that touched it would retain the actor
        // (whose weak references make that slow) once per item.
        var items = StreamBatch()
        swap(&items, &pending)
        var framing = framing
        var framingBreak: (expected: String, found: String)?
        var terminated = false
        let terminator = self.terminator
        chunk.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            switch framing {
            case .events(var parser):
                items.isUTF8 = true
                let typed = !readsAnyTypeAsLines
                do throws(ServerSentEventParser.Failure) {
                    try parser.feed(bytes) { event in
                        guard !terminated else { return }
                        // `data: [DONE]`: the end, not an item.
                        if let terminator, event.data.elementsEqual(terminator) {
                            terminated = true
                            return
                        }
                        // A typed stream's items are its events' JSON: a keep-alive is none.
                        if typed, Self.isKeepAlive(event) { return }
                        items.append(event.data)
                    }
                } catch {
                    framingBreak = ("a server-sent event stream", error.message)
                }
                framing = .events(parser)
            case .lines(var framer):
                items.isUTF8 = false
                do throws(JSONLinesFramer.Failure) {
                    try framer.feed(bytes) { items.append($0) }
                } catch {
                    framingBreak = ("JSON Lines", error.message)
                }
                framing = .lines(framer)
            case nil:
                break
            }
        }
        self.framing = framing
        pending = items
        if let framingBreak { broken = framingFailure(expected: framingBreak.expected, found: framingBreak.found) }
        if terminated {
            // Ended as the service said: nothing after the terminator is read, and the
            // connection is let go.
            ended = true
            chunks = nil
        }
    }

    /// An event that carries no item: one without data (a keep-alive `ping`), or one of a named
    /// type other than `message` whose data is not JSON (`event: ping` with `data: keep-alive`).
    /// Events of the item's own kind are read, and an item that does not decode is an error.
    private static func isKeepAlive(_ event: ServerSentEventParser.Dispatch) -> Bool {
        guard let first = event.data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return true }
        guard let type = event.type, !type.elementsEqual("message".utf8) else { return false }
        // `{ [ " - 0…9 t f n`: how a JSON value starts.
        let startsJSON = [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "t"),
                          UInt8(ascii: "f"), UInt8(ascii: "n")].contains(first) || (0x30...0x39).contains(first)
        return !startsJSON
    }

    /// The head of an answer that is not the stream, and the start of its body (up to `limit` bytes).
    private static func summary(of response: HTTPResponse, _ body: HTTPBodyChunks, upTo limit: Int,
                                _ request: PreparedRequest) async throws -> ResponseSummary {
        var text = Data()
        while text.count < limit, let chunk = try await withIdleLimit(request, { try await body.next() }) { text += chunk }
        return ResponseSummary(status: response.status.code, reason: response.status.reasonPhrase,
                               headers: HTTPHeader.list(response.headerFields), body: text)
    }

    /// A stream whose framing breaks (an event past the limit, bytes that are not UTF-8) as the
    /// client's decoding error: the items could not be read, and the message says where.
    private func framingFailure(expected: String, found: String) -> APIError {
        .decodingFailed(request?.summary ?? RequestSummary(method: "GET", url: ""),
                        DecodingFailure(type: itemType == DecodingFailure.undeclaredItemName ? "the stream" : "the stream of \(itemType)",
                                        codingPath: "", expected: expected, found: found, snippet: nil))
    }

    /// The stream has ended: an event without its blank line is discarded; a last line without its
    /// line feed is an item.
    private func finish() {
        switch framing {
        case .events(var parser):
            parser.finish()
            framing = .events(parser)
        case .lines(var framer):
            do throws(JSONLinesFramer.Failure) {
                if let line = try framer.end() { line.withUnsafeBytes { pending.append($0.assumingMemoryBound(to: UInt8.self)) } }
            } catch {
                broken = framingFailure(expected: "JSON Lines", found: error.message)
            }
            framing = .lines(framer)
        case nil:
            break
        }
    }

    /// `operation` within the request's time limit: a head, or the next chunk, that takes longer is
    /// a time-out; a transport failure is the client's error for it.
    private static func withIdleLimit<T: Sendable>(_ request: PreparedRequest, _ operation: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        do {
            let idle = IdleLimitWatch()
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await IdleLimitWatch.$current.withValue(idle) { try await operation() } }
                group.addTask {
                    try await Task.sleep(for: request.timeout)
                    idle.set(passed: true)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw APIError.timedOut(request.summary, after: request.timeout)
                }
                return value
            }
        } catch {
            throw APIClient.apiError(error, for: request)
        }
    }
}

