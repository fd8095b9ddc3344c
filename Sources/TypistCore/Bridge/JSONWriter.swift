import APIScript
import Foundation
import TypistText

/// The one JSON writer for script values: `:format json` output, results files, diagnostics, and
/// the bodies of untyped calls.
///
/// Records keep their field order and dictionaries are sorted by key, so the same value always
/// gives the same text. Strings use JSON's escapes; every C0 and C1 control character and DEL is
/// escaped (`\u001b`), so no byte a server sent reaches a terminal raw. Bytes are Base64 strings,
/// as `JSONEncoder` writes `Data`.
package enum JSONWriter {
    /// What becomes of a ``Value/secret(_:)``.
    enum Secrets {
        /// Written as `"••••"`: output that a person or a log reads.
        case masked
        /// Written as they are: a body that sends them (the script put them there to send them).
        case sent
    }

    /// Levels of nesting a written document may have; deeper values are refused by ``data(_:)``.
    static let maximumDepth = 512

    /// Refused: a body nested deeper than ``maximumDepth``.
    struct TooDeep: Error, CustomStringConvertible {
        var description: String { "the JSON body nests deeper than \(JSONWriter.maximumDepth) levels" }
    }

    /// The value as JSON text for output, secrets masked.
    package static func render(_ value: Value, pretty: Bool) -> String {
        var writer = Writer(secrets: .masked, pretty: pretty, depthLimit: nil)
        // Without a depth limit nothing throws; values a script holds nest at most
        // `ScriptLimits.maximumValueNesting` levels.
        try? writer.write(value, indent: "", depth: 0)
        return writer.text
    }

    /// The value as a request body, secrets as they are; refused past ``maximumDepth``.
    package static func data(_ value: Value) throws -> Data {
        var writer = Writer(secrets: .sent, pretty: false, depthLimit: maximumDepth)
        try writer.write(value, indent: "", depth: 0)
        return Data(writer.text.utf8)
    }

    /// A JSON string literal.
    static func quoted(_ string: String) -> String {
        var text = ""
        quote(string, into: &text)
        return text
    }

    private struct Writer {
        let secrets: Secrets
        let pretty: Bool
        let depthLimit: Int?
        var text = ""

        mutating func write(_ value: Value, indent: String, depth: Int) throws {
            if let depthLimit, depth > depthLimit { throw TooDeep() }
            switch value {
            case .int(let number): text += String(number)
            case .double(let number): text += number.isFinite ? String(number) : "null"
            case .bool(let flag): text += flag ? "true" : "false"
            case .string(let string): quote(string, into: &text)
            case .secret(let string): quote(secrets == .sent ? string : "••••", into: &text)
            case .bytes(let bytes): quote(ByteText.base64(bytes), into: &text)
            case .null, .void, .function, .stream: text += "null"
            case .range(let lower, let upper): text += pretty ? "[\(lower), \(upper)]" : "[\(lower),\(upper)]"
            case .array(let elements):
                text += "["
                for (index, element) in elements.enumerated() {
                    let inner = item(index, in: indent)
                    try write(element, indent: inner, depth: depth + 1)
                }
                close("]", empty: elements.isEmpty, indent: indent)
            case .dictionary(let entries):
                text += "{"
                for (index, name) in entries.keys.sorted().enumerated() {
                    let inner = item(index, in: indent)
                    key(name)
                    try write(entries[name] ?? .null, indent: inner, depth: depth + 1)
                }
                close("}", empty: entries.isEmpty, indent: indent)
            case .record(let record):
                text += "{"
                for (index, field) in record.type.fields.enumerated() {
                    let inner = item(index, in: indent)
                    key(field.name)
                    try write(record.value(at: index) ?? .null, indent: inner, depth: depth + 1)
                }
                // An open record's other keys, as the service sent them.
                let additional = record.additionalProperties
                for (index, name) in additional.keys.sorted().enumerated() {
                    let inner = item(record.type.fields.count + index, in: indent)
                    key(name)
                    try write(additional[name] ?? .null, indent: inner, depth: depth + 1)
                }
                close("}", empty: record.type.fields.isEmpty && additional.isEmpty, indent: indent)
            }
        }

        /// Starts item `index` of a container: its comma and, when pretty, its line; returns its indent.
        private mutating func item(_ index: Int, in indent: String) -> String {
            if index > 0 { text += "," }
            guard pretty else { return "" }
            let inner = indent + "  "
            text += "\n" + inner
            return inner
        }

        private mutating func close(_ bracket: String, empty: Bool, indent: String) {
            if pretty, !empty { text += "\n" + indent }
            text += bracket
        }

        private mutating func key(_ name: String) {
            quote(name, into: &text)
            text += pretty ? ": " : ":"
        }
    }

    private static func quote(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where TerminalText.isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
