import Foundation

/// Splits a stream of JSON Lines (NDJSON, `application/x-ndjson`, `application/jsonl`) into one
/// JSON text per line as bytes arrive: lines end with LF (a CR before it is dropped), blank lines
/// are skipped, and a last line without its LF is a line too when the stream ends.
public struct JSONLinesFramer: Sendable {
    /// A line longer than the limit.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, and where.
        public var message: String
        public var description: String { message }
    }

    /// The most bytes one line may hold.
    public let maximumLineBytes: Int
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
                Self.hand(UnsafeBufferPointer(rebasing: bytes[index..<end]), to: take)
            } else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                guard end < bytes.count else { return }
                finishLine(take)
            }
            index = end + 1
        }
    }

    /// The stream has ended: its last line, if it did not end with a line feed.
    public mutating func finish() -> Data? {
        var last: Data?
        finishLine { last = Data($0) }
        return last
    }

    /// The line gathered so far, handed over (unless blank) and cleared.
    private mutating func finishLine(_ take: (UnsafeBufferPointer<UInt8>) -> Void) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        line.withUnsafeBufferPointer { Self.hand($0, to: take) }
    }

    /// A line without the CR before its LF, unless it is blank.
    private static func hand(_ line: UnsafeBufferPointer<UInt8>, to take: (UnsafeBufferPointer<UInt8>) -> Void) {
        let text = line.last == 0x0D ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
        guard text.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        take(text)
    }
}
