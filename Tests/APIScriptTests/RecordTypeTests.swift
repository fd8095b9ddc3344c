@testable import APIScript
import Testing

/// Tuple types are equal by shape, and nothing process-wide keeps them (or the models in them).
@Suite("Record types")
struct RecordTypeTests {
    @Test("Two tuple types of one shape are equal and hash alike; models stay distinct by identity")
    func tupleEquality() {
        let first = RecordType.tuple([.init("offset", .int), .init("element", .string)])
        let second = RecordType.tuple([.init("offset", .int), .init("element", .string)])
        #expect(first == second && Set([first, second]).count == 1)
        #expect(first != RecordType.tuple([.init("offset", .int), .init("element", .int)]))
        #expect(RecordType(name: "Post", fields: []) != RecordType(name: "Post", fields: []))
    }

    @Test("A tuple over a model does not keep the model alive once both are gone (a global table of shapes did)")
    func tuplesAreNotRetained() {
        weak var model: RecordType?
        do {
            let temporary = RecordType(name: "Temporary", fields: [.init("id", .int)])
            model = temporary
            _ = RecordType.tuple([.init("key", .string), .init("value", .record(temporary))])
        }
        #expect(model == nil)
    }

    @Test("Checking and running a script that pairs, enumerates and compares tuples still works")
    func tuplesInScripts() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let value = try await interpreter.evaluate("""
            let pairs = ["b": 2, "a": 1].map { $0 }
            let again = ["a": 1].map { $0 }
            [pairs.count, pairs[0].value, ["x", "y"].enumerated().map { $0.offset }.reduce(0, +), again[0].key == pairs[0].key ? 1 : 0]
            """)
        #expect(value == .array([.int(2), .int(1), .int(1), .int(1)]))
    }
}
