import TypistText

extension GraphQLSchemaModel {
    /// What `:describe` shows of a type (`Repository`) or a root field (`Query.repository`, or
    /// `repository` where no function has that name): fields with their arguments, descriptions
    /// and deprecations; nil when the schema has neither.
    package func describe(_ name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, let type = types[parts[0]], let field = type.field(named: parts[1]) {
            return describe(field, of: type.name)
        }
        if let type = types[name] { return describe(type) }
        for root in [queryType, mutationType].compactMap({ $0 }) {
            if let type = types[root], let field = type.field(named: name) { return describe(field, of: root) }
        }
        return nil
    }

    private func describe(_ type: NamedType) -> String {
        var lines: [String] = []
        let kindName = switch type.kind {
        case .object: "type"
        case .interface: "interface"
        case .union: "union"
        case .enumeration: "enum"
        case .inputObject: "input"
        case .scalar: "scalar"
        }
        var head = "\(kindName) \(type.name)  (GraphQL"
        if !type.interfaces.isEmpty { head += "; implements " + type.interfaces.joined(separator: ", ") }
        lines.append(head + ")")
        if let description = type.description { lines.append("  " + Self.oneLine(description)) }
        for field in type.fields { lines.append("  " + line(field)) }
        for field in type.inputFields { lines.append("  " + line(field)) }
        for value in type.enumValues {
            lines.append("  case \(value.name)" + (value.deprecation.map { "  (deprecated: \(Self.oneLine($0)))" } ?? ""))
        }
        if !type.possibleTypes.isEmpty {
            lines.append("  " + (type.kind == .union ? "members: " : "implemented by: ") + type.possibleTypes.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private func describe(_ field: Field, of owner: String) -> String {
        var lines = ["\(owner).\(field.name): \(field.type)  (GraphQL field)"]
        if let description = field.description { lines.append("  " + Self.oneLine(description)) }
        if let deprecation = field.deprecation { lines.append("  deprecated: " + Self.oneLine(deprecation)) }
        for argument in field.arguments { lines.append("  argument: " + line(argument)) }
        if let type = types[field.type.namedType], type.kind == .object || type.kind == .interface {
            lines.append("  \(type.name) has: " + type.fields.map(\.name).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ field: Field) -> String {
        let arguments = field.arguments.isEmpty ? "" : "(" + field.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        return "\(field.name)\(arguments): \(field.type)"
            + (field.description.map { "  — " + Self.oneLine($0) } ?? "")
            + (field.deprecation.map { "  (deprecated: \(Self.oneLine($0)))" } ?? "")
    }

    private func line(_ value: InputValue) -> String {
        "\(value.name): \(value.type)" + (value.defaultValue.map { " = \($0)" } ?? "")
            + (value.description.map { "  — " + Self.oneLine($0) } ?? "")
    }

    /// A description's first line, control characters escaped.
    static func oneLine(_ text: String) -> String {
        TerminalText.sanitized(text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "")
    }
}
