import TypistText
/// Text for values, as Swift's `print` and `String(describing:)` would give it: what the shell
/// shows, for a host's own messages (an argument conversion's error that quotes the value).
///
/// `Value` renders itself the same way (``Value/description``, ``Value/literal``).
public enum ValueFormatter {
    /// The value as `print` shows it: strings bare, everything inside collections in literal form.
    public static func description(_ value: Value) -> String {
        if case .string(let text) = value { return text }
        return literal(value)
    }

    /// The value in literal form: strings quoted and escaped, secrets as `••••`.
    public static func literal(_ value: Value) -> String {
        var output = ""
        _ = write(value, to: &output, limit: .max)
        return output
    }

    /// ``description(_:)`` for a string a script makes (interpolation, `String(describing:)`):
    /// refused once it passes ``ScriptLimits/maximumStringBytes`` less `used`, before it is
    /// built whole.
    static func boundedDescription(_ value: Value, alongside used: Int = 0) throws -> String {
        let limit = ScriptLimits.maximumStringBytes - used
        if case .string(let text) = value {
            try ScriptLimits.checkStringBytes(used + text.utf8.count)
            return text
        }
        // What it takes at least, counted first: a value far past the limit is refused before any text is made.
        var budget = limit
        guard fits(value, in: &budget) else { throw ScriptLimits.stringTooLong }
        var output = ""
        guard write(value, to: &output, limit: limit), output.utf8.count <= limit else {
            throw ScriptLimits.stringTooLong
        }
        return output
    }

    /// Refuses a value whose text would pass ``ScriptLimits/maximumStringBytes`` (10 million
    /// references to one 200 MB string print as 2 PB), by counting at least the bytes it takes,
    /// without building it: for `print`, whose text the host may build its own way.
    static func checkDescriptionSize(_ value: Value) throws {
        var budget = ScriptLimits.maximumStringBytes
        guard fits(value, in: &budget) else { throw ScriptLimits.stringTooLong }
    }

    /// Takes from `budget` at least the bytes `value` is written in; false once it runs out.
    private static func fits(_ value: Value, in budget: inout Int) -> Bool {
        switch value {
        case .string(let text): budget -= text.utf8.count + 2
        case .array(let elements):
            budget -= 2
            for element in elements {
                budget -= 2
                guard budget >= 0, fits(element, in: &budget) else { return false }
            }
        case .dictionary(let entries):
            budget -= 2
            for (key, element) in entries {
                budget -= key.utf8.count + 4
                guard budget >= 0, fits(element, in: &budget) else { return false }
            }
        case .record(let record):
            budget -= record.type.name.utf8.count + 2
            for (index, field) in record.type.fields.enumerated() {
                budget -= field.name.utf8.count + 4
                guard budget >= 0, fits(record.value(at: index) ?? .null, in: &budget) else { return false }
            }
            let additional = record.additionalProperties
            if !additional.isEmpty {
                budget -= 24
                guard budget >= 0, fits(.dictionary(additional), in: &budget) else { return false }
            }
        default: budget -= 1
        }
        return budget >= 0
    }

    /// Writes `value`; false when the output passed `limit` bytes (it then stops early).
    private static func write(_ value: Value, to output: inout String, limit: Int) -> Bool {
        switch value {
        case .int(let number): output += String(number)
        case .double(let number): output += String(number)
        case .bool(let flag): output += flag ? "true" : "false"
        case .string(let text):
            // Its quotes and escapes only make it longer: past the limit already, it is not built.
            guard output.utf8.count + text.utf8.count + 2 <= limit else { return false }
            output += quoted(text)
        case .secret: output += "••••"
        case .bytes(let bytes): output += ByteText.summary(bytes)
        case .null: output += "nil"
        case .void: output += "()"
        case .range(let lower, let upper): output += "\(lower)..<\(upper)"
        case .function(let function): output += "(function \(function.name))"
        case .stream(let stream): output += "(stream of \(stream.origin))"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                guard write(element, to: &output, limit: limit) else { return false }
            }
            output += "]"
        case .dictionary(let entries):
            if entries.isEmpty {
                output += "[:]"
                return output.utf8.count <= limit
            }
            output += "["
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { output += ", " }
                output += quoted(key) + ": "
                guard write(entries[key] ?? .null, to: &output, limit: limit) else { return false }
            }
            output += "]"
        case .record(let record):
            output += record.type.isTuple ? "(" : "\(record.type.name)("
            for (index, field) in record.type.fields.enumerated() {
                if index > 0 { output += ", " }
                output += field.name + ": "
                guard write(record.value(at: index) ?? .null, to: &output, limit: limit) else { return false }
            }
            // An open record's other keys, as the stored dictionary a generated model keeps them in.
            let additional = record.additionalProperties
            if !additional.isEmpty {
                output += record.type.fields.isEmpty ? "additionalProperties: " : ", additionalProperties: "
                guard write(.dictionary(additional), to: &output, limit: limit) else { return false }
            }
            output += ")"
        }
        return output.utf8.count <= limit
    }

    /// A string literal with escapes, as Swift's `debugDescription` gives it.
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape: copied whole (C1 controls start with byte 0xC2).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 }) {
            return "\"" + text + "\""
        }
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
                if TerminalText.isControl(scalar) {
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
        case .stream: "AsyncThrowingStream"
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
