import APIScript
import Foundation
import Testing
@testable import TypistCore

/// A model as `typist generate` writes one for an open object: its fields, and the other keys the
/// service sent in `additionalProperties`.
private struct Bucket: Codable, AdditionalPropertiesModel {
    var name: String
    var createdAt: Int?
    var additionalProperties: [String: Int]

    enum CodingKeys: String, CodingKey {
        case name
        case createdAt = "created_at"
    }

    private struct OtherKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        createdAt = try container.decodeIfPresent(Int.self, forKey: .createdAt)
        let others = try decoder.container(keyedBy: OtherKey.self)
        var additionalProperties: [String: Int] = [:]
        for key in others.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
            additionalProperties[key.stringValue] = try others.decode(Int.self, forKey: key)
        }
        self.additionalProperties = additionalProperties
    }
}

@Suite("A host's open model (AdditionalPropertiesModel)")
struct AdditionalPropertiesModelTests {
    @Test("Its type is an open record of its fields, keyed as it decodes them; its value keeps the other keys, read as members")
    func bridged() async throws {
        let bridge = ValueBridge()
        guard case .record(let record) = try bridge.scriptType(of: Bucket.self) else {
            Issue.record("not a record")
            return
        }
        #expect(record.fields.map(\.name) == ["name", "createdAt"])
        #expect(record.fields.map(\.key) == ["name", "created_at"])
        #expect(record.additionalProperties == .int)
        // No reading plan: its other keys are read by its own init(from:).
        #expect(bridge.readingPlan(for: Bucket.self) == nil)
        let decoded = try JSONDecoder().decode(Bucket.self, from: Data(#"{"name": "b", "created_at": 7, "size": 3, "files": 2}"#.utf8))
        guard case .record(let value) = bridge.value(of: decoded) else {
            Issue.record("not a record value")
            return
        }
        #expect(value.values == [.string("b"), .int(7)])
        #expect(value.additionalProperties == ["size": .int(3), "files": .int(2)])
        #expect(value.value(forKey: "created_at") == .int(7))
        #expect(ValueFormatter.literal(.record(value)) == #"Bucket(name: "b", createdAt: 7, additionalProperties: ["files": 2, "size": 3])"#)
    }
}
