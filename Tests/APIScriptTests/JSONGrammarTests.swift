@testable import APIScript
import Foundation
import Testing

/// `json(_:)` reads JSON's grammar exactly (RFC 8259), as JSONDecoder and the typed reader do.
@Suite("JSON's grammar in json(_:)")
struct JSONGrammarTests {
    static func accepts(_ text: String) -> Bool { (try? JSONValueParser.parse(Array(text.utf8))) != nil }

    @Test("What RFC 8259 refuses is refused, with the reason; what it allows is read")
    func cases() throws {
        for refused in ["01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "0x10", "[1,]", "{\"a\":1,}", "\"a\\x\"", "\"\\ud800\"",
                        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\u{01}b\"", "NaN", "Infinity", "1e999", "'a'", "[01]"] {
            #expect(!Self.accepts(refused), "\(refused)")
        }
        #expect(throws: ScriptFailure.self) { try JSONValueParser.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
        for allowed in ["0", "-0", "1.5e3", "1E-2", "-12.5", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\/\"", "[]", "{}", " [1 , 2] "] {
            #expect(Self.accepts(allowed), "\(allowed)")
        }
        #expect(try JSONValueParser.parse(Array("\"\\ud83d\\ude00\"".utf8)) == .string("😀"))
        #expect(try JSONValueParser.parse(Array("1.5e3".utf8)) == .double(1500))
    }

    @Test("On generated texts it accepts exactly what JSONSerialization accepts (trailing commas aside, which RFC 8259 refuses)")
    func differential() throws {
        let pieces = ["0", "1", "9", "-", "+", ".", "e", "E", "\"", "\\", "u", "d8", "00", "a", "[", "]", "{", "}", ":", ",", " ",
                      "true", "null", "fals", "\\n", "\\u00e9", "\t", "\u{01}", "é"]
        var seed: UInt64 = 0x4A53_4F4E
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        var compared = 0
        var bothAccepted = 0
        for _ in 0..<20_000 {
            let text = (0..<(1 + next() % 8)).map { _ in pieces[next() % pieces.count] }.joined()
            let data = Data(text.utf8)
            let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            let ours = Self.accepts(text)
            // Foundation's reader here also takes a trailing comma, which the grammar does not have.
            if foundation && !ours, text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil { continue }
            #expect(ours == foundation, "\(text.debugDescription): ours \(ours), Foundation \(foundation)")
            compared += 1
            if ours && foundation { bothAccepted += 1 }
        }
        #expect(compared > 19_000)
        #expect(bothAccepted > 500, "the texts include valid JSON too: \(bothAccepted)")
    }
}
