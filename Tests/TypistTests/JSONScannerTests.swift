import APIScript
import Foundation
import Testing
@testable import TypedAPI

/// One JSON scanner under every reader: the script reader, the fast decoder's tape, the HAR reader
/// and the error locator take the same texts, refuse the same ones for the same reason, and stop
/// at the same depth.
@Suite("One JSON scanner")
struct JSONScannerTests {
    /// Texts no reader may take, and why the script reader and the HAR reader (which says it) refuse.
    static let refused: [(String, String)] = [
        ("01", "a number cannot start with 0 followed by more digits"),
        ("1. ", "a '.' in a number must be followed by a digit"),
        ("1e ", "an exponent needs digits"),
        ("- ", "a '-' must be followed by a digit"),
        ("-x", "a '-' must be followed by a digit"),
        ("+1", "unexpected character"),
        ("\"a\u{01}\"", "a control character in a string must be escaped"),
        ("\"\\x\"", "'\\x' is not a JSON escape"),
        ("\"\\ud800\"", "a \\u high surrogate must be followed by a low one"),
        ("\"abc", "unterminated string"),
        ("[1 2]", "expected ',' or ']'"),
        ("{\"a\" 1}", "expected ':'"),
        ("{\"a\": 1,}", "expected a key"),
        ("tru", "unexpected character"),
    ]

    static let taken = ["0", "-0", "1.5e-3", "1E+2", "\"\\u00e9\\ud83d\\ude00\"", "[]", "{}", "[{\"a\": [null, true, false]}]", " \n\t1 "]

    private static func har(around value: String) -> Data {
        Data(#"{"log": {"creator": {"name": "x", "version": "1"}, "entries": [], "other": \#(value)}}"#.utf8)
    }

    private static func tapeTakes(_ text: String) -> Bool {
        var tape = JSONTape()
        return Array(text.utf8).withUnsafeBufferPointer { tape.read($0) }
    }

    private static func harReason(_ value: String) -> String? {
        do {
            _ = try HARReader.read(har(around: value))
            return nil
        } catch {
            return error.message
        }
    }

    @Test("The same texts are refused by every reader, for the same reason")
    func sameRefusals() {
        for (text, reason) in Self.refused {
            #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.parse(Data(text.utf8)) }
            #expect((try? JSONReader.parse(Data(text.utf8))) == nil)
            do {
                _ = try JSONReader.parse(Data(text.utf8))
            } catch {
                #expect(error.reason == reason, "\(text)")
            }
            #expect(Self.harReason(text) == reason, "\(text)")
            #expect(!Self.tapeTakes(text), "\(text)")
            // The locator cannot follow a path past a value it cannot read.
            #expect(JSONLocator.locate([IndexKey(1)], in: Data("[\(text), 2]".utf8)) == nil, "\(text)")
        }
        for text in Self.taken {
            #expect((try? JSONReader.parse(Data(text.utf8))) != nil, "\(text)")
            #expect(Self.harReason(text) == nil, "\(text)")
            #expect(Self.tapeTakes(text), "\(text)")
            #expect(JSONLocator.locate([IndexKey(1)], in: Data("[\(text), 2]".utf8)) != nil, "\(text)")
        }
    }

    @Test("One depth limit: 512 nested arrays are read by every reader, 513 by none")
    func oneDepth() {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        // The HAR value sits two objects deep already.
        #expect((try? JSONReader.parse(Data(nested(512).utf8))) != nil)
        #expect((try? JSONReader.parse(Data(nested(513).utf8))) == nil)
        #expect(Self.tapeTakes(nested(512)))
        #expect(!Self.tapeTakes(nested(513)))
        #expect(Self.harReason(nested(510)) == nil)
        #expect(Self.harReason(nested(511))?.contains("nest deeper than 512 levels") == true)
        #expect(JSONLocator.locate([IndexKey(1)], in: Data("[\(nested(511)), 2]".utf8)) != nil)
        #expect(JSONLocator.locate([IndexKey(1)], in: Data("[\(nested(512)), 2]".utf8)) == nil)
        // A JSON Lines stream refuses the line before any reader recurses into it (brackets in a
        // string, escaped quote and all, do not count).
        var framer = JSONLinesFramer()
        #expect((try? framer.feed(Data((#"["[[\"["#).utf8) + Data(nested(511).utf8) + Data("]\n".utf8)))?.count == 1)
        #expect(throws: JSONLinesFramer.Failure.self) { try framer.feed(Data((nested(513) + "\n").utf8)) }
    }

    private struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String
        init(_ index: Int) {
            intValue = index
            stringValue = "Index \(index)"
        }
        init?(intValue: Int) { self.init(intValue) }
        init?(stringValue: String) { nil }
    }
}
