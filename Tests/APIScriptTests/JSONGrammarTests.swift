@testable import APIScript
import Foundation
import Testing

/// The one JSON reader (`json(_:)`, untyped calls, typed plans) takes JSON's grammar exactly (RFC 8259), as JSONDecoder does.
@Suite("JSON's grammar in json(_:)")
struct JSONGrammarTests {
    static func accepts(_ text: String) -> Bool { (try? JSONReader.parse(Data(text.utf8))) != nil }

    @Test("What RFC 8259 refuses is refused, with the reason; what it allows is read")
    func cases() throws {
        for refused in ["01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "0x10", "[1,]", "{\"a\":1,}", "\"a\\x\"", "\"\\ud800\"",
                        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\u{01}b\"", "NaN", "Infinity", "1e999", "'a'", "[01]",
                        "\"\\u+abc\"", "\"\\u-001\"", "\"\\u 123\""] {
            #expect(!Self.accepts(refused), "\(refused)")
        }
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse(Data([0x22, 0xC3, 0x28, 0x22])) }  // invalid UTF-8
        for allowed in ["0", "-0", "1.5e3", "1E-2", "-12.5", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\/\"", "[]", "{}", " [1 , 2] "] {
            #expect(Self.accepts(allowed), "\(allowed)")
        }
        #expect(try JSONReader.parse(Data("\"\\ud83d\\ude00\"".utf8)) == .string("😀"))
        #expect(try JSONReader.parse(Data("1.5e3".utf8)) == .double(1500))
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

    @Test("A refusal names the byte and the reason")
    func refusals() {
        let cases: [(String, String)] = [
            ("[1, 2,", "invalid JSON at byte 6: unexpected end"),
            (#"{"a" 1}"#, "invalid JSON at byte 5: expected ':'"),
            (#"{"a": 1 "b": 2}"#, "invalid JSON at byte 8: expected ',' or '}'"),
            ("{1: 2}", "invalid JSON at byte 1: expected a key"),
            ("[1 2]", "invalid JSON at byte 3: expected ',' or ']'"),
            ("01", "invalid JSON at byte 1: a number cannot start with 0 followed by more digits"),
            ("-x", "invalid JSON at byte 1: a '-' must be followed by a digit"),
            ("1.e5", "invalid JSON at byte 2: a '.' in a number must be followed by a digit"),
            ("1e999", "invalid JSON at byte 0: '1e999' is not a number a Double holds"),
            ("\"a\u{01}\"", "invalid JSON at byte 2: a control character in a string must be escaped"),
            (#""\q""#, "invalid JSON at byte 3: '\\q' is not a JSON escape"),
            ("\"\\\u{1B}\"", "invalid JSON at byte 3: '\\' followed by byte 27 is not a JSON escape"),
            (#""\udc00""#, "invalid JSON at byte 7: a \\u low surrogate without a high one"),
            // In a string with escapes: the same places, and the first wrong thing in the string.
            ("\"\\n\u{01}\"", "invalid JSON at byte 3: a control character in a string must be escaped"),
            ("\"\\q\u{01}\"", "invalid JSON at byte 3: '\\q' is not a JSON escape"),
            (#""\nab"#, "invalid JSON at byte 5: unexpected end"),
            (#""ab"#, "invalid JSON at byte 3: unterminated string"),
            (#""\n\"#, "invalid JSON at byte 4: unexpected end"),
            ("tru", "invalid JSON at byte 0: unexpected character"),
            ("[] x", "invalid JSON at byte 3: unexpected text after the JSON value"),
            (String(repeating: "[", count: 600), "invalid JSON at byte 512: arrays and objects nest deeper than 512 levels"),
        ]
        for (text, message) in cases {
            #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.parse(Data(text.utf8)) }
            do {
                _ = try JSONReader.parse(Data(text.utf8))
            } catch {
                #expect(error.description == message, "\(text.debugDescription)")
            }
        }
    }

    @Test("Untyped, a repeated key keeps its last value; a typed plan leaves a repeated key to the decoder")
    func repeatedKeys() throws {
        let body = Data(#"{"a": 1, "b": 2, "a": 3}"#.utf8)
        #expect(try JSONReader.parse(body) == .dictionary(["a": .int(3), "b": .int(2)]))
        #expect(JSONReader.value(from: body, plan: .dictionary(.int), snakeCase: false) == nil)
        #expect(JSONReader.value(from: Data(#"{"a": 1, "b": 2}"#.utf8), plan: .dictionary(.int), snakeCase: false)
                == .dictionary(["a": .int(1), "b": .int(2)]))
    }

    @Test("JSON Lines: two or more lines of one value each, blank lines and CRLF allowed; anything else is not")
    func lines() {
        #expect(JSONReader.parseLines(Data("{\"a\": 1}\r\n\n[2]\n3\n".utf8)) == [.dictionary(["a": .int(1)]), .array([.int(2)]), .int(3)])
        #expect(JSONReader.parseLines(Data("{\"a\": 1}\n".utf8)) == nil)
        #expect(JSONReader.parseLines(Data("1\n{\"a\": \n2}".utf8)) == nil)
        #expect(JSONReader.parseLines(Data("<html>\n</html>".utf8)) == nil)
        #expect(JSONReader.parseLines(Data("1 2".utf8)) == nil)
    }
}
