import APIScript
import Foundation
import Testing
@testable import TypistCore

/// A value typed by a document's model: where it departs, the error names the place.
@Suite("Model conformance")
struct ModelConformanceTests {
    private static let item = RecordType(name: "Item", fields: [.init("id", .int), .init("tags", .dictionary(.array(.int)))])
    private static let page = RecordType(name: "Page", fields: [.init("items", .array(.record(item)))])

    @Test("A departure deep in a value names its place: index, field and key, a key that is not a name quoted", arguments: [
        (#"{"items": [{"id": 1, "tags": {}}, {"id": "2", "tags": {}}]}"#, "$.items[1].id", "expected Int, found a String"),
        (#"{"items": [{"id": 1, "tags": {"a key": [1, "x"]}}]}"#, #"$.items[0].tags["a key"][1]"#, "expected Int, found a String"),
        (#"{"items": [{"id": 1, "tags": {}}, {"tags": {}}]}"#, "$.items[1]", "the key 'id' (Int) is missing"),
        (#"{"items": 3}"#, "$.items", "expected [Item], found an Int"),
    ])
    func deepPlaces(json: String, path: String, reason: String) throws {
        let value = try JSONReader.parse(Data(json.utf8))
        do {
            _ = try ModelConformance.conform(value, to: .record(Self.page))
            Issue.record("\(json) conformed")
        } catch {
            #expect(error.path == path)
            #expect(error.reason == reason)
        }
    }

    @Test("A conforming value becomes records, whatever its size")
    func conforming() throws {
        let items = (0..<1_000).map { #"{"id": \#($0), "tags": {"k": [\#($0)]}}"# }.joined(separator: ",")
        let value = try JSONReader.parse(Data(#"{"items": [\#(items)]}"#.utf8))
        let typed = try ModelConformance.conform(value, to: .record(Self.page))
        guard case .record(let page) = typed, case .array(let elements) = page.values.first else {
            Issue.record("not a page of items: \(typed)")
            return
        }
        #expect(elements.count == 1_000)
        #expect(elements.last.flatMap { if case .record(let item) = $0 { item.values.first } else { nil } } == .int(999))
    }
}
