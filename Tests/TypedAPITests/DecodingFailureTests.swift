import Foundation
import Testing
import TypedAPI

/// Decoding failures say what was wrong, also where JSONDecoder only says "not valid JSON".
@Suite("Decoding failures")
struct DecodingFailureTests {
    private struct Item: Decodable { let id: Int; let ratio: Double? }

    @Test("A number too large for its Swift type is named, with its field and the JSON around it", arguments: [
        (#"{"id": 9223372036854775808}"#, "9223372036854775808", "id"),
        (#"{"id": 1, "ratio": 1e400}"#, "1e400", "ratio"),
        (#"{"note": "9223372036854775808 in a string is text", "id": -9223372036854775809}"#, "-9223372036854775809", "id"),
    ])
    func outOfRange(body: String, number: String, place: String) {
        do {
            _ = try JSONDecoder().decode(Item.self, from: Data(body.utf8))
            Issue.record("decoded")
        } catch {
            let failure = DecodingFailure(error, decoding: Item.self, body: Data(body.utf8))
            #expect(failure.found == "\(number), which does not fit", "\(failure)")
            #expect(failure.codingPath == place, "\(failure)")
            #expect(failure.description.hasPrefix("cannot decode \(failure.type) at \(place): "), "\(failure)")
            #expect(failure.description.contains(number))
            #expect(!failure.description.contains("not valid JSON"))
        }
    }

    private struct Outer: Decodable { struct Inner: Decodable { let c: [Int] }; let a: [Inner] }

    @Test("Deep in the body, the number's place is its path through objects and arrays")
    func outOfRangeDeep() {
        let body = Data(#"{"a": [{"c": [0]}, {"b": "x,\"y]", "c": [0, 123456789012345678901234567890]}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Outer.self, from: body)
            Issue.record("decoded")
        } catch {
            let failure = DecodingFailure(error, decoding: Outer.self, body: body)
            #expect(failure.codingPath == "a[1].c[1]", "\(failure)")
            #expect(failure.found == "123456789012345678901234567890, which does not fit", "\(failure)")
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
