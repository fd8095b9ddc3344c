/// The one reading of a JSON string's escapes (`\n`, `\"`, `\u00e9`, a `\ud83d\ude00` surrogate
/// pair), for every JSON reader of ours: the script runtime's and the cassettes'.
package enum JSONEscape {
    /// Why a string is not JSON; the reader's index is left at the place.
    package struct Refusal: Error {
        package var message: String
    }

    /// The rest of a string that has an escape: `start` is just after its opening quote, `index`
    /// at or before its first `\`. Moves `index` past the closing quote.
    ///
    /// The string's end is found first (runs of plain bytes at once, each escape stepped over);
    /// the decoded bytes, never more than the escaped ones, are then written straight into the
    /// new string's storage. Refusals come in the order of the bytes, as a reading in one pass
    /// would find them.
    package static func escapedString(_ bytes: UnsafeRawBufferPointer, from start: Int, at index: inout Int) throws(Refusal) -> String {
        let plain = bytes.assumingMemoryBound(to: UInt8.self)
        var end = index
        while end < bytes.count {
            end = ByteScan.stringRunEnd(in: plain, from: end)
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\\") else { break }
            end += 2
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            // No closing quote: an escape before the place may be what is wrong; else the place is.
            var ignored: [UInt8] = []
            if let refusal = decodeEscapes(bytes, from: &index, to: min(end, bytes.count), into: &ignored) { throw Refusal(message: refusal) }
            guard end < bytes.count else {
                index = bytes.count
                throw Refusal(message: "unterminated string")
            }
            index = end   // At the character, as where a string without escapes has one.
            throw Refusal(message: "a control character in a string must be escaped")
        }
        var refusal: String?
        var position = index
        let string = String(unsafeUninitializedCapacity: end - start) { storage in
            var output = BufferSink(storage)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
            refusal = decodeEscapes(bytes, from: &position, to: end, into: &output)
            guard refusal == nil else { return 0 }
            guard !output.overflowed, UTF8Check.isValid(UnsafeBufferPointer(rebasing: storage[..<output.count])) else {
                refusal = "a string is not valid UTF-8"
                position = end + 1
                return 0
            }
            return output.count
        }
        if let refusal {
            index = position
            throw Refusal(message: refusal)
        }
        index = end + 1
        return string
    }

    /// The bytes from `index` to `end` (plain runs and escapes, no quote or control character)
    /// decoded into `output`; why not, at the escape, with `index` after it.
    private static func decodeEscapes(_ bytes: UnsafeRawBufferPointer, from index: inout Int, to end: Int,
                                      into output: inout some ByteSink) -> String? {
        let plain = bytes.assumingMemoryBound(to: UInt8.self)
        while index < end {
            let run = index
            index = min(ByteScan.stringRunEnd(in: plain, from: index), end)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
            guard index < end else { break }
            index += 1   // The backslash.
            if let refusal = decode(bytes, at: &index, into: &output) { return refusal }
        }
        return nil
    }

    /// Decodes the escape after a `\` at `index` of `bytes`, appending its UTF-8 to `utf8` and
    /// moving `index` past it.
    ///
    /// - Returns: Why it is not a JSON escape, or nil when it is one.
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer, at index: inout Int, into utf8: inout some ByteSink) -> String? {
        guard index < bytes.count else { return "unterminated escape" }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            guard var scalar = hexQuad(bytes, at: &index) else { return "invalid \\u escape" }
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    return "a \\u high surrogate must be followed by a low one"
                }
                index += 2
                guard let low = hexQuad(bytes, at: &index), (0xDC00..<0xE000).contains(low) else {
                    return "a \\u high surrogate must be followed by a low one"
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { return "a \\u low surrogate without a high one" }
            UTF8.encode(unicode) { utf8.append($0) }
        default:
            // The byte shown only when it prints.
            guard (0x21..<0x7F).contains(escape) else { return "'\\' followed by byte \(escape) is not a JSON escape" }
            return "'\\\(Character(Unicode.Scalar(escape)))' is not a JSON escape"
        }
        return nil
    }

    /// Four hexadecimal digits at `index`, moving past them; nil when they are not.
    private static func hexQuad(_ bytes: UnsafeRawBufferPointer, at index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

/// Where decoded bytes go: an array, or a string's storage being written.
package protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)
}

extension Array: ByteSink where Element == UInt8 {}

/// A string's storage being written: bytes past its capacity are not written, and say so.
private struct BufferSink: ByteSink {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private(set) var overflowed = false

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }

    mutating func append(_ byte: UInt8) {
        guard count < storage.count else {
            overflowed = true
            return
        }
        storage[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard count + bytes.count <= storage.count else {
            overflowed = true
            return
        }
        UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: storage[count...])).copyMemory(from: bytes)
        count += bytes.count
    }
}
