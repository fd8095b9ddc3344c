/// The first byte of a kind in a buffer, eight bytes at a time: the line ends of the stream
/// framings, the end of a run of plain characters in a JSON string.
///
/// Each word is tested with the usual bit trick (a byte is flagged where subtracting one from it,
/// or `n` for "less than `n`", borrows through its high bit); a borrow can only flag a byte
/// above one that is truly found, so the lowest flag is exact.
package enum ByteScan {
    @usableFromInline static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @usableFromInline static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The index of the first LF or CR at or after `start`, else `bytes.count`.
    @inlinable
    package static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        first(in: bytes, from: start, word: { word in
            zero(word ^ (0x0A * ones)) | zero(word ^ (0x0D * ones))
        }, byte: { $0 == 0x0A || $0 == 0x0D })
    }

    /// The index of the first `"`, `\`, control character (below 0x20) or, when `ascii`, byte not
    /// ASCII, at or after `start`, else `bytes.count`: where a JSON string's plain run ends.
    @inlinable
    package static func stringRunEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, ascii: Bool = false) -> Int {
        let notASCII: UInt64 = ascii ? highs : 0
        return first(in: bytes, from: start, word: { word in
            zero(word ^ (0x22 * ones)) | zero(word ^ (0x5C * ones)) | less(word, than: 0x20) | (word & notASCII)
        }, byte: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || (ascii && $0 >= 0x80) })
    }

    @inlinable @inline(__always)
    static func first(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, word test: (UInt64) -> UInt64,
                              byte matches: (UInt8) -> Bool) -> Int {
        var index = start
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= bytes.count {
                let flags = test(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count, !matches(bytes[index]) { index += 1 }
        return index
    }

    /// The high bit of each zero byte (and perhaps of bytes above one).
    @inlinable @inline(__always)
    static func zero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// The high bit of each byte below `limit` (at most 128; and perhaps of bytes above one).
    @inlinable @inline(__always)
    static func less(_ word: UInt64, than limit: UInt8) -> UInt64 { (word &- UInt64(limit) &* ones) & ~word & highs }
}
