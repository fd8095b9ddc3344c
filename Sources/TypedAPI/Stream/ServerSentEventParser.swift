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
    private var eventType: [UInt8] = []
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
        for byte in bytes {
            offset += 1
            if atStart {
                // A byte-order mark, EF BB BF, is dropped once, at the very start.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if line.count < 3, byte == bom[line.count] {
                    line.append(byte)
                    if line.count == 3 { line.removeAll(); atStart = false }
                    continue
                }
                atStart = false
            }
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = try endLine() { events.append(event) }
            default:
                afterCR = false
                line.append(byte)
                eventBytes += 1
                if eventBytes > maximumEventBytes {
                    throw Failure(message: "an event larger than \(maximumEventBytes >> 20) MiB (at byte \(offset) of the stream)")
                }
            }
        }
    }

    /// The stream has ended: an event without its blank line is discarded, as the standard says.
    public mutating func finish() {
        line.removeAll()
        data.removeAll()
        eventType.removeAll()
        hasData = false
        eventBytes = 0
    }

    private mutating func endLine() throws(Failure) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return try dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = Array(value)
        case "data":
            data += value
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = try Self.text(value, at: offset) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() throws(Failure) -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            eventType.removeAll()
            hasData = false
            eventBytes = 0
        }
        guard hasData else { return nil }
        if data.last == 0x0A { data.removeLast() }
        let type = eventType.isEmpty ? "message" : try Self.text(eventType[...], at: offset)
        return ServerSentEvent(event: type, data: try Self.text(data[...], at: offset),
                               id: lastEventID.isEmpty ? nil : lastEventID, retry: reconnectionTime)
    }

    private static func text(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(Failure) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(message: "an event that is not UTF-8 text (before byte \(offset) of the stream)")
        }
        return text
    }
}
