/// The one reading of a JSON string's escapes (`\n`, `\"`, `\u00e9`, a `\ud83d\ude00` surrogate
/// pair), for every JSON reader of ours: the script runtime's and the cassettes'.
package enum JSONEscape {
    /// Why a string is not JSON; the reader's index is left at the place.
    package struct Refusal: Error {
        package var message: String
    }

    /// The rest of a string that has an escape: `start` is just after its opening quote, `index`
    /// at or before its first `\`. Runs of plain bytes are copied at once. Moves `index` past the
    /// closing quote.
    package static func escapedString(_ bytes: UnsafeRawBufferPointer, from start: Int, at index: inout Int) throws(Refusal) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(index - start + 64)
        utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let run = index
            index = ByteScan.stringRunEnd(in: bytes.assumingMemoryBound(to: UInt8.self), from: index)
            if index > run { utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index])) }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard utf8.withUnsafeBufferPointer(UTF8Check.isValid) else { throw Refusal(message: "a string is not valid UTF-8") }
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if let refusal = decode(bytes, at: &index, into: &utf8) { throw Refusal(message: refusal) }
            default:
                throw Refusal(message: "a control character in a string must be escaped")
            }
        }
        throw Refusal(message: "unterminated string")
    }

    /// Decodes the escape after a `\` at `index` of `bytes`, appending its UTF-8 to `utf8` and
    /// moving `index` past it.
    ///
    /// - Returns: Why it is not a JSON escape, or nil when it is one.
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer, at index: inout Int, into utf8: inout [UInt8]) -> String? {
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
            utf8.append(contentsOf: String(Character(unicode)).utf8)
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
