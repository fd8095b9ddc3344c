import Testing

/// The package traits this test build has. `GraphQL` is off by default (the plain `typist` build
/// pays nothing for it), so `swift test` skips the GraphQL suites and says so; `.ci/run` runs
/// the suite again with every trait on.
enum BuildTraits {
    /// Whether TypistGraphQL reads GraphQL here (GraphQLSwift linked).
    static var graphQL: Bool {
        #if GraphQL
        true
        #else
        false
        #endif
    }

    /// Why a GraphQL suite skipped, and how to run it.
    static let withoutGraphQL: Comment = "built without the package's GraphQL trait (off by default): swift test --traits default,GraphQL runs it"
}
