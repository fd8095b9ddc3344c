import APIScript
import Testing

/// `Value` renders as the shell shows it, for hosts: `description` as `print`, `literal` as a
/// script writes it, a secret masked in both.
@Suite("A value renders itself, for hosts")
struct ValueRenderingTests {
    @Test("print's form, the literal form, and a secret masked in each")
    func rendering() {
        #expect("\(Value.string("a\nb"))" == "a\nb")
        #expect(Value.string("a\nb").literal == #""a\nb""#)
        #expect(String(reflecting: Value.string("x")) == #""x""#)
        #expect("\(Value.array([.int(1), .string("two"), .null]))" == #"[1, "two", nil]"#)
        #expect(Value.dictionary(["ok": .bool(true)]).description == #"["ok": true]"#)
        #expect(Value.double(2.5).literal == "2.5")
        #expect(!"\(Value.secret("hunter2-hunter2"))".contains("hunter2"))
        #expect(Value.secret("hunter2-hunter2").literal == "••••")
        #expect(ValueFormatter.literal(.string("\u{1B}[2J")) == #""\u{1b}[2J""#)
    }
}
