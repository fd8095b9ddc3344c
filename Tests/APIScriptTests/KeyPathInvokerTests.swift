import Testing
@testable import APIScript

/// A key path used by `map`, `filter` or `sorted` remembers where each record type keeps a name;
/// the answers must not change when types alternate, nest or are not records at all.
@Suite("Key path invokers")
struct KeyPathInvokerTests {
    static let left = RecordType(name: "Left", fields: [.init("id", .int), .init("name", .string)])
    static let right = RecordType(name: "Right", fields: [.init("name", .string), .init("inner", .record(left))])

    @Test("Alternating record types, nested paths, dictionaries and missing members")
    func invoker() throws {
        let name = Function(name: "\\.name", isPure: true, body: .keyPath(["name"])).unaryInvoker()
        let a = Value.record(Record(type: Self.left, values: [.int(1), .string("a")]))
        let b = Value.record(Record(type: Self.right, values: [.string("b"), a]))
        for _ in 0..<3 {
            #expect(try name(a) == .string("a"))
            #expect(try name(b) == .string("b"))
        }
        #expect(try name(.dictionary(["name": .string("d")])) == .string("d"))
        let nested = Function(name: "\\.inner.name", isPure: true, body: .keyPath(["inner", "name"])).unaryInvoker()
        #expect(try nested(b) == .string("a"))
        #expect(throws: ScriptFailure.self) { try nested(a) }
        #expect(throws: ScriptFailure.self) { try name(.null) }
    }
}
