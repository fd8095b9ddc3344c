import APIScript
import Foundation
import Synchronization
import Testing
@testable import TypistCore

/// One decoder run per Swift type gives its script shape, its JSON keys and its one-pass plan.
@Suite("Reading a Swift type once", .serialized)  // `Counted.runs` is shared: one test at a time
struct ShapeRecorderTests {
    /// Counts how often its `init(from:)` runs.
    struct Counted: Decodable {
        static let runs = Mutex(0)
        var id: Int
        var fullName: String
        var stars: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case fullName = "full_name"
            case stars = "stargazers_count"
        }

        init(from decoder: any Decoder) throws {
            Self.runs.withLock { $0 += 1 }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            fullName = try container.decode(String.self, forKey: .fullName)
            stars = try container.decodeIfPresent(Int.self, forKey: .stars)
        }
    }

    @Test("Shape, self-decoding check and reading plan come from one run of init(from:)")
    func oneRun() throws {
        let bridge = ValueBridge()
        let before = Counted.runs.withLock { $0 }
        let type = try bridge.scriptType(of: Counted.self)
        #expect(!bridge.decodesItself(Counted.self))
        let plan = try #require(bridge.readingPlan(for: Counted.self))
        _ = try bridge.scriptType(of: Counted.self)
        #expect(Counted.runs.withLock { $0 } - before == 1)
        guard case .record(let record) = type, case .record = plan else {
            Issue.record("expected a record and a record plan, got \(type) and \(plan)")
            return
        }
        #expect(record.fields.map(\.name) == ["id", "fullName", "stars"])
    }

    @Test("A Swift model's fields keep their JSON keys (CodingKeys), the name where there are none")
    func keys() throws {
        let bridge = ValueBridge()
        guard case .record(let record) = try bridge.scriptType(of: Counted.self) else {
            Issue.record("expected a record")
            return
        }
        #expect(record.fields.map(\.key) == ["id", "full_name", "stargazers_count"])
        struct Plain: Decodable { var id: Int; var title: String }
        guard case .record(let plain) = try bridge.scriptType(of: Plain.self) else {
            Issue.record("expected a record")
            return
        }
        #expect(plain.fields.map(\.key) == ["id", "title"])
    }

    /// Refuses the recorder's markers (a number past 1,000) but takes zeros.
    struct Validating: Decodable {
        var count: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            count = try container.decode(Int.self, forKey: AnyKey("count"))
            guard count < 1_000 else {
                throw DecodingError.dataCorruptedError(forKey: AnyKey("count"), in: container, debugDescription: "too many")
            }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("A type that refuses the markers still has a shape (from zeros), and no one-pass plan")
    func validating() throws {
        let bridge = ValueBridge()
        guard case .record(let record) = try bridge.scriptType(of: Validating.self) else {
            Issue.record("expected a record")
            return
        }
        #expect(record.fields.map(\.name) == ["count"])
        #expect(bridge.readingPlan(for: Validating.self) == nil)
        // And the typed way reads it.
        let value = bridge.value(of: try JSONDecoder().decode(Validating.self, from: Data(#"{"count": 3}"#.utf8)))
        guard case .record(let read) = value else {
            Issue.record("expected a record, got \(value)")
            return
        }
        #expect(read["count"] == .int(3))
    }

    /// A version decoded from one string: the script sees its JSON.
    struct Version: Decodable {
        var parts: [Int]
        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            parts = text.split(separator: ".").compactMap { Int($0) }
        }
    }

    enum Level: String, Decodable, CaseIterable { case low = "L", high = "H" }

    @Test("What the type opened first tells a record from a type that decodes itself")
    func container() throws {
        let bridge = ValueBridge()
        #expect(bridge.decodesItself(Version.self))
        #expect(try bridge.scriptType(of: Version.self) == .any)
        #expect(!bridge.decodesItself(Level.self))
        #expect(try bridge.scriptType(of: Level.self) == .string)
        #expect(!bridge.decodesItself(Date.self))
    }

    final class Loop: Decodable { let next: Loop }

    @Test("A recursive model with no optional in its cycle is one clear error")
    func recursive() {
        let bridge = ValueBridge()
        #expect(throws: ProbeError.self) { try bridge.scriptType(of: Loop.self) }
    }

    /// GitHub's reactions as `typist generate` writes them: keys "+1" and "-1" are `_1` and `_1_`.
    struct Reactions: Decodable {
        var _1: Int
        var _1_: Int
        var laugh: Int
        enum CodingKeys: String, CodingKey {
            case _1 = "+1"
            case _1_ = "-1"
            case laugh
        }
    }

    @propertyWrapper struct Trimmed: Decodable {
        var wrappedValue: String
        init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(String.self) }
    }

    struct Wrapped: Decodable {
        @Trimmed var name: String
    }

    @Test("A field named _1 keeps its name; a property wrapper's _name storage is the name")
    func underscoredNames() throws {
        let bridge = ValueBridge()
        guard case .record(let reactions) = try bridge.scriptType(of: Reactions.self),
              case .record(let wrapped) = try bridge.scriptType(of: Wrapped.self)
        else {
            Issue.record("expected records")
            return
        }
        #expect(reactions.fields.map(\.name) == ["_1", "_1_", "laugh"])
        #expect(reactions.fields.map(\.key) == ["+1", "-1", "laugh"])
        #expect(wrapped.fields.map(\.name) == ["name"])
    }
}
