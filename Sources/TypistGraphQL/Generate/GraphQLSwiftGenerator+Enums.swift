import APIScript
import TypistCore

/// The enums variables take, as Swift: one `Enums/Name.swift` each, named so no type the files use
/// is shadowed.
extension GraphQLSwiftGenerator {
    /// The enums the operations' variables take, each once, by name.
    var enumerations: [HostEnumeration] {
        Self.enumerations(of: operations)
    }

    static func enumerations(of operations: [GraphQLOperation]) -> [HostEnumeration] {
        var seen: Set<String> = []
        return operations.flatMap { $0.variables.compactMap(\.enumeration) }.filter { seen.insert($0.typeName).inserted }
            .sorted { $0.typeName < $1.typeName }
    }

    /// The names the generated files use besides the enums: a GraphQL enum of one of these names
    /// (`Error`, `Data`, `Group`) is declared with a number (`Error2`), not over the one they mean.
    var namesInUse: Set<String> {
        SwiftNames.reservedTypes.union([
            "Error", "Encodable", "Codable", "CaseIterable", "CodingKey", "Decoder", "Foundation", "TypedAPI", "Typist",
            "GraphQLRequestBody", "GraphQLNoVariables", "GraphQLErrors", "GraphQLEnvelope", "ResponseDecoding",
            "Endpoint", "Public", "Bearer", "Basic", "Group", "Register", "Parameter", "ScriptArgument", "JSONScriptArgument",
        ]).union(operations.map { Self.typeName($0) }).union(operations.map { Self.typeName($0) + "Variables" })
            .union(fragments.map { Self.lastComponent($0.type.name) })
    }

    /// Each enum's Swift name: its GraphQL name unless the files use that name already (made once,
    /// when the generator is).
    static func enumNames(of operations: [GraphQLOperation], namesInUse: Set<String>) -> [String: String] {
        var taken = namesInUse
        var names: [String: String] = [:]
        for enumeration in enumerations(of: operations) { names[enumeration.typeName] = SwiftNames.uniqueType(enumeration.typeName, taken: &taken) }
        return names
    }

    /// A GraphQL enum as Swift: its values the cases, each its own raw value (as the service spells it).
    func enumLines(_ enumeration: HostEnumeration) -> [String] {
        ["/// The GraphQL enum `\(enumeration.typeName)`, as variables take it.",
         "public enum \(enumNames[enumeration.typeName] ?? enumeration.typeName): String, Codable, Sendable, CaseIterable {"]
            + enumeration.cases.map { "    case \(SwiftNames.escaped($0.name))" }
            + ["}"]
    }

    /// A variable's Swift type: its enum (`[IssueState]?`) where it takes one's cases.
    func variableType(_ variable: GraphQLOperation.Variable) -> String {
        guard let enumeration = variable.enumeration else { return swiftType(variable.scriptType, in: nil) }
        return variable.enumSwiftType(named: enumNames[enumeration.typeName] ?? enumeration.typeName)
    }
}
