extension GraphQLSchemaModel {
    /// The schema as SDL, for GraphQLSwift's validation: types, fields, arguments and their
    /// defaults, interfaces, members, enum values, input fields and the roots (descriptions left out).
    package var sdl: String {
        var text = "schema {"
        for (kind, name) in [("query", queryType), ("mutation", mutationType), ("subscription", subscriptionType)] {
            if let name { text += " \(kind): \(name)" }
        }
        text += " }\n"
        for name in types.keys.sorted() {
            guard let type = types[name] else { continue }
            switch type.kind {
            case .scalar:
                if !Self.builtInScalars.contains(name) { text += "scalar \(name)\n" }
            case .object, .interface:
                text += type.kind == .object ? "type \(name)" : "interface \(name)"
                if !type.interfaces.isEmpty { text += " implements " + type.interfaces.joined(separator: " & ") }
                text += " {\n"
                for field in type.fields {
                    text += "  \(field.name)"
                    if !field.arguments.isEmpty { text += "(" + field.arguments.map(Self.print).joined(separator: ", ") + ")" }
                    text += ": \(field.type)\n"
                }
                text += "}\n"
            case .union:
                text += "union \(name) = " + type.possibleTypes.joined(separator: " | ") + "\n"
            case .enumeration:
                text += "enum \(name) { " + type.enumValues.map(\.name).joined(separator: " ") + " }\n"
            case .inputObject:
                text += "input \(name) {\n" + type.inputFields.map { "  " + Self.print($0) + "\n" }.joined() + "}\n"
            }
        }
        return text
    }

    private static func print(_ value: InputValue) -> String {
        "\(value.name): \(value.type)" + (value.defaultValue.map { " = \($0)" } ?? "")
    }
}
