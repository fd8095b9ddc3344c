import Foundation
import Testing
import TypedAPI

/// Decoding failures say what was wrong, also where JSONDecoder only says "not valid JSON".
@Suite("Decoding failures")
struct DecodingFailureTests {
    private struct Item: Decodable { let id: Int; let ratio: Double? }

    @Test("A number too large for its Swift type is named, with the JSON around it", arguments: [
        (#"{"id": 9223372036854775808}"#, "9223372036854775808"),
        (#"{"id": 1, "ratio": 1e400}"#, "1e400"),
        (#"{"note": "9223372036854775808 in a string is text", "id": -9223372036854775809}"#, "-9223372036854775809"),
    ])
    func outOfRange(body: String, number: String) {
        do {
            _ = try JSONDecoder().decode(Item.self, from: Data(body.utf8))
            Issue.record("decoded")
        } catch {
            let failure = DecodingFailure(error, decoding: Item.self, body: Data(body.utf8))
            #expect(failure.found == "\(number), which does not fit", "\(failure)")
            #expect(failure.description.contains(number))
            #expect(!failure.description.contains("not valid JSON"))
        }
    }

    @Test("Invalid JSON is still called so")
    func invalid() {
        let body = Data(#"{"id": 1"#.utf8)
        do {
            _ = try JSONDecoder().decode(Item.self, from: body)
            Issue.record("decoded")
        } catch {
            #expect(DecodingFailure(error, decoding: Item.self, body: body).expected == "valid JSON")
        }
    }
}
