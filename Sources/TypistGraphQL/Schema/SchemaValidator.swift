#if GraphQL
import GraphQL
#endif
import Synchronization

/// Checks operations against a schema by the GraphQL specification's rules, with GraphQLSwift's
/// validation. Its schema is built the first time something is checked: a session that reads a
/// schema (from the cache) and checks no operation never pays for it.
package final class SchemaValidator: Sendable {
    private let sdl: @Sendable () -> String
    #if GraphQL
    private let built = Mutex<Result<GraphQLSchema, GraphQLSchemaError>?>(nil)

    /// - Parameter sdl: The schema's SDL, asked for once.
    package init(sdl: @escaping @Sendable () -> String) {
        self.sdl = sdl
    }

    /// Every error of `document` by the specification's rules, at its place.
    ///
    /// - Throws: A ``GraphQLSchemaError`` when the schema itself cannot be built.
    func validate(_ document: Document) throws(GraphQLSchemaError) -> [GraphQLProblem] {
        let schema = try schema()
        return GraphQL.validate(schema: schema, ast: document).map(GraphQLProblem.init)
    }

    private func schema() throws(GraphQLSchemaError) -> GraphQLSchema {
        if let result = built.withLock({ $0 }) { return try result.get() }
        let result: Result<GraphQLSchema, GraphQLSchemaError>
        do {
            // Rules a service evidently lives with (a field defined twice) are not the client's to refuse.
            result = .success(try buildSchema(source: sdl(), assumeValidSDL: true))
        } catch let error as GraphQLError {
            result = .failure(GraphQLSchemaError("\(GraphQLProblem.place(of: error))\(error.message)"))
        } catch {
            result = .failure(GraphQLSchemaError("\(error)"))
        }
        built.withLock { $0 = result }
        return try result.get()
    }
    #else
    package init(sdl: @escaping @Sendable () -> String) { self.sdl = sdl }
    #endif
}
