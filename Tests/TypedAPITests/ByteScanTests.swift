import TestSupport
import Testing
@testable import TypistText

/// The word-at-a-time scans against a byte-at-a-time reading of the same buffers: every start in
/// buffers built to put the byte sought (and bytes that look like it) at every place in a word.
@Suite("Byte scans")
struct ByteScanTests {
    private static func naiveLineEnd(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
    }

    private static func naiveStringRunEnd(_ bytes: [UInt8], from start: Int, ascii: Bool) -> Int {
        bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || (ascii && $0 >= 0x80) } ?? bytes.count
    }

    /// Buffers of up to 40 bytes of plain text with one to three bytes from `specials` (and from
    /// their neighbours, which must not be found) at seeded places.
    private static func buffers(_ specials: [UInt8]) -> [[UInt8]] {
        var generator = SplitMix(seed: 0x5CA9)
        let near: [UInt8] = [0x09, 0x0B, 0x0C, 0x0E, 0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xC3, 0xFF, 0x01]
        var result: [[UInt8]] = []
        for length in 0...40 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
                for _ in 0..<Int.random(in: 0...3, using: &generator) where length > 0 {
                    let pool = Bool.random(using: &generator) ? specials : near
                    bytes[Int.random(in: 0..<length, using: &generator)] = pool.randomElement(using: &generator) ?? 0
                }
                result.append(bytes)
            }
        }
        return result
    }

    @Test("lineEnd finds the first LF or CR, as a byte-at-a-time reading does")
    func lineEnd() {
        for bytes in Self.buffers([0x0A, 0x0D]) {
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...bytes.count {
                    #expect(ByteScan.lineEnd(in: buffer, from: start) == Self.naiveLineEnd(bytes, from: start), "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test("stringRunEnd finds the first quote, backslash, control character (and byte not ASCII when asked)")
    func stringRunEnd() {
        for bytes in Self.buffers([0x22, 0x5C, 0x00, 0x0A, 0x1F, 0x80, 0xFF]) {
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...bytes.count {
                    for ascii in [false, true] {
                        #expect(ByteScan.stringRunEnd(in: buffer, from: start, ascii: ascii) == Self.naiveStringRunEnd(bytes, from: start, ascii: ascii),
                                "\(bytes) from \(start), ascii \(ascii)")
                    }
                }
            }
        }
    }
}
