import Foundation
import HTTPTypes
import Synchronization
import TypistText

/// A transport that records real exchanges into a HAR file (a *cassette*) and replays them
/// without the network: for offline workshops, for CI that must not call a live service, and for
/// checking recorded responses against today's models.
///
/// ```swift
/// let cassette = try CassetteTransport(path: "Tests/posts.har", mode: .once,
///                                      forwardingTo: CurlTransport())
/// let client = APIClient(environment: environment, transport: cassette)
/// let posts = try await client.send(.posts)   // recorded the first time, replayed after
/// try cassette.save()
/// ```
///
/// Secrets never reach the file: credential headers, secret query items, a URL's password and
/// every value given to ``addSecrets(_:)`` (or seen in a credential header) are replaced by
/// `••••` when the cassette is saved, in every form they may be written in.
public final class CassetteTransport: HTTPTransport {
    /// When to record and when to replay, as VCR names them.
    public enum Mode: String, Sendable, CaseIterable {
        /// Records when the file does not exist yet; otherwise replays only.
        case once
        /// Replays what matches and records what does not.
        case new
        /// Replays only: a request that matches nothing is an error.
        case none
        /// Records everything again, replacing the file's exchanges.
        case all

        /// `none` where the environment has `CI` set (a CI job never calls a live service by
        /// accident), `once` elsewhere.
        public static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> Mode {
            if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" { return .none }
            return .once
        }
    }

    /// The file.
    public let path: String
    /// The mode, as it applies to this file: `once` becomes `none` when the file existed.
    public let mode: Mode
    /// What a request must share with a recorded exchange.
    public let matching: CassetteMatching

    /// The largest body a replayed answer may have, as the live transports' own limit (256 MiB
    /// unless set): a replay answers what the service's answer would have been, and a body the
    /// live transport refuses is refused from the file too.
    public let maximumResponseSize: Int

    private let live: (any HTTPTransport)?
    private let creator: (name: String, version: String)
    /// Held while this transport may record: no other program records into the file meanwhile.
    private let lock: Mutex<CassetteLock?>

    private struct State {
        /// The file's exchanges, and which have been replayed.
        var recorded: [Cassette.Entry]
        var replayed: [Bool]
        /// The recorded requests' parts, and the entries by method and path (when matched).
        var parts: [CassetteMatching.Parts] = []
        var index: [String: [Int]] = [:]
        /// Where each key's candidates stop being all replayed.
        var firstUnreplayed: [String: Int] = [:]
        /// Exchanges recorded in this run, not yet written without their secrets.
        var fresh: [Cassette.Entry] = []
        var unsaved = false
        var redactor = CassetteRedactor()
        var misses = 0
        /// Streams being recorded, each as what it has read so far (whole lines), for a save
        /// before they end (a signal ends the program mid-stream).
        var openStreams: [Int: @Sendable () -> Cassette.Entry?] = [:]
        var nextStream = 0
        /// What a miss's error ends with: what to do about it.
        var missAdvice = "Record it with --record-mode new, or check the request"
    }

    private let state: Mutex<State>

    /// Opens (or prepares to create) the cassette at `path`.
    ///
    /// - Parameters:
    ///   - path: The HAR file.
    ///   - mode: When to record and when to replay.
    ///   - matching: What a request must share with a recorded exchange; nil for the file's own
    ///     setting (or ``CassetteMatching/default``).
    ///   - live: Where requests that are recorded go; nil replays only.
    ///   - creator: The program named as the file's creator.
    ///   - maximumResponseSize: The largest body replayed, in bytes (``maximumResponseSize``).
    /// - Throws: ``CassetteError`` when the file exists but cannot be read, or when the mode
    ///   needs to record and there is no `live` transport.
    public init(path: String, mode: Mode, matching: CassetteMatching? = nil, forwardingTo live: (any HTTPTransport)?,
                creator: (name: String, version: String) = ("TypedAPI", "1"), maximumResponseSize: Int = 256 << 20) throws(CassetteError) {
        self.path = path
        self.maximumResponseSize = maximumResponseSize
        self.live = live
        self.creator = creator
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists, mode == .none {
            throw CassetteError(path: path, reason: "no such file; mode none only replays (record it first, with mode once or all)")
        }
        let effective: Mode = mode == .once && exists ? .none : mode
        if effective != .none, live == nil {
            throw CassetteError(path: path, reason: "mode \(mode.rawValue) records, and there is no transport to record from")
        }
        self.mode = effective
        // Locked before it is read: what this one keeps is the file as no other writer leaves it.
        lock = Mutex(effective == .none ? nil : try CassetteLock(forCassetteAt: path))
        var cassette = Cassette()
        if exists, mode != .all { cassette = try Cassette(contentsOf: path) }
        self.matching = matching ?? cassette.matching
        var initial = State(recorded: cassette.entries, replayed: Array(repeating: false, count: cassette.entries.count))
        initial.parts = cassette.entries.map { CassetteMatching.Parts(method: $0.method, url: $0.url, body: $0.requestBody) }
        for (position, parts) in initial.parts.enumerated() { initial.index[parts.key(self.matching), default: []].append(position) }
        state = Mutex(initial)
    }

    /// Sets what the error of a request no recorded exchange matches ends with, after the nearest
    /// recorded one: what the reader can do. By default it names the command line's
    /// `--record-mode new`; a program whose recording cannot be extended says what to do instead.
    public func adviseOnMiss(_ advice: String) {
        state.withLock { $0.missAdvice = advice }
    }

    /// The origin (`scheme://host[:port]`) of the first exchange the file holds, if it holds any:
    /// where its recording was made, for a program that replays without a base URL of its own.
    public var recordedOrigin: String? {
        guard let url = state.withLock({ $0.recorded.first?.url }), let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = url[separator.upperBound...].prefix { !"/?#".contains($0) }
        // Never the credentials a URL may carry (`user:password@`).
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty, !authority.contains(where: { $0.isWhitespace || $0.isASCII && ($0.asciiValue ?? 0) < 0x20 }),
              URL(string: scheme + "://" + authority) != nil else { return nil }
        return scheme + "://" + authority
    }

    /// Whether this cassette sends requests to the network (records), rather than only replaying.
    public var records: Bool { mode != .none }

    /// The exchanges recorded so far in this run, secrets masked.
    public var recordedExchanges: [Cassette.Entry] {
        state.withLock { state in state.fresh.map { state.redactor.redact($0) } }
    }

    /// How many requests matched nothing (and were refused or recorded).
    public var missCount: Int { state.withLock { $0.misses } }

    /// Adds values that must never be written (a password, an API key sent in a body, a token a
    /// login response returned). Those seen in credential headers are added without asking.
    public func addSecrets(_ secrets: [String]) {
        state.withLock { $0.redactor.learn(secrets) }
    }

    /// Writes the exchanges recorded in this run (after the file's own, in mode `new`), secrets
    /// masked; does nothing when nothing new was recorded.
    ///
    /// - Throws: ``CassetteError`` when the file cannot be written.
    /// A stream still being read is written with what it has read so far (its whole lines), and
    /// again, whole, by a save after it ends.
    public func save() throws(CassetteError) {
        // Read outside the lock: a stream's last reference may go with its snapshot, and keep it.
        let open = state.withLock { state in state.openStreams.sorted { $0.key < $1.key } }
        let snapshots = open.compactMap { stream in stream.value().map { (stream.key, $0) } }
        let cassette: Cassette? = state.withLock { state in
            // A stream kept meanwhile is among the fresh ones already.
            let reading = snapshots.filter { state.openStreams[$0.0] != nil }.map(\.1)
            guard state.unsaved || !reading.isEmpty else { return nil }
            state.unsaved = false
            for entry in reading { state.redactor.learn(from: entry) }
            let fresh = (state.fresh + reading).map { state.redactor.redact($0) }
            let kept = mode == .new ? state.recorded : []
            return Cassette(entries: kept + fresh, matching: matching)
        }
        guard let cassette else { return }
        do {
            try cassette.write(to: path, creator: creator)
        } catch {
            state.withLock { $0.unsaved = true }
            throw error
        }
    }

    /// Lets another program record into the file: call it once this transport's recording has
    /// been saved for the last time (it is also let go when the transport is released). While a
    /// transport records, a second program that would record into the same file is refused.
    public func close() {
        let released = lock.withLock { held -> CassetteLock? in
            defer { held = nil }
            return held
        }
        withExtendedLifetime(released) {}
    }

    // MARK: HTTPTransport

    /// Replays or records; see ``HTTPTransport``.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    /// Replays or records; see ``HTTPTransport``. A request that matches nothing in mode `none`
    /// fails with a ``TransportFailure`` that shows it beside the nearest recorded one. Sent this
    /// way, an exchange is recorded without a label; the client sends with
    /// ``exchange(_:context:)``, which writes the call's.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        try await whole(TransportRequest(head: request, body: body, timeout: timeout, tls: tls), context: CallContext())
    }

    /// Whether the transport it records from applies TLS options (a replay-only cassette sends nothing).
    public var appliesTLSOptions: Bool { live?.appliesTLSOptions ?? true }

    /// Replays or records, whole or as a stream, writing the call's label (its endpoint and
    /// response type) beside each exchange it records; see ``HTTPTransport/exchange(_:context:)``.
    /// A call that reads its body whole (a document counted as it arrives, asked of this cassette in
    /// chunks) is recorded whole, as it is replayed.
    public func exchange(_ request: TransportRequest, context: CallContext) async throws -> TransportResponse {
        switch context.delivery == .whole ? .whole : request.delivery {
        case .whole:
            let (head, body) = try await whole(request, context: context)
            return TransportResponse(head: head, body: .whole(body))
        case .streamed:
            let (head, chunks) = try await streamed(request, context: context)
            return TransportResponse(head: head, body: .streamed(chunks))
        }
    }

    private func whole(_ request: TransportRequest, context: CallContext) async throws -> (HTTPResponse, Data) {
        let live: any HTTPTransport
        switch try lookUp(request.head, body: request.body) {
        case .replay(let entry): return try answer(entry)
        case .record(let transport): live = transport
        }
        let record = recorder(for: request.head, body: request.body, label: context.label)
        do {
            let answer = try await live.exchange(request, context: context)
            let responseBody = try await answer.wholeBody()
            record(Exchange.response(answer.head, body: responseBody), nil)
            return (answer.head, responseBody)
        } catch let failure as TransportFailure {
            if failure.kind != .cancelled { record(.failure(failure), nil) }
            throw failure
        }
    }

    /// What a request gets: a recorded exchange, or the transport to send it through and record.
    enum Lookup {
        case replay(Cassette.Entry)
        case record(any HTTPTransport)
    }

    /// The recorded exchange that answers `request`, or else the transport to record it from.
    /// Throws the miss when nothing matches and the mode (or a missing transport) records nothing.
    func lookUp(_ request: HTTPRequest, body: Data?) throws(TransportFailure) -> Lookup {
        // Recording everything: nothing to look up, and the request's parts are not needed.
        if mode == .all, let live { return .record(live) }
        let (method, url, headers) = Self.parts(of: request)
        let (replayed, masked) = mode == .all ? (nil, nil) : replay(method: method, url: url, body: body, headers: headers)
        if let replayed { return .replay(replayed) }
        guard mode != .none, let live else {
            throw TransportFailure(.other, detail: missDescription(masked ?? CassetteMatching.Parts(method: method, url: url, body: body),
                                                                   resuming: Self.resumedEventID(headers)))
        }
        return .record(live)
    }

    /// A recorded answer as the transport gives it: the head and body, or the failure (a stream
    /// that failed part-way through, asked for whole, is its failure).
    func answer(_ entry: Cassette.Entry) throws -> (HTTPResponse, Data) {
        let (head, body) = try head(entry)
        if let interruption = entry.interruption { throw interruption }
        return (head, body)
    }

    /// A recorded answer's head and the body recorded, or the failure; a body over the limit is
    /// the failure the live transport would have given.
    func head(_ entry: Cassette.Entry) throws -> (HTTPResponse, Data) {
        switch entry.outcome {
        case .response(let status, let reason, let headers, let body):
            guard body.count <= maximumResponseSize else {
                throw TransportFailure(.responseTooLarge, detail: "the recorded body is \(body.count) bytes, over the limit of \(maximumResponseSize) bytes")
            }
            return (Cassette.response(status: status, reason: reason, headers: headers), body)
        case .failure(let failure):
            throw failure
        }
    }

    /// Keeps an exchange for `request` once its outcome is known (timed from now); for a stream,
    /// with the failure that ended it before its end, if one did.
    func recorder(for request: HTTPRequest, body: Data?, label: ExchangeLabel?) -> @Sendable (Cassette.Outcome, TransportFailure?) -> Void {
        let entry = entryMaker(for: request, body: body, label: label)
        return { [self] outcome, interruption in keep(entry(outcome, interruption)) }
    }

    /// Makes the exchange for `request` from its outcome, timed from now.
    func entryMaker(for request: HTTPRequest, body: Data?, label: ExchangeLabel?) -> @Sendable (Cassette.Outcome, TransportFailure?) -> Cassette.Entry {
        let started = Date()
        let clock = ContinuousClock.now
        let label = label == ExchangeLabel() ? nil : label
        let (method, url, headers) = Self.parts(of: request)
        return { outcome, interruption in
            Cassette.Entry(started: started, duration: ContinuousClock.now - clock, method: method, url: url,
                           requestHeaders: headers, requestBody: body, outcome: outcome, label: label, interruption: interruption)
        }
    }

    /// Keeps a finished exchange; a stream's, in place of what it had read so far.
    func keep(_ entry: Cassette.Entry, closingStream stream: Int? = nil) {
        state.withLock { state in
            if let stream { state.openStreams[stream] = nil }
            state.redactor.learn(from: entry)
            state.fresh.append(entry)
            state.unsaved = true
        }
    }

    /// Registers a stream being read: `snapshot` gives its exchange as read so far, nil once it
    /// has been kept. Returns its number for ``keep(_:closingStream:)``.
    func openStream(_ snapshot: @escaping @Sendable () -> Cassette.Entry?) -> Int {
        state.withLock { state in
            let number = state.nextStream
            state.nextStream += 1
            state.openStreams[number] = snapshot
            return number
        }
    }


    // MARK: Replaying

    /// The first unreplayed entry that matches; once all matching ones have been replayed, the
    /// last of them again (a script that polls gets the last answer) — except for an event
    /// stream's reconnection (`Last-Event-ID`), which continues the stream recorded before it:
    /// an earlier answer again would repeat its events, and a stream cut each time would be taken
    /// up again for ever.
    private func replay(method: String, url: String, body: Data?, headers: [HTTPHeader])
        -> (Cassette.Entry?, CassetteMatching.Parts)
    {
        state.withLock { state in
            // The request as it would be written: its secrets masked, so that it compares with
            // what the file holds.
            // (Its credentials are secrets of this session: kept, so each is learned once, and
            // masked in what a later save writes.)
            let probe = Cassette.Entry(started: Date(), duration: .zero, method: method, url: url, requestHeaders: headers,
                                       requestBody: body, outcome: .response(status: 0, reason: "", headers: [], body: Data()))
            state.redactor.learn(from: probe)
            let masked = state.redactor.redact(probe)
            let live = CassetteMatching.Parts(method: masked.method, url: masked.url, body: masked.requestBody)
            var lastMatch: Int?
            let key = live.key(matching)
            let candidates = state.index[key] ?? []
            // Past the leading run of replayed entries (a loop that asks the same thing again and
            // again must not walk every earlier answer each time).
            var start = state.firstUnreplayed[key] ?? 0
            while start < candidates.count, state.replayed[candidates[start]] { start += 1 }
            state.firstUnreplayed[key] = start
            for index in candidates[start...] where matching.differences(live, from: state.parts[index]).isEmpty {
                if !state.replayed[index] {
                    state.replayed[index] = true
                    return (state.recorded[index], live)
                }
                lastMatch = index
            }
            // All replayed: the last that matches again, among those skipped too.
            if lastMatch == nil {
                lastMatch = candidates[..<start].last { matching.differences(live, from: state.parts[$0]).isEmpty }
            }
            if let lastMatch, Self.resumedEventID(headers) == nil { return (state.recorded[lastMatch], live) }
            state.misses += 1
            return (nil, live)
        }
    }

    /// The event ID a request resumes an event stream after (its `Last-Event-ID`), if it does.
    private static func resumedEventID(_ headers: [HTTPHeader]) -> String? {
        headers.value(named: "Last-Event-ID")
    }

    /// What a miss says: the request, the nearest recorded one, and how they differ.
    private func missDescription(_ live: CassetteMatching.Parts, resuming eventID: String?) -> String {
        let (recorded, parts, advice) = state.withLock { ($0.recorded, $0.parts, $0.missAdvice) }
        var text = "no recorded exchange in \(self.path) matches \(live.method) \(live.path) (mode \(mode.rawValue): nothing is sent)"
        if let eventID, parts.contains(where: { matching.differences(live, from: $0).isEmpty }) {
            return text + "; it takes up the event stream again after event '\(TerminalText.sanitized(eventID))', and the recording "
                + "ends before that reconnection. Record it again with --record-mode all"
        }
        let scored = zip(recorded, parts).map { entry, recordedParts in (entry, matching.differences(live, from: recordedParts)) }
        // Fewest differences first; among those the same method, then the path of the nearest
        // shape (`/posts/3` for `/posts/4`, not `/debug/headers`).
        func rank(_ candidate: (Cassette.Entry, [String])) -> (Int, Int, Int) {
            (candidate.1.count, candidate.0.method == live.method ? 0 : 1, Self.pathDistance(live.path, candidate.0.path))
        }
        if let nearest = scored.min(by: { rank($0) < rank($1) }) {
            text += "; nearest: \(nearest.0.method) \(nearest.0.path), which differs in \(nearest.1.joined(separator: "; "))"
        } else {
            text += "; the cassette is empty"
        }
        return text + ". " + advice
    }

    /// How far apart two paths' shapes are: a segment more or less counts most, a differing
    /// segment less, two differing numbers (ids) least.
    static func pathDistance(_ first: String, _ second: String) -> Int {
        let one = first.split(separator: "/")
        let other = second.split(separator: "/")
        var distance = abs(one.count - other.count) * 4
        for (a, b) in zip(one, other) where a != b {
            distance += a.allSatisfy(\.isNumber) && b.allSatisfy(\.isNumber) ? 1 : 3
        }
        return distance
    }

    // MARK: HTTP pieces

    /// What a cassette writes of a request: its method, URL and headers.
    private static func parts(of request: HTTPRequest) -> (method: String, url: String, headers: [HTTPHeader]) {
        (request.method.rawValue, Exchange.url(of: request), HTTPHeader.list(request.headerFields))
    }
}
