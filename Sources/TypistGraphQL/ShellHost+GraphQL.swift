import TypistCore

extension ShellHost {
    /// This host with GraphQL services: `--graphql URL`, `--graphql-schema FILE` and
    /// `--graphql-operations FILE` on the prompt, `run` and `check`, and `:graphql` at the prompt.
    /// Each named query and mutation becomes a function; `graphql(_:)` runs one written in a script.
    ///
    /// - Parameter replacingEndpoints: Whether a service's operations are the session's only
    ///   endpoints (`typist`'s demo endpoints make no sense against another API); by default they
    ///   come after the host's own.
    public func withGraphQL(replacingEndpoints: Bool = false) -> ShellHost {
        var host = self
        var graphQL = HostExtension(prepare: { shell, _ in shell.add(commands: [GraphQLCommand.command], after: "openapi") })
        graphQL.loadGraphQL = { request, transport, tls, credential in
            try await GraphQLLoader.load(request, transport: transport, tls: tls, credential: credential)
        }
        graphQL.generateGraphQL = { request, output in await GraphQLGeneration.run(request, output: output) }
        graphQL.documentReplacesEndpoints = replacingEndpoints
        host.extensions.append(graphQL)
        return host
    }
}
