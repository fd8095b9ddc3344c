import APIScript
import Foundation

/// Sample JSON of a response type, for a preview's answers: what the decoding reads — the JSON
/// keys of a one-pass plan where the type has one, else its fields' names — with zero, `""`,
/// `false` and `null` for values, one element in an array, no entry in a dictionary.
package enum SampleJSON {
    package static func body(plan: ReadingPlan?, type: ScriptType?) -> Data {
        var text = ""
        if let plan {
            write(plan, into: &text, depth: 0)
        } else if let type {
            if type == .void { return Data() }
            write(type, into: &text, depth: 0)
        } else {
            text = "null"
        }
        return Data(text.utf8)
    }

    private static let deepest = 8

    private static func write(_ plan: ReadingPlan, into text: inout String, depth: Int) {
        switch plan {
        case .int, .double: text += "0"
        case .bool: text += "false"
        case .string: text += "\"\""
        case .optional, .dynamic: text += "null"
        case .dictionary: text += "{}"
        case .array(let element):
            text += "["
            if depth < deepest { write(element, into: &text, depth: depth + 1) }
            text += "]"
        case .record(let record):
            guard depth < deepest, let record = record.definition else {
                text += "null"
                return
            }
            text += "{"
            for (index, (key, field)) in zip(record.keyStrings, record.fields).enumerated() {
                if index > 0 { text += "," }
                text += JSONWriter.render(.string(key), pretty: false) + ":"
                write(field, into: &text, depth: depth + 1)
            }
            text += "}"
        }
    }

    private static func write(_ type: ScriptType, into text: inout String, depth: Int) {
        switch type {
        case .int, .double: text += "0"
        case .bool: text += "false"
        case .string, .secret, .bytes: text += "\"\""
        case .dictionary: text += "{}"
        case .array(let element):
            text += "["
            if depth < deepest { write(element, into: &text, depth: depth + 1) }
            text += "]"
        case .record(let record) where depth < deepest:
            text += "{"
            for (index, field) in record.fields.enumerated() {
                if index > 0 { text += "," }
                text += JSONWriter.render(.string(field.name), pretty: false) + ":"
                write(field.type, into: &text, depth: depth + 1)
            }
            text += "}"
        default: text += "null"
        }
    }
}
