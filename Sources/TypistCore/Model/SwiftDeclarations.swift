import APIScript

/// Swift declarations for a type model: a `Decodable` struct per record, `CodingKeys` where a
/// field's JSON key is not its name, and a small `JSONValue` enum where a place holds dynamic JSON.
///
/// It writes whatever built the model — a JSON sample (`:model`) or the host's own Swift types —
/// the same way. Each record is declared once, under its name or, when another record already
/// took that name (or it is one of Swift's), the name with a number (`Owner2`); a record that
/// contains itself is declared before its fields are written, so recursion ends.
struct SwiftDeclarations {
    private var structs: [(name: String, lines: [String])] = []
    private var declared: [ObjectIdentifier: String] = [:]
    private var usedNames: Set<String> = []
    private var needsJSONValue = false

    /// `:model`'s text: the declarations for `type`, after a header saying how to decode it.
    static func render(_ type: ScriptType) -> String {
        var writer = SwiftDeclarations()
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
        var lines = ["struct \(name): Decodable, Sendable {"]
        for field in fields { lines.append("    let \(SwiftNames.escaped(field.name)): \(typeName(field.type))") }
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
