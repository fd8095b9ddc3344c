import Typist
import TypistCore

extension ShellHost {
    /// This host with OpenAPI documents: `--openapi SPEC` (and `--default-auth`) on the prompt,
    /// `run` and `check` add the document's operations to the host's own endpoints.
    ///
    /// - Parameter replacingEndpoints: Whether a document's operations are the session's only
    ///   endpoints (`typist`'s demo endpoints make no sense against another API); by default they
    ///   come after the host's own.
    public func withOpenAPI(replacingEndpoints: Bool = false) -> ShellHost {
        var host = self
        var openAPI = CommandLineExtension.openAPI
        openAPI.documentReplacesEndpoints = replacingEndpoints
        host.extensions.append(openAPI)
        return host
    }
}

extension CommandLineExtension {
    static let openAPI: CommandLineExtension = {
        var openAPI = CommandLineExtension(
            subcommands: [GenerateCommand.self],
            outcome: { command, _, output in
                guard let generate = command as? GenerateCommand else { return nil }
                return .running { await GenerateCommand.run(generate, output: output) }
            },
            prepare: { shell, _ in shell.add(commands: [OpenAPICommand.command], after: "model") })
        openAPI.loadDocument = { location, defaultAuth, serverVariables, transport, tls, credential in
            let document = try await OpenAPIDocument.load(location, defaultAuth: defaultAuth, serverVariables: serverVariables,
                                                          transport: transport, tls: tls, credential: credential)
            return LoadedDocument(registrations: document.registrations, servers: document.servers, warnings: document.warnings,
                                  environments: document.environments)
        }
        return openAPI
    }()
}
