import Foundation
import HTTPTypes

extension APIClient {
    /// The items of a streaming answer, each decoded into the endpoint's declared type — the
    /// phantom type's guarantee, per item. The response's `Content-Type` says how it is framed:
    /// `text/event-stream` (each event's data is one item; see ``ServerSentEventParser``) or JSON
    /// Lines (`application/x-ndjson`, `application/jsonl`: each line is one).
    ///
    /// Each item is the value the endpoint's `JSONDecoder` (else the configuration's) makes of its
    /// bytes. A faster reader gives that value where it is sure to (plain settings and documents)
    /// and leaves the rest, errors included, to `JSONDecoder`, so an item's `init(from:)` may run
    /// twice. An item that does not decode ends the stream with `decodingFailed`, after the items
    /// before it.
    ///
    /// Nothing is sent until the stream is iterated. The client's time limit (the endpoint's, else
    /// the configuration's) applies to the wait for the head and to each gap between chunks, not to
    /// the whole stream; the next chunk is read only when an item is asked for (back-pressure);
    /// ending the iteration, or cancelling its task, closes the connection. An event stream whose
    /// connection drops before its end is taken up again after the wait it asked for (`retry:`),
    /// with `Last-Event-ID` (five times in a row at most without an event between); one that ends
    /// cleanly is over (a browser would reconnect: a client of an API reads a stream to its end).
    /// Redirects are not followed. The transport must be a ``StreamingHTTPTransport``.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>, with data: Kind.RequestData)
        -> AsyncThrowingStream<Item, any Error> where Kind.RequestData: Sendable
    {
        let reader = ItemReader<Item>(client: self, decoder: endpoint.decoder ?? configuration.decoder,
                                      prepare: { [self] () throws(APIError) in try prepare(endpoint, with: data) })
        // Items are handed over from a batch taken from the reader (one actor hop per chunk, not
        // per item: a hop per item was most of a fast stream's cost).
        let batch = ItemBatch<Item>()
        return AsyncThrowingStream(unfolding: {
            if let item = batch.next() { return item }
            guard let items = try await reader.nextBatch() else { return nil }
            batch.refill(items)
            return batch.next()
        })
    }

    /// ``stream(_:with:)`` for an endpoint whose kind needs no request data.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>)
        -> AsyncThrowingStream<Item, any Error> where Kind.RequestData == Void
    {
        stream(endpoint, with: ())
    }
}

/// One stream's state: the request, sent on the first item asked for; the body's chunks; the
/// framing; items read from a chunk and not yet handed over.
private actor ItemReader<Item: Decodable & Sendable> {
    private enum Framing {
        case events(ServerSentEventParser)
        case lines(JSONLinesFramer)
    }

    private let client: APIClient
    private let decoder: JSONDecoder
    private let tape: TapeDecoder
    private let prepare: @Sendable () throws(APIError) -> PreparedRequest
    private var request: PreparedRequest?
    private var chunks: HTTPBodyChunks?
    private var framing: Framing?
    private var pending: [Item] = []
    private var ended = false
    /// Why the stream cannot be read past the items pending, once its framing broke.
    private var broken: APIError?
    /// The read of the next chunk under way, which the watchdog cancels when the gap passes the limit.
    private var reading: Task<Data?, any Error>?
    private var lastProgress = ContinuousClock.now
    private var watchdog: Task<Void, Never>?
    private var timedOut = false

    deinit { watchdog?.cancel() }

    /// The next chunk within the request's gap limit. One watchdog per stream keeps the limit: a
    /// timer per chunk (a task group racing a sleep) left each cancelled sleep's timer behind until
    /// its deadline, and a fast stream's memory grew with them (7 MB a million events at 30 s).
    private func nextChunk(_ chunks: HTTPBodyChunks, _ request: PreparedRequest) async throws -> Data? {
        lastProgress = .now
        timedOut = false
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
        let read = Task { try await chunks.next() }
        reading = read
        defer {
            reading = nil
            lastProgress = .now
        }
        do {
            return try await withTaskCancellationHandler { try await read.value } onCancel: { read.cancel() }
        } catch {
            if timedOut { throw APIError.timedOut(request.summary, after: request.timeout) }
            throw APIClient.apiError(error, for: request)
        }
    }

    /// The watchdog's look: a read waiting longer than `limit` is cancelled as timed out. Returns
    /// when to look next.
    private func check(limit: Duration) -> ContinuousClock.Instant? {
        let due = lastProgress + limit
        if let reading, ContinuousClock.now >= due {
            timedOut = true
            reading.cancel()
            return .now + limit
        }
        return reading == nil ? .now + limit : due
    }

    init(client: APIClient, decoder: JSONDecoder, prepare: @escaping @Sendable () throws(APIError) -> PreparedRequest) {
        self.client = client
        self.decoder = decoder
        tape = TapeDecoder(following: decoder)
        self.prepare = prepare
    }

    /// Reconnections in a row, without an event between, before a dropped event stream is an error.
    static var maximumReconnections: Int { 5 }
    private var reconnections = 0

    /// The items read so far and not handed over (at least one), or `nil` at the end.
    func nextBatch() async throws -> [Item]? {
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
                try await Task.sleep(for: parser.reconnectionTime ?? .seconds(3))
                try await start(lastEventID: parser.lastEventID)
                continue
            }
            if let chunk {
                let found = items(in: chunk)
                if !found.isEmpty { reconnections = 0 }
                pending += found
            } else {
                ended = true
                pending += try finish()
            }
        }
        defer { pending = [] }
        return pending
    }

    private func start(lastEventID: String = "") async throws {
        var prepared = try prepare()
        if !lastEventID.isEmpty { prepared.setHeader(.custom(name: "Last-Event-ID", value: lastEventID)) }
        // What the stream may be, unless the endpoint said what it accepts.
        prepared.acceptStreams()
        if let delegate = client.delegate {
            do {
                try await delegate.client(client, willSend: &prepared)
            } catch {
                throw APIError.invalidRequest(prepared.summary, reason: String(describing: error))
            }
        }
        if let jar = client.configuration.cookies, !jar.isEmpty, let url = URL(string: prepared.url), let cookie = jar.header(for: url) {
            prepared.setHeader(.custom(name: "Cookie", value: APIClient.cookieHeader(own: prepared.header(named: "Cookie"), jar: cookie)),
                               sensitive: true)
        }
        request = prepared
        let sent = prepared
        guard let transport = client.transport as? any StreamingHTTPTransport else {
            throw APIError.invalidRequest(prepared.summary, reason: "this transport (\(type(of: client.transport))) cannot stream a response; use one that adopts StreamingHTTPTransport")
        }
        let head = try client.head(of: sent)
        let (response, body) = try await Self.withIdleLimit(sent) {
            try await transport.stream(head, body: sent.body, idleTimeout: sent.timeout, tls: sent.environment.tls)
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
        case (nil, _):
            throw APIError.unexpectedContentType(prepared.summary, expected: "text/event-stream or application/x-ndjson",
                                                 try await Self.summary(of: response, body, upTo: ResponseSummary.excerptLength, prepared))
        }
    }

    /// The items `chunk` completes, each decoded as its event or line is read (straight from the
    /// framing's bytes). An item that does not decode, or a break in the framing, is kept in
    /// ``broken``: the items before it are handed over first, then it is thrown.
    private func items(in chunk: Data) -> [Item] {
        var items: [Item] = []
        var failure: APIError?
        var framingBreak: APIError?
        chunk.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            switch framing {
            case .events(var parser):
                do throws(ServerSentEventParser.Failure) {
                    try parser.feed(bytes) { take($0.data, isUTF8: true, into: &items, failure: &failure) }
                } catch {
                    framingBreak = framingFailure(expected: "a server-sent event stream", found: error.message)
                }
                framing = .events(parser)
            case .lines(var framer):
                do throws(JSONLinesFramer.Failure) {
                    try framer.feed(bytes) { take($0, isUTF8: false, into: &items, failure: &failure) }
                } catch {
                    framingBreak = framingFailure(expected: "JSON Lines", found: error.message)
                }
                framing = .lines(framer)
            case nil:
                break
            }
        }
        if let first = failure ?? framingBreak { broken = first }
        return items
    }

    /// One item's bytes decoded into `items`, unless an earlier one failed (`failure`). `isUTF8`:
    /// the framing has checked the bytes (an event's data) already.
    private func take(_ bytes: UnsafeBufferPointer<UInt8>, isUTF8: Bool, into items: inout [Item], failure: inout APIError?) {
        guard failure == nil else { return }
        do throws(APIError) { items.append(try decode(UnsafeRawBufferPointer(bytes), isUTF8: isUTF8)) } catch { failure = error }
    }

    /// The head of an answer that is not the stream, and the start of its body (up to `limit` bytes).
    private static func summary(of response: HTTPResponse, _ body: HTTPBodyChunks, upTo limit: Int,
                                _ request: PreparedRequest) async throws -> ResponseSummary {
        var text = Data()
        while text.count < limit, let chunk = try await withIdleLimit(request, { try await body.next() }) { text += chunk }
        return ResponseSummary(status: response.status.code, reason: response.status.reasonPhrase,
                               headers: response.headerFields.map { ($0.name.rawName, $0.value) }, body: text)
    }

    /// A stream whose framing breaks (an event past the limit, bytes that are not UTF-8) as the
    /// client's decoding error: the items could not be read, and the message says where.
    private func framingFailure(expected: String, found: String) -> APIError {
        .decodingFailed(request?.summary ?? RequestSummary(method: "GET", url: ""),
                        DecodingFailure(type: DecodingFailure.sugared(String(describing: Item.self)), codingPath: "",
                                        expected: expected, found: found, snippet: nil))
    }

    private func finish() throws -> [Item] {
        switch framing {
        case .events(var parser):
            parser.finish()
            framing = .events(parser)
            return []
        case .lines(var framer):
            defer { framing = .lines(framer) }
            guard let line = framer.finish() else { return [] }
            return [try line.withUnsafeBytes { (bytes) throws(APIError) in try decode(bytes) }]
        case nil:
            return []
        }
    }

    /// An item, by the tape decoder where it is sure of the value, else by the decoder in force.
    private func decode(_ bytes: UnsafeRawBufferPointer, isUTF8: Bool = false) throws(APIError) -> Item {
        do throws(TapeDecoder.Declined) {
            return try tape.decodeOrDecline(Item.self, from: bytes, isUTF8: isUTF8)
        } catch {}
        let data = Data(bytes)
        do {
            return try decoder.decode(Item.self, from: data)
        } catch {
            throw APIError.decodingFailed(request?.summary ?? RequestSummary(method: "GET", url: ""),
                                          DecodingFailure(error, decoding: Item.self, body: data))
        }
    }

    /// `operation` within the request's time limit: a head, or the next chunk, that takes longer is
    /// a time-out; a transport failure is the client's error for it.
    private static func withIdleLimit<T: Sendable>(_ request: PreparedRequest, _ operation: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await Task.sleep(for: request.timeout)
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

/// The items of one batch, handed over one by one by the stream's iterator. Locked by hand, not
/// by a `Mutex` of a tuple: in this unspecialized code every use of a type built on `Item` looks
/// that type up at run time, once per item.
private final class ItemBatch<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []
    private var index = 0

    func next() -> Item? {
        lock.lock()
        defer { lock.unlock() }
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    func refill(_ batch: [Item]) {
        lock.lock()
        defer { lock.unlock() }
        items = batch
        index = 0
    }
}
