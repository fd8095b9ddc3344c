#if os(Linux)
import Glibc
#endif

/// SHA-256 (FIPS 180-4) of a text's bytes, in lowercase hexadecimal: the document cache's key.
///
/// The key decides which lowered document a text reads back, so it must not be one an adversary
/// can collide (two documents with one key made the second use the first's operations); a
/// cryptographic hash is what keeps them apart. Written here rather than taken from swift-crypto,
/// which would cost every build of the core its compile time for one function.
///
/// On Linux, where the process has OpenSSL's libcrypto loaded (it does wherever libcurl is, as in
/// `typist`), its `SHA256` is used: with the CPU's SHA instructions it hashes GitHub's 2.5 MB
/// document in about a millisecond, where this Swift takes about fifteen (a tenth of a cached
/// start's budget). Both give the same digest (a test holds it).
package enum SHA256Digest {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `text`'s UTF-8 bytes, 64 hexadecimal digits.
    package static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            if let fast = openSSLDigest(bytes) { return fast }
            return hex(digest(UnsafeRawBufferPointer(bytes)))
        }
    }

    /// ``hex(_:)`` by this file's own Swift, whatever the process has loaded.
    package static func portableHex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(digest(UnsafeRawBufferPointer($0))) }
    }

    /// Whether ``hex(_:)`` uses libcrypto in this process.
    package static var usesOpenSSL: Bool { openSSLDigest(UnsafeBufferPointer(start: nil, count: 0)) != nil }

    private typealias OpenSSLFunction = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?

    /// libcrypto's `unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md)`,
    /// found among what the process has loaded (never loaded by us); nil where it is not there.
    private static func openSSLDigest(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        #if os(Linux)
        guard let symbol = dlsym(nil, "SHA256") else { return nil }
        let function = unsafeBitCast(symbol, to: OpenSSLFunction.self)
        var digest = [UInt8](repeating: 0, count: 32)
        // A zero-length buffer may have no address; libcrypto reads nothing then, but wants one.
        var empty: UInt8 = 0
        let produced = digest.withUnsafeMutableBufferPointer { output in
            withUnsafePointer(to: &empty) { fallback in
                function(bytes.baseAddress ?? fallback, bytes.count, output.baseAddress) != nil
            }
        }
        guard produced else { return nil }
        return digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        #else
        return nil
        #endif
    }

    private static func hex(_ state: [UInt32]) -> String {
        state.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt32] {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        // The rest after whole blocks, a 1 bit, zeros, and the length in bits, big-endian.
        let whole = bytes.count / 64 * 64
        var tail = [UInt8](bytes[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        roundConstants.withUnsafeBufferPointer { constants in
            state.withUnsafeMutableBufferPointer { state in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                    var offset = 0
                    while offset < whole {
                        compress(bytes, at: offset, state: state, schedule: schedule, constants: constants)
                        offset += 64
                    }
                    tail.withUnsafeBytes { last in
                        var position = 0
                        while position < last.count {
                            compress(last, at: position, state: state, schedule: schedule, constants: constants)
                            position += 64
                        }
                    }
                }
            }
        }
        return state
    }

    /// One 64-byte block into `state` (FIPS 180-4, 6.2.2).
    @inline(__always)
    private static func compress(_ bytes: UnsafeRawBufferPointer, at offset: Int, state: UnsafeMutableBufferPointer<UInt32>,
                                 schedule w: UnsafeMutableBufferPointer<UInt32>, constants: UnsafeBufferPointer<UInt32>) {
        for index in 0..<16 {
            w[index] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset &+ 4 &* index, as: UInt32.self))
        }
        for index in 16..<64 {
            let s0 = rotate(w[index &- 15], 7) ^ rotate(w[index &- 15], 18) ^ (w[index &- 15] &>> 3)
            let s1 = rotate(w[index &- 2], 17) ^ rotate(w[index &- 2], 19) ^ (w[index &- 2] &>> 10)
            w[index] = w[index &- 16] &+ s0 &+ w[index &- 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ constants[index] &+ w[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value &>> count) | (value &<< (32 &- count)) }
}
