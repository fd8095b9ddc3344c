import Foundation

/// A GraphQL service as a session knows it: its schema, where its operations are sent, and the
/// validator that checks operations against it.
package struct GraphQLService: Sendable {
    package var schema: GraphQLSchemaModel
    package var validator: SchemaValidator
    /// The path operations are posted to, on the session's origin or `server`'s: `/graphql`.
    package var path: String
    /// Where the schema came from, for messages: a file name or URL.
    package var name: String

    package init(schema: GraphQLSchemaModel, validator: SchemaValidator, path: String, name: String) {
        self.schema = schema
        self.validator = validator
        self.path = path
        self.name = name
    }

    /// Texts of operations found valid against this schema before, when a cache keeps them.
    package var validTexts: ValidOperations?

    /// The typer of operations against this schema.
    package var typer: OperationTyper { OperationTyper(schema: schema, validator: validator) }

    /// The operations of `text`: checked by the specification's rules unless the cache says this
    /// text passed them before, and remembered when it passes now.
    package func operations(in text: String, name: String, anonymousName: String = "graphql") throws(GraphQLProblems)
        -> (operations: [GraphQLOperation], warnings: [GraphQLProblem]) {
        let known = validTexts?.contains(text) ?? false
        let result = try typer.operations(in: text, name: name, anonymousName: anonymousName, validated: known)
        if !known { validTexts?.insert(text) }
        return result
    }
}
