import APIScript

/// Swift declarations for a type model: a `Decodable` struct per record, `CodingKeys` where a
/// field's JSON key is not its name, and a small `JSONValue` enum where a place holds dynamic JSON.
///
/// It writes whatever built the model — a JSON sample (`:model`) or the host's own Swift types —
/// the same way. Each record is declared once, under its name or, when another record already
/// took that name (or it is one of Swift's), the name with a number (`Owner2`); a record that
/// contains itself is declared before its fields are written, so recursion ends.
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

    package init(style: Style) {
        self.style = style
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
        return (style.initializer ? Self.codableJSONValueDeclaration : Self.jsonValueDeclaration).joined(separator: "\n")
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
        if writer.needsJSONValue { lines.append(""); lines.append(contentsOf: jsonValueDeclaration) }
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
        case .any, .function:
            needsJSONValue = true
            return "JSONValue?"
        case .optional(let wrapped):
            let name = typeName(wrapped)
            return name.hasSuffix("?") ? name : name + "?"
        case .array(let element): return "[" + typeName(element) + "]"
        case .dictionary(let value): return "[String: " + typeName(value) + "]"
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
        var lines = ["\(style.access)struct \(name): \(style.conformances) {"]
        var parameters: [String] = []
        for field in fields {
            let type = typeName(field.type)
            let name = SwiftNames.escaped(field.name)
            lines.append("    \(style.access)\(style.initializer ? "var" : "let") \(name): \(type)")
            // A parameter named `self` would hide the instance: its inner name is `selfValue`.
            parameters.append((field.name == "self" ? "`self` selfValue" : name) + ": \(type)" + (type.hasSuffix("?") ? " = nil" : ""))
        }
        if style.initializer {
            lines.append("")
            lines.append("    \(style.access)init(\(parameters.joined(separator: ", "))) {")
            // `self.\`self\``: a field named like a keyword stays escaped after the dot too.
            for field in fields {
                lines.append("        self.\(SwiftNames.escaped(field.name)) = \(field.name == "self" ? "selfValue" : SwiftNames.escaped(field.name))")
            }
            lines.append("    }")
        }
        if fields.contains(where: { $0.name != $0.key }) {
            lines.append("")
            lines.append("    enum CodingKeys: String, CodingKey {")
            for field in fields {
                lines.append("        case \(SwiftNames.escaped(field.name))" + (field.name == field.key ? "" : " = \(ValueFormatter.quoted(field.key))"))
            }
            lines.append("    }")
        }
        lines.append("}")
        structs[position].lines = lines
        return name
    }

    private mutating func uniqueTypeName(_ base: String) -> String {
        let base = base.isEmpty ? "Model" : base
        var name = base
        var counter = 2
        while usedNames.contains(name) || SwiftNames.reservedTypes.contains(name) {
            name = base + String(counter)
            counter += 1
        }
        usedNames.insert(name)
        return name
    }

    /// `JSONValue` for a package: it encodes too (request bodies of any JSON).
    private static let codableJSONValueDeclaration = [
        "/// Any JSON value: where the document allows more than one kind.",
        "public enum JSONValue: Codable, Sendable, Hashable {",
        "    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])",
        "",
        "    public init(from decoder: any Decoder) throws {",
        "        let container = try decoder.singleValueContainer()",
        "        if container.decodeNil() { self = .null }",
        "        else if let value = try? container.decode(Bool.self) { self = .bool(value) }",
        "        else if let value = try? container.decode(Double.self) { self = .number(value) }",
        "        else if let value = try? container.decode(String.self) { self = .string(value) }",
        "        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }",
        "        else { self = .object(try container.decode([String: JSONValue].self)) }",
        "    }",
        "",
        "    public func encode(to encoder: any Encoder) throws {",
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
    ]

    private static let jsonValueDeclaration = [
        "/// A value whose kind varied in the response.",
        "enum JSONValue: Decodable, Sendable {",
        "    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])",
        "",
        "    init(from decoder: any Decoder) throws {",
        "        let container = try decoder.singleValueContainer()",
        "        if container.decodeNil() { self = .null }",
        "        else if let value = try? container.decode(Bool.self) { self = .bool(value) }",
        "        else if let value = try? container.decode(Double.self) { self = .number(value) }",
        "        else if let value = try? container.decode(String.self) { self = .string(value) }",
        "        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }",
        "        else { self = .object(try container.decode([String: JSONValue].self)) }",
        "    }",
        "}",
    ]
}
