import TypistText

/// Reads an event stream (`text/event-stream`) as bytes arrive, by the WHATWG HTML standard's
/// interpretation of the format: lines end with CRLF, LF or CR (also when a CRLF is split between
/// two chunks); a blank line dispatches the event; `:` starts a comment; `event`, `data`, `id`
/// (without NUL) and `retry` (digits only) are the fields, others ignored; a leading byte-order
/// mark is dropped; an event the stream ends in the middle of is discarded.
///
/// Two departures from a browser, both so that what is shown is what the server sent: bytes that
/// are not UTF-8 are an error (a browser would show U+FFFD), and an event larger than
/// ``maximumEventBytes`` is an error instead of unbounded memory.
public struct ServerSentEventParser: Sendable {
    /// What the stream sent that cannot be read.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, and where (the byte offset in the stream).
        public var message: String
        public var description: String { message }
    }

    /// The most bytes one event's lines may hold together.
    public let maximumEventBytes: Int
    /// The last event ID seen (`id:`), kept across events; `""` when none.
    public private(set) var lastEventID = ""
    /// The reconnection time the stream asked for (`retry:`), if any.
    public private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    /// The event's one data line so far, where it is still in the chunk being read: taken from
    /// there when the event ends in the same chunk (most do), else copied into `data` before the
    /// chunk goes. Set only during ``feed(_:dispatch:)``.
    nonisolated(unsafe) private var direct: UnsafeBufferPointer<UInt8>?
    /// The last `event:` field's value, kept from one event to the next (most streams send the
    /// same one each time); `hasType` says whether the event being read has one.
    private var eventType: [UInt8] = []
    private var hasType = false
    /// Whether `eventType` is UTF-8 (checked when it changes).
    private var isTypeText = true
    private var hasData = false
    private var eventBytes = 0
    private var afterCR = false
    private var atStart = true
    private var offset = 0

    /// Creates a parser.
    ///
    /// - Parameter maximumEventBytes: The most bytes one event may hold (16 MiB by default).
    public init(maximumEventBytes: Int = 16 << 20) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Reads the next bytes of the stream and returns the events they complete, in order.
    ///
    /// - Throws: ``Failure`` for bytes that are not UTF-8 or an event past ``maximumEventBytes``;
    ///   the stream cannot be read further.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try feed(bytes, into: &events)
        return events
    }

    /// ``feed(_:)`` appending to `events` as each completes: when it throws, `events` has those
    /// that came before the failure.
    mutating func feed(_ bytes: some Sequence<UInt8>, into events: inout [ServerSentEvent]) throws(Failure) {
        func collect(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) {
            try feed(buffer) { event in
                events.append(ServerSentEvent(event: event.type.map { String(decoding: $0, as: UTF8.self) } ?? "message",
                                              data: String(decoding: event.data, as: UTF8.self), id: event.id, retry: event.retry))
            }
        }
        try withContiguousBuffer(bytes, collect)
    }

    /// One event as it is dispatched, its bytes (UTF-8, checked) valid during the call only.
    struct Dispatch {
        /// The `event:` field, if one was given.
        var type: UnsafeBufferPointer<UInt8>?
        /// The data lines, joined by line feeds.
        var data: UnsafeBufferPointer<UInt8>
        var id: String?
        var retry: Duration?
    }

    /// The bytes read a line at a time: each run up to a line end is taken whole, straight from
    /// the chunk when the line starts in it, else added to what the last chunk left.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, dispatch: (Dispatch) -> Void) throws(Failure) {
        defer { keepDirect() }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if atStart {
                atStart = false
                // A byte-order mark, EF BB BF, is dropped once, at the very start (even across chunks).
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if line.count < 3, byte == bom[line.count] {
                    line.append(byte)
                    offset += 1
                    index += 1
                    if line.count == 3 { line.removeAll() } else { atStart = true }
                    continue
                }
            }
            if byte == 0x0A, afterCR {
                afterCR = false
                offset += 1
                index += 1
                continue
            }
            let end = ByteScan.lineEnd(in: bytes, from: index)
            let run = end - index
            if run > 0 {
                afterCR = false
                if eventBytes + run > maximumEventBytes {
                    throw Failure(message: "an event larger than \(maximumEventBytes >> 20) MiB (at byte \(offset + maximumEventBytes - eventBytes + 1) of the stream)")
                }
                eventBytes += run
            }
            offset += run
            guard end < bytes.count else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                return
            }
            afterCR = bytes[end] == 0x0D
            offset += 1
            if line.isEmpty {
                try endLine(UnsafeBufferPointer(rebasing: bytes[index..<end]), inChunk: true, dispatch: dispatch)
            } else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                var whole: [UInt8] = []
                swap(&whole, &line)
                defer {
                    whole.removeAll(keepingCapacity: true)
                    swap(&whole, &line)
                }
                try whole.withUnsafeBufferPointer { (whole) throws(Failure) in try endLine(whole, inChunk: false, dispatch: dispatch) }
            }
            index = end + 1
        }
    }

    /// The stream has ended: an event without its blank line is discarded, as the standard says.
    public mutating func finish() {
        direct = nil
        line.removeAll()
        data.removeAll()
        eventType.removeAll()
        hasType = false
        isTypeText = true
        hasData = false
        eventBytes = 0
    }

    /// One line; `inChunk`: its bytes are the chunk's, valid until ``feed(_:dispatch:)`` returns.
    private mutating func endLine(_ line: UnsafeBufferPointer<UInt8>, inChunk: Bool, dispatch: (Dispatch) -> Void) throws(Failure) {
        if line.isEmpty { return try dispatchEvent(to: dispatch) }
        if line[0] == UInt8(ascii: ":") { return }
        let field: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = UnsafeBufferPointer(rebasing: line[..<colon])
            value = UnsafeBufferPointer(rebasing: line[(colon + 1)...])
            if value.first == UInt8(ascii: " ") { value = UnsafeBufferPointer(rebasing: value.dropFirst()) }
        } else {
            field = line
            value = UnsafeBufferPointer(rebasing: line[line.count...])
        }
        if Self.is(field, "data") {
            if !hasData, inChunk {
                direct = value
            } else {
                keepDirect()
                data.append(contentsOf: value)
                data.append(0x0A)
            }
            hasData = true
        } else if Self.is(field, "event") {
            if !eventType.withUnsafeBufferPointer({ Self.equal($0, value) }) {
                eventType.removeAll(keepingCapacity: true)
                eventType.append(contentsOf: value)
                isTypeText = UTF8Check.isValid(value)
            }
            hasType = true
        } else if Self.is(field, "id") {
            if !value.contains(0) { lastEventID = try Self.text(value, at: offset) }
        } else if Self.is(field, "retry") {
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        }
    }

    /// Whether `field` is the name `name`.
    private static func `is`(_ field: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        equal(field, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether two runs of bytes are the same, compared in place (a `memcmp` call costs more than
    /// these few bytes).
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == other.count else { return false }
        for index in 0..<bytes.count where bytes[index] != other[index] { return false }
        return true
    }

    /// The event's one data line, copied out of the chunk (with its line feed, as each line).
    private mutating func keepDirect() {
        guard let line = direct else { return }
        direct = nil
        data.append(contentsOf: line)
        data.append(0x0A)
    }

    private mutating func dispatchEvent(to dispatch: (Dispatch) -> Void) throws(Failure) {
        let single = direct
        direct = nil
        defer {
            if !data.isEmpty { data.removeAll(keepingCapacity: true) }
            hasType = false
            hasData = false
            eventBytes = 0
        }
        guard hasData else { return }
        if data.last == 0x0A { data.removeLast() }
        let id = lastEventID.isEmpty ? nil : lastEventID
        let retry = reconnectionTime
        let hasType = hasType
        try eventType.withUnsafeBufferPointer { (type) throws(Failure) in
            if hasType, !isTypeText { throw Self.notText(at: offset) }
            func hand(_ data: UnsafeBufferPointer<UInt8>) throws(Failure) {
                try Self.check(data, at: offset)
                dispatch(Dispatch(type: hasType && !type.isEmpty ? type : nil, data: data, id: id, retry: retry))
            }
            if let single { return try hand(single) }
            try data.withUnsafeBufferPointer { (data) throws(Failure) in try hand(data) }
        }
    }

    /// Bytes that must be UTF-8 text (ASCII, the usual case, is checked byte by byte).
    private static func check(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure) {
        guard UTF8Check.isValid(bytes) else { throw notText(at: offset) }
    }

    private static func notText(at offset: Int) -> Failure {
        Failure(message: "an event that is not UTF-8 text (before byte \(offset) of the stream)")
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure) -> String {
        try check(bytes, at: offset)
        return String(decoding: bytes, as: UTF8.self)
    }
}
