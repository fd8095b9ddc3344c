/// The cache's form of a ``GraphQLSchemaModel``: one line per type, field, argument, input field
/// and enum value, tab-separated, read back in a single pass over its bytes (Foundation's
/// `JSONDecoder` took as long to read GitHub's model as parsing its SDL).
///
/// An optional text is empty when absent and starts with `=` when present; a tab, a newline
/// and a backslash inside a text are escaped.
enum SchemaModelFile {
    static let header = "typist-graphql-schema 1"

    static func encode(_ schema: GraphQLSchemaModel) -> String {
        var text = header + "\n"
        text += "R\t" + [schema.queryType, schema.mutationType, schema.subscriptionType].map(optional).joined(separator: "\t") + "\n"
        for warning in schema.warnings { text += "W\t" + escape(warning) + "\n" }
        for name in schema.types.keys.sorted() {
            guard let type = schema.types[name] else { continue }
            text += ["T", type.kind.rawValue, escape(type.name), optional(type.description),
                     escape(type.interfaces.joined(separator: ",")), escape(type.possibleTypes.joined(separator: ","))].joined(separator: "\t") + "\n"
            for field in type.fields {
                text += ["F", escape(field.name), field.type.description, optional(field.description), optional(field.deprecation)]
                    .joined(separator: "\t") + "\n"
                for argument in field.arguments { text += line("A", argument) }
            }
            for field in type.inputFields { text += line("I", field) }
            for value in type.enumValues {
                text += ["E", escape(value.name), optional(value.description), optional(value.deprecation)].joined(separator: "\t") + "\n"
            }
        }
        return text
    }

    private static func line(_ tag: String, _ value: GraphQLSchemaModel.InputValue) -> String {
        [tag, escape(value.name), value.type.description, optional(value.defaultValue), optional(value.description), optional(value.deprecation)]
            .joined(separator: "\t") + "\n"
    }

    /// The model, or nil for a file that is not one (another version, damaged).
    static func decode(_ bytes: [UInt8]) -> GraphQLSchemaModel? {
        var lines = LineReader(bytes: bytes)
        guard let first = lines.next(), first.count == 1, first[0] == header else { return nil }
        var types: [String: GraphQLSchemaModel.NamedType] = [:]
        var roots: [String?] = [nil, nil, nil]
        var warnings: [String] = []
        var current: GraphQLSchemaModel.NamedType?
        func finish() {
            if let type = current { types[type.name] = type }
            current = nil
        }
        while let fields = lines.next() {
            guard let tag = fields.first else { return nil }
            switch tag {
            case "R":
                guard fields.count == 4 else { return nil }
                roots = fields.dropFirst().map(optionalValue)
            case "W":
                guard fields.count == 2 else { return nil }
                warnings.append(fields[1])
            case "T":
                guard fields.count == 6, let kind = GraphQLSchemaModel.Kind(rawValue: fields[1]) else { return nil }
                finish()
                var type = GraphQLSchemaModel.NamedType(name: fields[2], kind: kind, description: optionalValue(fields[3]))
                type.interfaces = fields[4].isEmpty ? [] : fields[4].split(separator: ",").map(String.init)
                type.possibleTypes = fields[5].isEmpty ? [] : fields[5].split(separator: ",").map(String.init)
                current = type
            case "F":
                guard fields.count == 5, current != nil, let type = reference(fields[2]) else { return nil }
                current?.fields.append(.init(name: fields[1], type: type, arguments: [], description: optionalValue(fields[3]),
                                             deprecation: optionalValue(fields[4])))
            case "A", "I":
                guard fields.count == 6, current != nil, let type = reference(fields[2]) else { return nil }
                let value = GraphQLSchemaModel.InputValue(name: fields[1], type: type, defaultValue: optionalValue(fields[3]),
                                                          description: optionalValue(fields[4]), deprecation: optionalValue(fields[5]))
                if tag == "I" {
                    current?.inputFields.append(value)
                } else {
                    guard let last = current?.fields.indices.last else { return nil }
                    current?.fields[last].arguments.append(value)
                }
            case "E":
                guard fields.count == 4, current != nil else { return nil }
                current?.enumValues.append(.init(name: fields[1], description: optionalValue(fields[2]), deprecation: optionalValue(fields[3])))
            default:
                return nil
            }
        }
        finish()
        return GraphQLSchemaModel(types: types, queryType: roots[0], mutationType: roots[1], subscriptionType: roots[2], warnings: warnings)
    }

    /// `[Issue!]!` read back.
    static func reference(_ text: String) -> GraphQLSchemaModel.TypeReference? {
        var text = Substring(text)
        return reference(&text, depth: 0).flatMap { text.isEmpty ? $0 : nil }
    }

    private static func reference(_ text: inout Substring, depth: Int) -> GraphQLSchemaModel.TypeReference? {
        guard depth < 32 else { return nil }
        var result: GraphQLSchemaModel.TypeReference
        if text.first == "[" {
            text = text.dropFirst()
            guard let inner = reference(&text, depth: depth + 1), text.first == "]" else { return nil }
            text = text.dropFirst()
            result = .list(inner)
        } else {
            let name = text.prefix { $0 != "!" && $0 != "]" }
            guard !name.isEmpty else { return nil }
            text = text.dropFirst(name.count)
            result = .named(String(name))
        }
        if text.first == "!" {
            text = text.dropFirst()
            result = .nonNull(result)
        }
        return result
    }

    private static func optional(_ text: String?) -> String { text.map { "=" + escape($0) } ?? "" }

    private static func optionalValue(_ field: String) -> String? { field.isEmpty ? nil : String(field.dropFirst()) }

    private static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\\" || $0 == "\r" }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The tab-separated fields of each line, escapes undone.
    private struct LineReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func next() -> [String]? {
            guard offset < bytes.count else { return nil }
            var fields: [String] = []
            var field: [UInt8] = []
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\n"):
                    fields.append(String(decoding: field, as: UTF8.self))
                    return fields
                case UInt8(ascii: "\t"):
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                case UInt8(ascii: "\\") where offset < bytes.count:
                    let escaped = bytes[offset]
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "t"): field.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "n"): field.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "r"): field.append(UInt8(ascii: "\r"))
                    default: field.append(escaped)
                    }
                default:
                    field.append(byte)
                }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            return fields
        }
    }
}
