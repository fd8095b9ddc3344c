/// Where a run of UTF-8 bytes can be cut without splitting a character.
package enum UTF8Boundary {
    /// The index after the last byte that does not begin an unfinished multi-byte sequence at the
    /// end of `bytes`: all of them, unless the last one to three bytes are the start of a longer
    /// sequence. Invalid bytes are not held back (decoding shows them as replacement characters).
    package static func end(ofCompleteCharactersIn bytes: ArraySlice<UInt8>) -> Int {
        var index = bytes.endIndex
        var continuations = 0
        while index > bytes.startIndex, continuations < 4 {
            index -= 1
            let byte = bytes[index]
            if byte & 0b1100_0000 == 0b1000_0000 {
                continuations += 1
                continue
            }
            let length = byte >= 0b1111_0000 ? 4 : byte >= 0b1110_0000 ? 3 : byte >= 0b1100_0000 ? 2 : 1
            return length > 1 && continuations < length - 1 && byte < 0b1111_1000 ? index : bytes.endIndex
        }
        return bytes.endIndex
    }
}
