@testable import APIScript
import Testing

/// `Bytes`: raw data from a server, never decoded as text behind the user's back.
@Suite("Bytes")
struct BytesTests {
    /// The test host plus `bytes(count:)` (0, 1, 2 … wrapping at 256) and `utf8(_:)` (a text's UTF-8).
    private func interpreter(_ output: OutputBuffer = OutputBuffer()) throws -> Interpreter {
        let interpreter = try TestHost.interpreter(output: output)
        try interpreter.register(HostFunction(
            name: "bytes", parameters: [.init(label: "count", type: .int)], returnType: .bytes) { arguments in
            guard case .int(let count) = arguments[0] else { return .null }
            return .bytes((0..<count).map { UInt8(truncatingIfNeeded: $0) })
        })
        try interpreter.register(HostFunction(
            name: "utf8", parameters: [.init(label: nil, name: "text", type: .string)], returnType: .bytes) { arguments in
            guard case .string(let text) = arguments[0] else { return .null }
            return .bytes(Array(text.utf8))
        })
        try interpreter.register(HostFunction(
            name: "raw", parameters: [.init(label: nil, name: "values", type: .array(.int))], returnType: .bytes) { arguments in
            guard case .array(let values) = arguments[0] else { return .null }
            return .bytes(values.map { if case .int(let byte) = $0 { UInt8(truncatingIfNeeded: byte) } else { 0 } })
        })
        return interpreter
    }

    @Test("Bytes print as their count and first bytes in hex, never as text")
    func printing() throws {
        #expect(ValueFormatter.description(.bytes(Array(0..<64))) == "<64 bytes: 0001020304050607…>")
        #expect(ValueFormatter.description(.bytes([0x1f, 0x8b, 0x08])) == "<3 bytes: 1f8b08>")
        #expect(ValueFormatter.description(.bytes([0xff])) == "<1 byte: ff>")
        #expect(ValueFormatter.description(.bytes([])) == "<0 bytes>")
        #expect(ValueFormatter.literal(.array([.bytes([1])])) == "[<1 byte: 01>]")
        #expect(ValueFormatter.typeName(.bytes([1])) == "Bytes")
        #expect(ScriptType.bytes.description == "Bytes")
    }

    @Test("base64 and hex agree with RFC 4648's test vectors")
    func encodings() throws {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(ByteText.base64(Array(text.utf8)) == encoded, "\(text)")
        }
        #expect(ByteText.base64([0xfb, 0xff, 0xfe]) == "+//+")
        #expect(ByteText.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(ByteText.utf8([0x68, 0xc3, 0xa9]) == "hé")
        #expect(ByteText.utf8([0xc3]) == nil)
        #expect(ByteText.utf8([0xff, 0xfe]) == nil)
    }

    @Test("Properties, subscripts, slices and sequence methods have the types Swift's Data would give")
    func members() async throws {
        let interpreter = try interpreter()
        let cases: [(String, Value)] = [
            ("bytes(count: 300).count", .int(300)),
            ("bytes(count: 0).isEmpty", .bool(true)),
            ("bytes(count: 300)[257]", .int(1)),
            ("bytes(count: 3).first", .int(0)),
            ("bytes(count: 3).last", .int(2)),
            ("bytes(count: 0).first", .null),
            ("bytes(count: 20)[2..<5]", .bytes([2, 3, 4])),
            ("bytes(count: 20).prefix(2)", .bytes([0, 1])),
            ("bytes(count: 20).suffix(2)", .bytes([18, 19])),
            ("bytes(count: 4).dropFirst()", .bytes([1, 2, 3])),
            ("bytes(count: 4).dropLast(3)", .bytes([0])),
            ("bytes(count: 4).map { $0 * 2 }", .array([.int(0), .int(2), .int(4), .int(6)])),
            ("bytes(count: 10).filter { $0 > 7 }", .array([.int(8), .int(9)])),
            ("bytes(count: 10).reduce(0, +)", .int(45)),
            ("bytes(count: 10).contains(9)", .bool(true)),
            ("bytes(count: 10).max()", .int(9)),
            ("var n = 0; for b in bytes(count: 4) { n += b }; n", .int(6)),
            ("utf8(\"foobar\").base64", .string("Zm9vYmFy")),
            ("raw([31, 139, 8]).hex", .string("1f8b08")),
            ("utf8(\"héllo\").utf8", .string("héllo")),
            ("raw([255, 254]).utf8", .null),
            ("raw([255]).utf8 ?? \"binary\"", .string("binary")),
            ("utf8(\"ab\") == utf8(\"ab\")", .bool(true)),
            ("utf8(\"ab\") == utf8(\"ac\")", .bool(false)),
            ("\"\\(raw([1, 2]))\"", .string("<2 bytes: 0102>")),
        ]
        for (text, expected) in cases {
            #expect(try await interpreter.evaluate(text) == expected, "\(text)")
        }
        let types: [(String, ScriptType)] = [
            ("bytes(count: 1)", .bytes), ("bytes(count: 1)[0]", .int), ("bytes(count: 1)[0..<1]", .bytes),
            ("bytes(count: 1).prefix(1)", .bytes), ("bytes(count: 1).first", .optional(.int)),
            ("bytes(count: 1).utf8", .optional(.string)), ("bytes(count: 1).hex", .string),
            ("bytes(count: 1).map { $0 }", .array(.int)),
        ]
        for (text, expected) in types {
            #expect(try interpreter.staticType(of: text).get() == expected, "\(text)")
        }
    }

    @Test("Mistakes with bytes are errors with their place, checked before anything runs")
    func mistakes() async throws {
        let interpreter = try interpreter()
        let checked: [(String, String)] = [
            ("bytes(count: 2).utf16", "value of type 'Bytes' has no member 'utf16'"),
            ("bytes(count: 2)[\"a\"]", "a Bytes subscript takes an Int or a range, not 'String'"),
            ("bytes(count: 2) + 1", "'+'"),
            ("[\"a\"] + [bytes(count: 2)].map { $0.utf16 }", "no member 'utf16'"),
            ("bytes(count: 2).joined()", "joined"),
        ]
        for (text, message) in checked {
            guard case .failure(let error) = interpreter.staticType(of: text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(error.diagnostics.first?.message.contains(message) == true,
                    "\(text): \(error.diagnostics.first?.message ?? "")")
        }
        let runtime = await interpreter.evaluate(ScriptSource(name: "<input>", text: "bytes(count: 3)[5]"), isPrompt: true)
        #expect(runtime.errors.first?.message == "index 5 is out of range for 3 bytes")
        let slice = await interpreter.evaluate(ScriptSource(name: "<input>", text: "bytes(count: 3)[1..<9]"), isPrompt: true)
        #expect(slice.errors.first?.message == "range 1..<9 is out of bounds for 3 bytes")
        let annotated = await interpreter.evaluate(ScriptSource(name: "<input>", text: "let s: String = bytes(count: 2)"),
                                                   isPrompt: true)
        #expect(annotated.errors.first?.message.contains("'Bytes'") == true, "\(annotated.errors)")
        // A value annotated as Bytes, and a function over them.
        #expect(try await interpreter.evaluate("func size(_ b: Bytes) -> Int { b.count }; let b: Bytes = bytes(count: 7); size(b)") == .int(7))
    }
}
