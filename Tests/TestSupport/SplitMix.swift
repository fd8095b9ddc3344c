/// A small seeded generator (SplitMix64), so that every run of a test that draws at random draws
/// the same values.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose draws follow from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), the next draw taken modulo `bound`: the same numbers
    /// on every platform and Swift version, as `Int.random(in:using:)` does not promise.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
