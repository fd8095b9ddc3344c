import APIScript
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// One JSON writer for output and bodies: valid JSON, no control character raw, secrets by purpose.
@Suite("JSON writer")
struct JSONWriterTests {
    static let tricky: Value = .record(Record(
        type: RecordType(name: "T", fields: [.init("text", .string), .init("key", .secret), .init("blob", .bytes),
                                             .init("nested", .dictionary(.any))]),
        values: [.string("esc \u{1b}[31m csi \u{9b}2J del \u{7f} nul \u{0} tab \t quote \" back \\ é 😀"),
                 .secret("p\"w"), .bytes([0xfb, 0xff, 0xfe]),
                 .dictionary(["b": .array([.int(1), .double(2.5), .null, .bool(true)]), "a": .dictionary([:])])]))

    @Test("Output is valid JSON that a parser reads back, with every control character escaped and secrets masked")
    func output() throws {
        for pretty in [true, false] {
            let text = JSONWriter.render(Self.tricky, pretty: pretty)
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                    "\(text.debugDescription)")
            #expect(text.contains(#"\u001b[31m"#) && text.contains(#"\u009b"#) && text.contains(#"\u007f"#)
                    && text.contains(#"\u0000"#))
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(parsed["text"] as? String == "esc \u{1b}[31m csi \u{9b}2J del \u{7f} nul \u{0} tab \t quote \" back \\ é 😀")
            #expect(parsed["key"] as? String == "••••")
            #expect(parsed["blob"] as? String == "+//+")
            #expect((parsed["nested"] as? [String: Any])?.keys.sorted() == ["a", "b"])
        }
        #expect(JSONWriter.render(Self.tricky, pretty: false).hasPrefix(#"{"text":"#), "field order kept")
        #expect(JSONWriter.render(.array([]), pretty: true) == "[]")
        #expect(JSONWriter.render(.array([.int(1)]), pretty: true) == "[\n  1\n]")
    }

    @Test("A body sends secrets as they are and refuses nesting past its limit")
    func body() throws {
        let data = try JSONWriter.data(Self.tricky)
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(parsed["key"] as? String == "p\"w")
        var deep: Value = .int(1)
        for _ in 0..<(JSONWriter.maximumDepth + 1) { deep = .array([deep]) }
        #expect(throws: JSONWriter.TooDeep.self) { try JSONWriter.data(deep) }
        // Output has no such limit within what a script may hold.
        #expect(JSONWriter.render(deep, pretty: false).hasPrefix("[[[["))
    }
}
