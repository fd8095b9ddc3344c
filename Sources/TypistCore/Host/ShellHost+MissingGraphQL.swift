extension ShellHost {
    /// This host saying `reason` wherever GraphQL is asked for — `--graphql`, `--graphql-schema`,
    /// `--graphql-operations` (or a `.graphql` file beside a script), `generate --graphql-schema`,
    /// `cassette verify --graphql-schema` and `:graphql` — instead of not knowing the words:
    /// `typist` built without the package's `GraphQL` trait, which says how to build it with.
    package func withMissingGraphQL(_ reason: String) -> ShellHost {
        var host = self
        var missing = HostExtension(prepare: { shell, _ in
            shell.add(commands: [MetaCommand("graphql", usage: MetaCommand.graphQLUsage,
                                             "add a GraphQL service (not in this build: :graphql says how to get it)",
                                             argument: .text) { shell, _ in
                shell.fail(reason)
                return false
            }], after: "openapi")
        })
        missing.loadGraphQL = { _, _, _, _ in throw MissingFeature(reason) }
        missing.generateGraphQL = { _, output in
            output.error("typist: \(reason)\n")
            return ExitStatus.unavailable
        }
        host.extensions.append(missing)
        return host
    }
}

extension MetaCommand {
    /// `:graphql`'s usage, the same whether the build reads GraphQL or says how to build it in.
    package static let graphQLUsage = ":graphql url|schema-file [--operations file.graphql …] [--endpoint url]"
}

/// A part this build of the program left out (a package trait that was off), with how to build it in.
package struct MissingFeature: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
