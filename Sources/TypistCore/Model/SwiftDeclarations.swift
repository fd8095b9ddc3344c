import APIScript
import TypedAPI

/// Swift declarations for a type model: a `Decodable` struct per record, `CodingKeys` where a
/// field's JSON key is not its name, and a small `JSONValue` enum where a place holds dynamic JSON.
///
/// It writes whatever built the model — a JSON sample (`:model`) or the host's own Swift types —
/// the same way. Each record is declared once, under its name or, when another record already
/// took that name (or it is one of Swift's), the name with a number (`Owner2`); a record that
/// contains itself is declared before its fields are written, so recursion ends, and is a final
/// class where it holds itself outside an array (a struct cannot).
package struct SwiftDeclarations {
    /// How declarations are written: `:model`'s for pasting (`struct Repo: Decodable, Sendable`
    /// with `let`s), or a package's (`public struct Repo: Codable, Sendable` with `var`s and a
    /// public memberwise initializer, for `typist generate`).
    package struct Style: Sendable {
        package var access: String
        package var conformances: String
        package var initializer: Bool

        /// `:model`'s.
        package static let model = Style(access: "", conformances: "Decodable, Sendable", initializer: false)
        /// A package's.
        package static let package = Style(access: "public ", conformances: "Codable, Sendable", initializer: true)
    }

    private let style: Style
    private var structs: [(name: String, lines: [String])] = []
    private var declared: [ObjectIdentifier: String] = [:]
    private var usedNames: Set<String> = []
    private var needsJSONValue = false
    /// The open records declared (their other keys in `additionalProperties`), by name: a package
    /// registers each as an ``AdditionalPropertiesModel``.
    package private(set) var openRecordNames: [String] = []

    package init(style: Style) {
        self.style = style
    }

    /// Keeps `names` for declarations written beside these (a generated package's request
    /// bodies, `CreateBucketBody`): a record of such a name is declared with a number.
    package mutating func reserve(_ names: some Sequence<String>) {
        usedNames.formUnion(names)
    }

    /// Declares `type`'s records (once each); returns how `type` is written.
    package mutating func declare(_ type: ScriptType) -> String { typeName(type) }

    /// The declarations so far, one per record, in the order they were made.
    package var declarations: [(name: String, source: String)] {
        structs.map { ($0.name, $0.lines.joined(separator: "\n")) }
    }

    /// The `JSONValue` enum's declaration, when some place holds dynamic JSON.
    package var jsonValueDeclaration: String? {
        guard needsJSONValue else { return nil }
        return Self.jsonValueLines(style).joined(separator: "\n")
    }

    /// `:model`'s text: the declarations for `type`, after a header saying how to decode it.
    static func render(_ type: ScriptType) -> String {
        var writer = SwiftDeclarations(style: .model)
        let root = writer.typeName(type)
        var lines = [
            "// Inferred from one response: check optionals and number types against the service's documentation.",
            "// Decode it as \(root): try JSONDecoder().decode(\(root).self, from: data)",
            "",
        ]
        for (index, item) in writer.structs.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(contentsOf: item.lines)
        }
        if writer.structs.isEmpty { lines.removeLast() }
        if writer.needsJSONValue { lines.append(""); lines.append(contentsOf: jsonValueLines(.model)) }
        return lines.joined(separator: "\n")
    }

    /// How `type` is written in a declaration, declaring the records it names.
    private mutating func typeName(_ type: ScriptType) -> String {
        switch type {
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string, .secret: return "String"
        case .bytes: return "Data"
        case .void: return "Void"
        case .range: return "Range<Int>"
        // Only null seen: nothing says what it holds when it is not.
        case .nilLiteral: return "String?"
        // Only empty arrays seen (`[String]`), or not worked out.
        case .unknown: return "String"
        case .any, .function, .stream:
            needsJSONValue = true
            return "JSONValue?"
        case .optional(let wrapped):
            let name = typeName(wrapped)
            return name.hasSuffix("?") ? name : name + "?"
        // Any JSON inside a collection is `JSONValue`: its null is one of its values, not a missing one.
        case .array(let element): return "[" + additionalValueType(element) + "]"
        case .dictionary(let value): return "[String: " + additionalValueType(value) + "]"
        // TypedAPI's own: declared there.
        case .record(let record) where record == UploadFile.recordType: return "UploadFile"
        case .record(let record): return declare(record)
        }
    }

    /// Declares a record (and, first, the records of its fields); returns its name.
    private mutating func declare(_ record: RecordType) -> String {
        if let name = declared[ObjectIdentifier(record)] { return name }
        let name = uniqueTypeName(record.name)
        declared[ObjectIdentifier(record)] = name
        let position = structs.count
        structs.append((name, []))
        let fields = record.fields
        // A struct cannot hold itself (it would be of infinite size): a record that contains itself
        // other than in an array or a dictionary is a final class, with `let`s (to be Sendable).
        let isClass = Self.containsItself(record)
        var lines = ["\(style.access)\(isClass ? "final class" : "struct") \(name): \(style.conformances) {"]
        var parameters: [String] = []
        for field in fields {
            let type = typeName(field.type)
            let name = SwiftNames.escaped(field.name)
            lines.append("    \(style.access)\(style.initializer && !isClass ? "var" : "let") \(name): \(type)")
            // A parameter named `self` would hide the instance: its inner name is `selfValue`.
            let defaultText = type.hasSuffix("?") ? " = nil" : field.defaultValue.flatMap(Self.literal).map { " = \($0)" } ?? ""
            parameters.append((field.name == "self" ? "`self` selfValue" : name) + ": \(type)" + defaultText)
        }
        // An open record keeps the other keys the service sent, as swift-openapi-generator's models do.
        let additional = record.additionalProperties.map { additionalValueType($0) }
        if let additional {
            openRecordNames.append(name)
            lines.append("    /// The keys the document allows beside these (its `additionalProperties`), as the service sent them.")
            lines.append("    \(style.access)\(style.initializer && !isClass ? "var" : "let") additionalProperties: [String: \(additional)]")
            parameters.append("additionalProperties: [String: \(additional)] = [:]")
        }
        if style.initializer {
            lines.append("")
            lines.append("    \(style.access)init(\(parameters.joined(separator: ", "))) {")
            // `self.\`self\``: a field named like a keyword stays escaped after the dot too.
            for field in fields {
                lines.append("        self.\(SwiftNames.escaped(field.name)) = \(field.name == "self" ? "selfValue" : SwiftNames.escaped(field.name))")
            }
            if additional != nil { lines.append("        self.additionalProperties = additionalProperties") }
            lines.append("    }")
        }
        if let additional {
            lines += openCoding(fields, additional: additional)
        } else if fields.contains(where: { $0.defaultValue != nil }) {
            lines += defaultingCoding(fields)
        } else {
            lines += Self.codingKeys(fields.map { ($0.name, $0.key) })
        }
        lines.append("}")
        structs[position].lines = lines
        return name
    }

    /// How an open record's other values, and a collection's elements, are written: any JSON is
    /// `JSONValue` (its null one of them).
    private mutating func additionalValueType(_ type: ScriptType) -> String {
        let name = typeName(type)
        return name == "JSONValue?" ? "JSONValue" : name
    }

    /// An open record's `CodingKeys` (every field's), and its `init(from:)` — its fields, then
    /// every other key into `additionalProperties` — and, for a package, `encode(to:)`.
    private func openCoding(_ fields: [RecordType.Field], additional: String) -> [String] {
        let access = style.access
        var lines = ["", "    enum CodingKeys: String, CodingKey {"]
            + fields.map { "        case \(SwiftNames.escaped($0.name))" + ($0.name == $0.key ? "" : " = \(ValueFormatter.quoted($0.key))") }
            + ["    }", "",
               "    /// Any key: the others are read by the names the service gave them.",
               "    private struct OtherKey: CodingKey {",
               "        var stringValue: String",
               "        var intValue: Int? { nil }",
               "        init(stringValue: String) { self.stringValue = stringValue }",
               "        init?(intValue: Int) { nil }",
               "    }", "",
               "    \(access)init(from decoder: any Decoder) throws {",
               "        let container = try decoder.container(keyedBy: CodingKeys.self)"]
        lines += fields.map(decodingLine)
        lines += [
            "        let others = try decoder.container(keyedBy: OtherKey.self)",
            "        var additionalProperties: [String: \(additional)] = [:]",
            "        for key in others.allKeys where CodingKeys(stringValue: key.stringValue) == nil {",
            "            additionalProperties[key.stringValue] = try others.decode(\(additional).self, forKey: key)",
            "        }",
            "        self.additionalProperties = additionalProperties",
            "    }",
        ]
        guard style.initializer else { return lines }
        lines += ["", "    \(access)func encode(to encoder: any Encoder) throws {", "        var container = encoder.container(keyedBy: CodingKeys.self)"]
        for field in fields {
            let name = SwiftNames.escaped(field.name)
            let optional = typeNameWithoutDeclaring(field.type).hasSuffix("?")
            lines.append("        try container.encode\(optional ? "IfPresent" : "")(\(name), forKey: .\(name))")
        }
        lines += [
            "        var others = encoder.container(keyedBy: OtherKey.self)",
            "        for (key, value) in additionalProperties { try others.encode(value, forKey: OtherKey(stringValue: key)) }",
            "    }",
        ]
        return lines
    }

    /// A closed record with a field that has a default: its `CodingKeys` (every field's) and an
    /// `init(from:)` that reads an absent key as its default, as the prompt reads it.
    private func defaultingCoding(_ fields: [RecordType.Field]) -> [String] {
        ["", "    enum CodingKeys: String, CodingKey {"]
            + fields.map { "        case \(SwiftNames.escaped($0.name))" + ($0.name == $0.key ? "" : " = \(ValueFormatter.quoted($0.key))") }
            + ["    }", "",
               "    \(style.access)init(from decoder: any Decoder) throws {",
               "        let container = try decoder.container(keyedBy: CodingKeys.self)"]
            + fields.map(decodingLine)
            + ["    }"]
    }

    /// The line of an `init(from:)` that reads a field: `decodeIfPresent` for an optional, with
    /// `?? default` for a field the document gives a default, `decode` otherwise.
    private func decodingLine(_ field: RecordType.Field) -> String {
        let type = typeNameWithoutDeclaring(field.type)
        let name = SwiftNames.escaped(field.name)
        if type.hasSuffix("?") {
            return "        \(name) = try container.decodeIfPresent(\(type.dropLast()).self, forKey: .\(name))"
        }
        if let literal = field.defaultValue.flatMap(Self.literal) {
            return "        \(name) = try container.decodeIfPresent(\(type).self, forKey: .\(name)) ?? \(literal)"
        }
        return "        \(name) = try container.decode(\(type).self, forKey: .\(name))"
    }

    /// A default as a Swift literal — a number, a Boolean, a string, a list or map of them — or
    /// nil for a value Swift has no literal of.
    package static func literal(_ value: Value) -> String? {
        switch value {
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : nil
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return ValueFormatter.quoted(text)
        case .array(let elements):
            let written = elements.compactMap(literal)
            return written.count == elements.count ? "[" + written.joined(separator: ", ") + "]" : nil
        case .dictionary(let entries):
            guard !entries.isEmpty else { return "[:]" }
            let written = entries.keys.sorted().compactMap { key in entries[key].flatMap(literal).map { "\(ValueFormatter.quoted(key)): \($0)" } }
            return written.count == entries.count ? "[" + written.joined(separator: ", ") + "]" : nil
        default: return nil
        }
    }

    /// How a type already declared is written (the records of an open record's fields are, by
    /// the time its coding is written).
    private func typeNameWithoutDeclaring(_ type: ScriptType) -> String {
        var copy = self
        return copy.typeName(type)
    }

    /// Whether `record` holds itself, directly or through other records, other than in an array
    /// or a dictionary (whose elements are stored apart).
    static func containsItself(_ record: RecordType) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        func reaches(_ type: ScriptType) -> Bool {
            switch type {
            case .optional(let wrapped): return reaches(wrapped)
            case .record(let other):
                if other === record { return true }
                guard seen.insert(ObjectIdentifier(other)).inserted else { return false }
                return other.fields.contains { reaches($0.type) }
            default: return false
            }
        }
        return record.fields.contains { reaches($0.type) }
    }

    private mutating func uniqueTypeName(_ base: String) -> String {
        SwiftNames.uniqueType(base, taken: &usedNames)
    }

    /// `JSONValue`: decoding always; for a package, public, `Codable` and `Hashable` (request bodies of
    /// any JSON are encoded).
    package static func jsonValueLines(_ style: Style) -> [String] {
        let access = style.access
        var lines = [
            style.initializer ? "/// Any JSON value: where the document allows more than one kind." : "/// A value whose kind varied in the response.",
            "\(access)enum JSONValue: \(style.initializer ? "Codable, Sendable, Hashable" : "Decodable, Sendable") {",
            "    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])",
            "",
            "    \(access)init(from decoder: any Decoder) throws {",
            "        let container = try decoder.singleValueContainer()",
            "        if container.decodeNil() { self = .null }",
            "        else if let value = try? container.decode(Bool.self) { self = .bool(value) }",
            "        else if let value = try? container.decode(Double.self) { self = .number(value) }",
            "        else if let value = try? container.decode(String.self) { self = .string(value) }",
            "        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }",
            "        else { self = .object(try container.decode([String: JSONValue].self)) }",
            "    }",
        ]
        if style.initializer {
            lines += [
                "",
                "    /// The JSON `value` encodes as: a model a response gave, sent back in a body.",
                "    \(access)init(encoding value: some Encodable) throws {",
                "        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))",
                "    }",
                "",
                "    \(access)func encode(to encoder: any Encoder) throws {",
                "        var container = encoder.singleValueContainer()",
                "        switch self {",
                "        case .null: try container.encodeNil()",
                "        case .bool(let value): try container.encode(value)",
                "        case .number(let value): try container.encode(value)",
                "        case .string(let value): try container.encode(value)",
                "        case .array(let value): try container.encode(value)",
                "        case .object(let value): try container.encode(value)",
                "        }",
                "    }",
                "}",
                "",
                "/// JSON written as Swift literals: `[\"name\": \"Ada\", \"tags\": [\"a\"]]`.",
                "extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,",
                "    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {",
                "    \(access)init(stringLiteral value: String) { self = .string(value) }",
                "    \(access)init(integerLiteral value: Int) { self = .number(Double(value)) }",
                "    \(access)init(floatLiteral value: Double) { self = .number(value) }",
                "    \(access)init(booleanLiteral value: Bool) { self = .bool(value) }",
                "    \(access)init(arrayLiteral elements: JSONValue...) { self = .array(elements) }",
                "    \(access)init(dictionaryLiteral elements: (String, JSONValue)...) {",
                "        self = .object(Dictionary(elements) { _, last in last })",
                "    }",
            ]
        }
        return lines + ["}"]
    }

    /// `enum CodingKeys: String, CodingKey { … }` for fields whose names are not their keys, at
    /// `indent`; nothing when every name is its key.
    package static func codingKeys(_ fields: [(name: String, key: String)], indent: String = "    ") -> [String] {
        guard fields.contains(where: { $0.name != $0.key }) else { return [] }
        return ["", "\(indent)enum CodingKeys: String, CodingKey {"]
            + fields.map { "\(indent)    case \(SwiftNames.escaped($0.name))" + ($0.name == $0.key ? "" : " = \(ValueFormatter.quoted($0.key))") }
            + ["\(indent)}"]
    }
}
