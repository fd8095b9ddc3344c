#if GraphQL
import GraphQL
#endif

/// One problem of a GraphQL text (an operation, a schema), at its line and column in that text.
package struct GraphQLProblem: Sendable, Error, CustomStringConvertible {
    package var message: String
    /// 1-based, in the text; 0 where the text has no place for it.
    package var line: Int
    package var column: Int
    package var isWarning = false
    /// The nearest name, when one was unknown (GraphQL's "Did you mean …?").
    package var suggestion: String?

    package init(message: String, line: Int, column: Int, isWarning: Bool = false, suggestion: String? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.isWarning = isWarning
        self.suggestion = suggestion
    }

    #if GraphQL
    /// GraphQLSwift's error, its first letter lower-cased as Typist's messages are, its first
    /// suggestion kept.
    init(_ error: GraphQLError) {
        let location = error.locations.first
        var message = error.message
        if let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true {
            message = first.lowercased() + message.dropFirst()
        }
        self.init(message: message, line: location?.line ?? 0, column: location?.column ?? 0,
                  suggestion: Self.suggestion(in: error.message))
    }

    #endif

    /// `line 3, column 7: message`, or the message alone.
    package var description: String { (line > 0 ? "line \(line), column \(column): " : "") + message }

    #if GraphQL
    /// `line 3, column 7: ` for an error's first place, or nothing.
    static func place(of error: GraphQLError) -> String {
        error.locations.first.map { "line \($0.line), column \($0.column): " } ?? ""
    }
    #endif

    /// The first name in `Did you mean "name"?`.
    private static func suggestion(in message: String) -> String? {
        guard let range = message.range(of: "Did you mean ") else { return nil }
        let rest = message[range.upperBound...].drop { $0 == "\"" || $0 == " " }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }
}

/// An operations text with errors: every problem, at its place.
package struct GraphQLProblems: Error, CustomStringConvertible {
    package var problems: [GraphQLProblem]
    /// The text's name (`ops.graphql`), for messages.
    package var name: String

    package var description: String {
        problems.filter { !$0.isWarning }.map { "\(name):\($0.line):\($0.column): \($0.message)" }.joined(separator: "\n")
    }
}
