/// A named piece of source text: a file such as `smoke.api`, or `<stdin>`, or one prompt input.
public final class ScriptSource: Sendable {
    /// The name diagnostics show, such as `smoke.api`.
    public let name: String
    /// The text.
    public let text: String
    /// The text's UTF-8 bytes, which the lexer reads.
    let bytes: [UInt8]
    /// The byte offset at which each line starts.
    private let lineStarts: [Int]

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - name: The name diagnostics show.
    ///   - text: The text.
    /// Line ends written CRLF (a file saved on Windows) read as LF, so that no `\r` reaches a
    /// multi-line string or a diagnostic.
    public init(name: String, text: String) {
        self.name = name
        var bytes = Array(text.utf8)
        if bytes.contains(UInt8(ascii: "\r")) {
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated()
            where !(byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")) {
                kept.append(byte)
            }
            bytes = kept
            self.text = String(decoding: kept, as: UTF8.self)
        } else {
            self.text = text
        }
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        self.lineStarts = starts
    }

    /// The 1-based line and column (in `Character`s) of a byte offset.
    public func position(at offset: Int) -> TextPosition {
        let offset = max(0, min(offset, bytes.count))
        let line = lineNumber(at: offset)
        let lineStart = lineStarts[line - 1]
        // ASCII (the common case) has one character per byte; otherwise count characters, which
        // takes grapheme breaking.
        let prefix = bytes[lineStart..<offset]
        if prefix.allSatisfy({ $0 < 0x80 }) {
            return TextPosition(offset: offset, line: line, column: prefix.count + 1)
        }
        return TextPosition(offset: offset, line: line, column: String(decoding: prefix, as: UTF8.self).count + 1)
    }

    /// The 1-based line of a byte offset (without counting the column's characters).
    func lineNumber(at offset: Int) -> Int {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The text of a 1-based line, without its line break.
    public func line(_ number: Int) -> String {
        let range = lineRange(number)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// The byte offsets of a 1-based line, without its line break (empty past the end).
    func lineRange(_ number: Int) -> Range<Int> {
        guard number >= 1, number <= lineStarts.count else { return 0..<0 }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of a byte range, widened or narrowed to whole UTF-8 scalars.
    func text(bytes range: Range<Int>) -> String {
        var lower = max(0, range.lowerBound)
        var upper = min(bytes.count, range.upperBound)
        while lower < upper, bytes[lower] & 0xC0 == 0x80 { lower += 1 }
        while upper < bytes.count, upper > lower, bytes[upper] & 0xC0 == 0x80 { upper -= 1 }
        return String(decoding: bytes[lower..<max(lower, upper)], as: UTF8.self)
    }

    /// The text of a span.
    public func text(of span: TextSpan) -> String {
        let lower = max(0, min(span.start, bytes.count))
        let upper = max(lower, min(span.end, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// How many lines the source has.
    public var lineCount: Int { lineStarts.count }
}

/// A place in a source: byte offset, and the 1-based line and column (in `Character`s).
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 byte offset.
    public var offset: Int
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in `Character`s.
    public var column: Int

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A range of a source, as UTF-8 byte offsets (end exclusive).
public struct TextSpan: Sendable, Hashable {
    /// The first byte.
    public var start: Int
    /// One past the last byte.
    public var end: Int

    /// Creates a span.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// The smallest span covering both.
    public func joined(_ other: TextSpan) -> TextSpan {
        TextSpan(start: min(start, other.start), end: max(end, other.end))
    }

    /// An empty span at an offset.
    public static func at(_ offset: Int) -> TextSpan { TextSpan(start: offset, end: offset) }
}
