/// Text for values, as Swift's `print` and `String(describing:)` would give it.
public enum ValueFormatter {
    /// The value as `print` shows it: strings bare, everything inside collections in literal form.
    public static func description(_ value: Value) -> String {
        if case .string(let text) = value { return text }
        return literal(value)
    }

    /// The value in literal form: strings quoted and escaped, secrets as `••••`.
    public static func literal(_ value: Value) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: Value, to output: inout String) {
        switch value {
        case .int(let number): output += String(number)
        case .double(let number): output += String(number)
        case .bool(let flag): output += flag ? "true" : "false"
        case .string(let text): output += quoted(text)
        case .secret: output += "••••"
        case .bytes(let bytes): output += ByteText.summary(bytes)
        case .null: output += "nil"
        case .void: output += "()"
        case .range(let lower, let upper): output += "\(lower)..<\(upper)"
        case .function(let function): output += "(function \(function.name))"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                write(element, to: &output)
            }
            output += "]"
        case .dictionary(let entries):
            if entries.isEmpty {
                output += "[:]"
                return
            }
            output += "["
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { output += ", " }
                output += quoted(key) + ": "
                write(entries[key] ?? .null, to: &output)
            }
            output += "]"
        case .record(let record):
            output += record.type.isTuple ? "(" : "\(record.type.name)("
            for (index, field) in record.type.fields.enumerated() {
                if index > 0 { output += ", " }
                output += field.name + ": "
                write(record.value(at: index) ?? .null, to: &output)
            }
            output += ")"
        }
    }

    /// A string literal with escapes, as Swift's `debugDescription` gives it.
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\0": output += "\\0"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    // C0, DEL and C1 (U+009B is a one-character escape sequence on many terminals).
                    output += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// The dynamic type name of a value, as `type(of:)` shows it.
    public static func typeName(_ value: Value) -> String {
        switch value {
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .string: "String"
        case .secret: "Secret"
        case .bytes: "Bytes"
        case .null: "Optional<Any>"
        case .void: "()"
        case .range: "Range<Int>"
        case .function: "Function"
        case .record(let record): record.type.name
        case .array(let elements):
            "[\(commonName(elements.map(typeName)))]"
        case .dictionary(let entries):
            "[String: \(commonName(entries.values.map(typeName)))]"
        }
    }

    private static func commonName(_ names: [String]) -> String {
        guard let first = names.first else { return "Any" }
        return names.allSatisfy { $0 == first } ? first : "Any"
    }
}
