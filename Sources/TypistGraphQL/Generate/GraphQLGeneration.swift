import Foundation
import TypistCore
import TypistText

/// `typist generate --graphql-schema S --graphql-operations Q --output DIR`: TypedAPI Swift for
/// each operation; `--check` says whether committed files still match.
enum GraphQLGeneration {
    /// Writes or checks; the exit status.
    static func run(_ command: GenerateRequest, output: ShellOutput) async -> Int32 {
        guard let graphQL = command.graphQL else { return ExitStatus.usage }
        guard GraphQLSchemaError.readsGraphQL else {
            output.error("typist: \(GraphQLSchemaError.traitOff)\n")
            return ExitStatus.unavailable
        }
        let service: GraphQLService
        var operations: [GraphQLOperation] = []
        do {
            service = try GraphQLSchemaCache.service(file: command.location, path: graphQL.path)
            for warning in service.schema.warnings { output.error("warning: \(warning)\n") }
            for file in graphQL.operations {
                let (found, warnings) = try GraphQLLoader.operations(inFile: file, service: service)
                for warning in warnings { output.error("warning: \(TerminalText.sanitized(file)):\(warning.line):\(warning.column): \(warning.message)\n") }
                operations += found
            }
        } catch {
            output.error("typist: \(error)\n")
            return ExitStatus.dataError
        }
        // Two operations of one name would be one function.
        var seen: Set<String> = []
        if let twice = operations.first(where: { !seen.insert($0.functionName).inserted }) {
            output.error("typist: two operations are named \(twice.name ?? twice.functionName); each needs a name of its own\n")
            return ExitStatus.dataError
        }
        let kind: String = switch command.defaultAuth?.lowercased() {
        case "bearer"?: "Bearer"
        case "basic"?: "Basic"
        default: "Public"
        }
        let origin = ([command.location] + graphQL.operations).map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let generator = GraphQLSwiftGenerator(operations: operations, kind: kind, path: graphQL.path, origin: origin)
        let files = generator.files()
        let outcome = GeneratedFolder.write(files.map { ($0.path, $0.text) }, to: command.output, check: command.check, source: origin, output: output)
        if case .finished(let status) = outcome { return status }
        output.standard("wrote \(files.count) files for \(operations.count) GraphQL operations to \(command.output)\(outcome.removedNote)\n")
        return ExitStatus.success
    }
}
