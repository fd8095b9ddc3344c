import APIScript
import TypedAPI
import TypistCore

/// `graphql(_:)`: an operation written in the script. With a string literal the checker types it
/// before anything runs — the schema's rules checked at their places in the text, the variables
/// the call's labels (`graphql("""query($login: String!) { user(login: $login) { name } }""",
/// login: "octocat")`), the result a record of the selection. Any other text is checked when the
/// call runs, its variables in `variables:`, its result the same record.
enum InlineQueries {
    static let name = "graphql"

    static func register(in shell: Shell, service: GraphQLService, server: ServerEnvironment?) throws {
        var function = HostFunction(
            name: name,
            parameters: [
                .init(label: nil, name: "query", type: .string),
                .init(label: "variables", type: .dictionary(.any), defaultValue: .dictionary([:])),
            ],
            returnType: .any,
            summary: "Run a GraphQL query or mutation written here; with a literal it is checked against the schema and typed before it runs, "
                + "its variables passed as labels: graphql(\"\"\"query($login: String!) { user(login: $login) { name } }\"\"\", login: \"octocat\")"
        ) { [weak shell] values in
            guard let shell, values.count == 2, case .string(let text) = values[0] else { return .null }
            let operation = try single(in: text, service: service)
            let entries: [String: Value] = if case .dictionary(let entries) = values[1] { entries } else { [:] }
            if let unknown = entries.keys.sorted().first(where: { key in !operation.variables.contains { $0.name == key } }) {
                throw GraphQLSchemaError("graphql(_:variables:): the operation declares no variable '\(unknown)'"
                    + (operation.variables.isEmpty ? "" : "; it declares " + operation.variables.map { "$" + $0.name }.joined(separator: ", ")))
            }
            let endpoint = GraphQLEndpoint.make(operation, service: service, takesText: true, server: server)
            let arguments = [Value.string(text)] + operation.variables.map { entries[$0.name] ?? .null }
            return try await shell.callingFunction(for: endpoint).body(arguments)
        }
        // A text the checker could not read (not a literal) has no Swift to write.
        function.swiftUnsupported = "graphql(_:) with a text that is not a literal has no Swift of its own: write the operation as a literal, "
            + "or give it a name in a .graphql file (--graphql-operations), whose function :swift and typist generate write"
        function.specialization = { [weak shell] text in
            guard let shell else { return LiteralSpecialization(function: nil, problems: []) }
            do throws(GraphQLProblems) {
                let (operations, warnings) = try service.operations(in: text, name: "query", anonymousName: name)
                guard operations.count == 1, let operation = operations.first else {
                    return LiteralSpecialization(function: nil, problems: [.init(
                        message: "graphql(_:) runs one operation; this text has \(operations.count) (a .graphql file with --graphql-operations makes each a function)",
                        line: 1, column: 1)])
                }
                let endpoint = GraphQLEndpoint.make(operation, service: service, takesText: true, server: server)
                var specialized = shell.callingFunction(for: endpoint)
                // `:swift` writes it as the endpoint of that operation, named `graphql`, its variables the labels.
                specialized.swiftEndpoint = GraphQLEndpoint.make(operation, service: service, takesText: false, server: server)
                return LiteralSpecialization(function: specialized, problems: warnings.map(problem))
            } catch {
                return LiteralSpecialization(function: nil, problems: error.problems.map(problem))
            }
        }
        try shell.register(function)
    }

    /// Tab inside `graphql("…` or `graphql("""…`: the fields of the selection the text ends in.
    static func completions(before text: String, schema: GraphQLSchemaModel) -> PromptCompletion? {
        guard let call = text.range(of: name + "(", options: .backwards) else { return nil }
        var rest = text[call.upperBound...].drop { $0 == " " }
        let multiLine = rest.hasPrefix("\"\"\"")
        guard multiLine || rest.hasPrefix("\"") else { return nil }
        rest = rest.dropFirst(multiLine ? 3 : 1)
        // Still inside the literal: no closing quote yet (an escaped one is the query's).
        var query = ""
        var escaped = false
        for character in rest {
            if escaped {
                query.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                if !multiLine { return nil }
                query.append(character)
            } else {
                query.append(character)
            }
        }
        if multiLine, query.contains("\"\"\"") { return nil }
        let candidates = schema.fieldCompletions(endingAt: query)
        let partial = query.reversed().prefix { $0 == "_" || $0.isLetter || $0.isNumber }
        // Readline replaces the word after its last break character; a name is one word.
        return PromptCompletion(candidates: candidates.filter { !$0.hasPrefix("...") || partial.isEmpty }, appendsSpace: false)
    }

    private static func single(in text: String, service: GraphQLService) throws -> GraphQLOperation {
        let (operations, _) = try service.operations(in: text, name: "query", anonymousName: name)
        guard operations.count == 1, let operation = operations.first else {
            throw GraphQLSchemaError("graphql(_:) runs one operation; this text has \(operations.count)")
        }
        return operation
    }

    private static func problem(_ problem: GraphQLProblem) -> LiteralSpecialization.Problem {
        .init(message: problem.message, line: max(problem.line, 1), column: max(problem.column, 1), isWarning: problem.isWarning,
              suggestion: problem.suggestion)
    }
}
