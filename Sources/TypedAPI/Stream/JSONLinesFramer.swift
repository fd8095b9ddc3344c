import Foundation
import TypistText

/// Splits a stream of JSON Lines (NDJSON, `application/x-ndjson`, `application/jsonl`) into one
/// JSON text per line as bytes arrive: lines end with LF (a CR before it is dropped), blank lines
/// are skipped, and a last line without its LF is a line too when the stream ends.
///
/// What JSON Lines does not allow is an error naming the line, never an item read some other way:
/// bytes that are not UTF-8, a byte order mark, a JSON text sequence's record separator
/// (`application/json-seq`, RFC 7464), and nesting deeper than ``maximumDepth``.
public struct JSONLinesFramer: Sendable {
    /// A line longer than the limit.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, and where.
        public var message: String
        public var description: String { message }
    }

    /// The most bytes one line may hold.
    public let maximumLineBytes: Int
    /// The deepest nesting of arrays and objects a line may have: every JSON reader's limit.
    public static let maximumDepth = JSONScanner.maximumDepth
    private var line: [UInt8] = []
    private var lineNumber = 0

    /// Creates a framer.
    ///
    /// - Parameter maximumLineBytes: The most bytes one line may hold (16 MiB by default).
    public init(maximumLineBytes: Int = 16 << 20) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Reads the next bytes and returns the lines they complete, in order, without line ends.
    ///
    /// - Throws: ``Failure`` for a line past ``maximumLineBytes``.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [Data] {
        var lines: [Data] = []
        try feed(bytes, into: &lines)
        return lines
    }

    /// ``feed(_:)`` appending to `lines` as each completes: when it throws, `lines` has those that
    /// came before the failure.
    mutating func feed(_ bytes: some Sequence<UInt8>, into lines: inout [Data]) throws(Failure) {
        func collect(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) {
            try feed(buffer) { lines.append(Data($0)) }
        }
        try withContiguousBuffer(bytes, collect)
    }

    /// The bytes a line at a time, each complete line handed to `take` (its bytes valid during the
    /// call only): straight from the chunk when it starts there, else joined to what the last left.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, each take: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        var index = 0
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            guard line.count + (end - index) <= maximumLineBytes else {
                throw Failure(message: "a line longer than \(maximumLineBytes >> 20) MiB (line \(lineNumber + 1))")
            }
            if end < bytes.count, line.isEmpty {
                lineNumber += 1
                try Self.hand(UnsafeBufferPointer(rebasing: bytes[index..<end]), number: lineNumber, to: take)
            } else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                guard end < bytes.count else { return }
                try finishLine(take)
            }
            index = end + 1
        }
    }

    /// The stream has ended: its last line, if it did not end with a line feed.
    ///
    /// - Throws: ``Failure`` for a last line JSON Lines does not allow.
    public mutating func end() throws(Failure) -> Data? {
        var last: Data?
        try finishLine { last = Data($0) }
        return last
    }

    /// The stream has ended: its last line, if it did not end with a line feed; nil also for a
    /// last line JSON Lines does not allow (``end()`` says why).
    public mutating func finish() -> Data? {
        try? end()
    }

    /// The line gathered so far, handed over (unless blank) and cleared.
    private mutating func finishLine(_ take: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        let number = lineNumber
        try line.withUnsafeBufferPointer { (buffer) throws(Failure) in try Self.hand(buffer, number: number, to: take) }
    }

    /// A line without the CR before its LF, unless it is blank; one JSON Lines does not allow is
    /// an error naming it.
    private static func hand(_ line: UnsafeBufferPointer<UInt8>, number: Int,
                             to take: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        let text = line.last == 0x0D ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
        guard text.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw Failure(message: "a byte order mark (U+FEFF), which JSON Lines does not allow (line \(number))")
        }
        if text.first == 0x1E {
            throw Failure(message: "a record separator (0x1E): a JSON text sequence (application/json-seq), not JSON Lines (line \(number))")
        }
        if String(validating: text, as: UTF8.self) == nil {
            throw Failure(message: "bytes that are not UTF-8 text (line \(number))")
        }
        if JSONScanner.deepestNesting(in: text) > maximumDepth {
            throw Failure(message: "a value nested deeper than \(maximumDepth) levels (line \(number))")
        }
        take(text)
    }
}
