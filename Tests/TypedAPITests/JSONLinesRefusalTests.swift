import Foundation
import Testing
import TypedAPI

/// What JSON Lines does not allow is an error naming the line — never an item read some other
/// way (a string the user then thinks the service sent).
@Suite("JSON Lines refusals")
struct JSONLinesRefusalTests {
    private func failure(_ bytes: [UInt8]) -> String? {
        var framer = JSONLinesFramer()
        do {
            _ = try framer.feed(bytes)
            _ = try framer.end()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("Bytes that are not UTF-8, a BOM, json-seq's record separator and too-deep nesting name their line; good lines pass")
    func refusals() {
        #expect(failure(Array("{\"a\":1}\n".utf8) + [0x7B, 0x22, 0xFF, 0x22, 0x7D, 0x0A]) == "bytes that are not UTF-8 text (line 2)")
        #expect(failure([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\n".utf8)) == "a byte order mark (U+FEFF), which JSON Lines does not allow (line 1)")
        #expect(failure([0x1E] + Array("{\"a\":1}\n".utf8))
                == "a record separator (0x1E): a JSON text sequence (application/json-seq), not JSON Lines (line 1)")
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(failure(Array("1\n\(deep)\n".utf8)) == "a value nested deeper than 512 levels (line 2)")
        // Brackets inside a string are text; the last line without its LF is checked too.
        #expect(failure(Array(("{\"s\": \"" + String(repeating: "[", count: 600) + "\\\"\"}\n{\"é\": 1}").utf8)) == nil)
        #expect(failure(Array("{\"a\":1}\n{\"b\":".utf8) + [0xC3]) == "bytes that are not UTF-8 text (line 2)")
    }
}
