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
    private var line = Data()
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
        for byte in bytes {
            if byte == 0x0A {
                if let complete = takeLine() { lines.append(complete) }
            } else {
                line.append(byte)
                if line.count > maximumLineBytes {
                    throw Failure(message: "a line longer than \(maximumLineBytes >> 20) MiB (line \(lineNumber + 1))")
                }
            }
        }
    }

    /// The stream has ended: its last line, if it did not end with a line feed.
    public mutating func finish() -> Data? {
        takeLine()
    }

    private mutating func takeLine() -> Data? {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        var text = line
        if text.last == 0x0D { text.removeLast() }
        guard text.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        return Data(text)
    }
}
