/// Deterministic pseudo-random text, so the demo data is the same on every start.
struct TextGenerator {
    private static let words = [
        "swift", "typed", "request", "response", "model", "decode", "endpoint", "client", "server", "value",
        "phantom", "generic", "protocol", "closure", "async", "await", "error", "status", "header", "query",
        "token", "session", "result", "envelope", "network", "layer", "compile", "safety", "route", "method",
        "payload", "body", "string", "integer", "array", "record", "field", "shape", "prompt", "script",
        "explore", "learn", "teach", "build", "ship", "test", "measure", "cache", "retry", "cancel",
    ]

    private var state: UInt64

    init(seed: Int) {
        state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 0x6A09_E667_F3BC_C909
        _ = next()
    }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var x = state
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        return x
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % span)
    }

    mutating func word() -> String { Self.words[int(0...(Self.words.count - 1))] }

    /// A sentence of `count` words, capitalised, without a full stop.
    mutating func words(_ count: Int) -> String {
        var text = ""
        for index in 0..<count {
            let word = word()
            if index == 0 {
                text += word.prefix(1).uppercased() + word.dropFirst()
            } else {
                text += " " + word
            }
        }
        return text
    }

    /// Text of about `length` characters, in sentences.
    mutating func paragraph(length: Int) -> String {
        var text = ""
        while text.count < length {
            if !text.isEmpty { text += " " }
            text += words(int(5...9)) + "."
        }
        return text
    }
}
