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
        var openAPI = HostExtension.openAPI
        openAPI.documentReplacesEndpoints = replacingEndpoints
        host.extensions.append(openAPI)
        return host
    }
}

extension HostExtension {
    static let openAPI: HostExtension = {
        var openAPI = HostExtension(prepare: { shell, _ in shell.add(commands: [OpenAPICommand.command], after: "model") })
        openAPI.generate = { request, output in await DocumentGeneration.run(request, output: output) }
        openAPI.loadDocument = { location, defaultAuth, serverVariables, transport, tls, credential in
            let document = try await OpenAPIDocument.load(location, defaultAuth: defaultAuth, serverVariables: serverVariables,
                                                          transport: transport, tls: tls, credential: credential)
            return LoadedDocument(registrations: document.registrations, servers: document.servers, warnings: document.warnings,
                                  environments: document.environments)
        }
        return openAPI
    }()
}
