import APIScript
import Foundation
import TestSupport
import Testing
@testable import Typist
@testable import TypistCore

/// Records read from a response body: one allocation each, strings left in the body until read,
/// the same values as the typed way, and every byte of every string still checked at the call.
@Suite("Records laid out in the body")
struct RecordLayoutTests {
    struct Note: Codable, Equatable {
        var id: Int
        var title: String
        var memo: String?
    }

    private func reader() throws -> (ReadingPlan, ValueBridge) {
        let bridge = ValueBridge()
        _ = try bridge.scriptType(of: [Note].self)
        return (try #require(bridge.readingPlan(for: [Note].self)), bridge)
    }

    private func direct(_ json: [UInt8], _ plan: ReadingPlan) -> Value? {
        JSONReader.value(from: Data(json), plan: plan, decoder: JSONDecoder())
    }

    @Test("A record keeps its strings in the body and makes them when read")
    func laidOut() throws {
        let (plan, bridge) = try reader()
        let json = #"[{"id":1,"title":"first title, longer than a small string","memo":null},{"memo":"m","id":2,"title":"é"}]"#
        let value = try #require(direct(Array(json.utf8), plan))
        guard case .array(let elements) = value, elements.count == 2,
            case .record(let first) = elements[0], case .record(let second) = elements[1]
        else {
            Issue.record("expected two records, got \(value)")
            return
        }
        #expect(first.isReadFromBody && second.isReadFromBody)
        #expect(first.value(at: 1) == .string("first title, longer than a small string"))
        #expect(first.value(at: 2) == .null)
        #expect(second["memo"] == .string("m"))
        #expect(second.value(at: 3) == nil)
        #expect(value == bridge.value(of: try JSONDecoder().decode([Note].self, from: Data(json.utf8))))
        // The shape of a value does not grow: a record is two words, however it is stored.
        #expect(MemoryLayout<Record>.size == 2 * MemoryLayout<Int>.size)
        // A field read from a body is 16 bytes: a scalar or a string's place in the body inline.
        #expect(MemoryLayout<RecordField>.stride == 16)
    }

    @Test("A record read from a body can be changed, and only the copy changes")
    func changed() throws {
        let (plan, _) = try reader()
        let value = try #require(direct(Array(#"[{"id":1,"title":"kept"}]"#.utf8), plan))
        guard case .array(let elements) = value, case .record(let original)? = elements.first else {
            Issue.record("expected a record")
            return
        }
        var copy = original
        copy.values[1] = .string("changed")
        #expect(!copy.isReadFromBody)
        #expect(copy["title"] == .string("changed"))
        #expect(original["title"] == .string("kept"))
        #expect(copy != original)
        copy.values[1] = .string("kept")
        #expect(copy == original)
    }

    /// Bytes placed in a string at every position of strings of every length around the scanner's
    /// eight-byte words: the reader must accept exactly what JSONDecoder accepts, with its value,
    /// or give up.
    static let insertions: [(name: String, bytes: [UInt8], valid: Bool)] = [
        ("an escaped quote", Array(#"\""#.utf8), true),
        ("an escaped newline", Array(#"\n"#.utf8), true),
        ("a unicode escape", Array(#"\u00e9"#.utf8), true),
        ("DEL", [0x7F], true),
        ("a two-byte character", Array("é".utf8), true),
        ("a four-byte character", Array("😀".utf8), true),
        ("a raw control character", [0x01], false),
        ("a raw newline", [0x0A], false),
        ("an invalid byte", [0xFF], false),
        ("a lone continuation byte", [0x80], false),
        ("an overlong encoding", [0xC0, 0x80], false),
        ("an encoded surrogate", [0xED, 0xA0, 0x80], false),
        ("a truncated sequence", [0xE2, 0x82], false),
    ]

    @Test("Strings of every length with a special byte anywhere read as JSONDecoder reads them",
          arguments: insertions.indices)
    func scanner(which: Int) throws {
        let (plan, bridge) = try reader()
        let insertion = Self.insertions[which]
        for length in 0..<20 {
            for position in 0...length {
                var text = Array(repeating: UInt8(ascii: "a"), count: length)
                text.insert(contentsOf: insertion.bytes, at: position)
                // As the last string of the body (the scanner's words run past its end) and as a
                // string followed by more.
                for json in [Array(#"[{"id":1,"title":""#.utf8) + text + Array(#""}]"#.utf8),
                             Array(#"[{"title":""#.utf8) + text + Array(#"","id":2,"memo":"a longer memo after it"}]"#.utf8)]
                {
                    let typed = try? bridge.value(of: JSONDecoder().decode([Note].self, from: Data(json)))
                    let read = direct(json, plan)
                    let where_ = "\(insertion.name) at \(position) of \(length)"
                    #expect((typed != nil) == insertion.valid, "JSONDecoder: \(where_)")
                    if insertion.valid {
                        #expect(read != nil, "gave up: \(where_)")
                        #expect(read == typed, "\(where_)")
                    } else {
                        #expect(read == nil, "accepted: \(where_)")
                    }
                }
            }
        }
    }
    /// A small, seeded generator: the same inputs on every run.
    @Test("Mutated bodies: the reader never traps, and whatever it accepts JSONDecoder reads the same")
    func mutations() throws {
        let (plan, bridge) = try reader()
        let seed = Array(#"[{"id":1,"title":"first title, long enough for whole words","memo":null},{"id":-2,"title":"é \u00e9 😀","memo":"a \"memo\""},{"title":"t","id":3,"extra":[1,{"x":null}]}]"#.utf8)
        let alphabet: [UInt8] = Array(#"{}[]:,"\ 0123456789-.eEnulltrufase"#.utf8) + [0x00, 0x01, 0x0A, 0x7F, 0x80, 0xC0, 0xE2, 0xED, 0xF0, 0xFF]
        var random = SplitMix(seed: 0x7E57)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0...random.below(3) {
                let at = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[at] = alphabet[random.below(alphabet.count)]
                case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
                case 2: if bytes.count > 1 { bytes.remove(at: at) }
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.below(12))], at: at)
                }
            }
            guard let read = direct(bytes, plan) else { continue }
            accepted += 1
            let typed = try? bridge.value(of: JSONDecoder().decode([Note].self, from: Data(bytes)))
            #expect(read == typed, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Some mutations keep the body valid (inside strings, digits): the comparison ran.
        #expect(accepted > 100)
    }
}
