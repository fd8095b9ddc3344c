import APIScript
import Foundation
import LineEditor
import TypedAPI
import TypistText

/// One session from the command line, in three steps: ``resolve(_:_:mode:)`` reads what the
/// options and files ask for, ``start(_:_:transport:input:output:)`` finds where requests go and
/// makes the shell, ``run(_:mode:input:)`` runs the prompt, the script or the check.
extension ShellCommandLine {
    /// What a session does once started.
    package enum Mode {
        case prompt
        case run(String)
        case check(String)
        /// An extension's session (the workshop's `lesson N`): whether it reads a person's lines
        /// (and so gets the line editor at a terminal), and what it runs.
        case custom(readsLines: Bool, run: @Sendable (Session, ShellHost, (any LineSource)?) async -> Int32)
    }

    /// Why a session did not start: the message (after the host's name) and the exit status.
    struct StartFailure: Error {
        var message: String
        var status: Int32 = ExitStatus.usage
    }

    /// What the options and the files ask for, before anything starts.
    struct Request {
        var options: SessionOptions
        var mode: Mode
        var format: OutputFormat
        var variables: [(name: String, value: String)]
        var script: ScriptSource?
        var configuration: ShellConfiguration
    }

    /// A started session: its shell and what to stop when it ends.
    package struct Session {
        package var shell: Shell
        var environment: ServerEnvironment
        var endpointCount: Int
        var terminal: Bool
        var progress: ProgressLine
        /// The script of `run` and `check`.
        var script: ScriptSource
        var stopService: (@Sendable () async -> Void)?
    }

    static func execute(_ host: ShellHost, _ options: SessionOptions, transport: any HTTPTransport, mode: Mode,
                        input: (any LineSource)?, output: ShellOutput) async -> Int32 {
        let session: Session
        do throws(StartFailure) {
            let request = try resolve(options, host, mode: mode)
            session = try await start(request, host, transport: transport, input: input, output: output)
        } catch {
            output.error("\(host.name): \(error.message)\n")
            return error.status
        }
        var status = await run(session, host, mode: mode, input: input)
        // What a cassette recorded, written once the session ends (the prompt writes after each input too).
        if !session.shell.finishCassette(), status == ExitStatus.success { status = ExitStatus.failure }
        if let stop = session.stopService { await stop() }
        if processEndsAfterMain.withLock({ $0 }) {
            // The process is about to exit: leave the session's values for the kernel to reclaim
            // rather than free them one by one.
            parkedSessions.withLock { $0.append(session.shell) }
        }
        return status
    }

    /// Reads the options, the script and the configuration beside it.
    static func resolve(_ options: SessionOptions, _ host: ShellHost, mode: Mode) throws(StartFailure) -> Request {
        guard let format = OutputFormat(rawValue: options.format) else {
            throw StartFailure(message: "unknown format '\(options.format)'; choose pretty, json or table")
        }
        var variables: [(name: String, value: String)] = []
        for assignment in options.variables {
            guard let pair = NameValuePairs.pair(assignment) else {
                throw StartFailure(message: "--var takes name=value, not '\(assignment)'")
            }
            variables.append(pair)
        }
        // The script's text and the directory its configuration sits in.
        var script: ScriptSource?
        var directory = FileManager.default.currentDirectoryPath
        switch mode {
        case .run(let path), .check(let path):
            let text: String
            do {
                text = try ScriptFile.read(path)
            } catch {
                throw StartFailure(message: "cannot read '\(path)': \(error)")
            }
            // Named as given (`sub/x.api:2:9`): editors and CI annotate by the path.
            script = ScriptSource(name: path, text: text)
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { directory = folder }
        case .prompt, .custom:
            break
        }
        let configuration: ShellConfiguration
        do {
            configuration = try ShellConfiguration.load(near: directory)
        } catch {
            throw StartFailure(message: String(describing: error))
        }
        return Request(options: options, mode: mode, format: format, variables: variables, script: script,
                       configuration: configuration)
    }

    /// Finds where requests go (`--base-url`, `--env`, the configured default, or the host's own
    /// service) and makes the shell; a service started here is stopped again if the shell fails.
    static func start(_ request: Request, _ host: ShellHost, transport: any HTTPTransport,
                      input: (any LineSource)?, output: ShellOutput) async throws(StartFailure) -> Session {
        var registry: EndpointRegistry
        do {
            registry = try host.registry()
        } catch {
            throw StartFailure(message: "cannot start: \(error)", status: ExitStatus.software)
        }
        let options = request.options
        let configuration = request.configuration
        var baseURL = options.baseURL
        var environments = configuration.environments
        var documentEnvironment: String?
        // `check` sends nothing: a cassette is read only where calls are made.
        let isCheck: Bool = if case .check = request.mode { true } else { false }
        let cassette = isCheck ? nil : try options.cassetteSettings()
        // A document fetched by URL in a session with a cassette goes through the cassette, as
        // the calls do: recorded with them, and answered from it on replay (no network).
        var documentCassette: CassetteTransport?
        let fetchedDocument = [options.openAPI, options.graphQLSchema == nil ? options.graphQL : nil].contains { location in
            location.map { $0.hasPrefix("http://") || $0.hasPrefix("https://") } ?? false
        }
        if let cassette, fetchedDocument {
            do {
                documentCassette = try Shell.cassetteTransport(cassette.path, mode: cassette.mode, matching: cassette.matching, forwardingTo: transport)
            } catch {
                throw StartFailure(message: String(describing: error))
            }
        }
        if let location = options.openAPI {
            let document = try await loadDocument(location, options: options.document, tls: options.tls, host: host, output: output, transport: documentCassette ?? transport)
            do {
                if host.extensions.contains(where: { $0.loadDocument != nil && $0.documentReplacesEndpoints }) {
                    registry = try EndpointRegistry { }
                }
                let added = try registry.adding(document.registrations)
                registry = added.registry
                Self.warn(document.warnings + added.warnings, output: output)
                // The document's servers are environments too, after typist.json's.
                let named = Set(environments.map(\.name))
                environments += document.environments.filter { !named.contains($0.name) }
            } catch {
                throw StartFailure(message: "cannot use \(TerminalText.sanitized(URLParts.maskingUserinfo(location))): \(error)",
                                   status: ExitStatus.dataError)
            }
            // The document's first server, unless --base-url or --env says where.
            if baseURL == nil, options.environment == nil {
                if let first = document.environments.first {
                    documentEnvironment = first.name
                } else if case .check = request.mode {
                } else {
                    throw StartFailure(message: "\(TerminalText.sanitized(URLParts.maskingUserinfo(location))) names no server: pass --base-url URL")
                }
            }
        }
        var graphQLSetup: (@Sendable (Shell) throws -> Void)?
        if options.graphQL != nil || options.graphQLSchema != nil || !options.graphQLOperations.isEmpty {
            // A script's operations may sit beside it: `smoke.graphql` for `smoke.api`.
            var graphQLOptions = options
            if graphQLOptions.graphQLOperations.isEmpty, let beside = Self.operationsBeside(request.mode) {
                graphQLOptions.graphQLOperations = [beside]
            }
            let document = try await loadGraphQL(graphQLOptions, host: host, transport: documentCassette ?? transport)
            do {
                if options.openAPI == nil, host.extensions.contains(where: { $0.loadGraphQL != nil && $0.documentReplacesEndpoints }) {
                    registry = try EndpointRegistry { }
                }
                let added = try registry.adding(document.registrations)
                registry = added.registry
                Self.warn(document.warnings + added.warnings, output: output)
                let named = Set(environments.map(\.name))
                environments += document.environments.filter { !named.contains($0.name) }
            } catch {
                throw StartFailure(message: "cannot use the GraphQL operations: \(error)", status: ExitStatus.dataError)
            }
            if baseURL == nil, options.environment == nil, documentEnvironment == nil, let first = document.environments.first {
                documentEnvironment = first.name
            }
            graphQLSetup = document.sessionSetup
        }
        let environmentName = options.environment ?? documentEnvironment
            ?? (options.baseURL == nil ? configuration.defaultEnvironment : nil)
        var named: NamedEnvironment?
        if baseURL == nil, let environmentName {
            guard let environment = environments.first(where: { $0.name == environmentName }) else {
                let known = environments.map(\.name).joined(separator: ", ")
                throw StartFailure(message: "no environment named '\(environmentName)'"
                    + (known.isEmpty ? " (no typist.json found)" : "; known: \(known)"))
            }
            baseURL = environment.baseURL
            named = environment
        }
        // CURL_CA_BUNDLE and SSL_CERT_FILE are curl's: URLSession, which cannot take them, keeps its own store.
        let tls = SessionTLS(commandLine: options.tls, host: host.tls,
                             processCABundle: !transport.appliesTLSOptions
                                ? nil : SessionTLS.caBundle(in: ProcessInfo.processInfo.environment))
        let startTLS = tls.options(for: named)
        var stopService: (@Sendable () async -> Void)?
        // Set when no base URL was given and a replay-only cassette answers: like the built-in
        // service, no real service is reached, so its TLS settings do not apply.
        var answeredByCassette = false
        // A cassette that only replays needs no server: nothing is sent.
        let replaysOnly = cassette.map { settings in
            settings.mode == .none || (settings.mode == .once && FileManager.default.fileExists(atPath: settings.path))
        } ?? false
        if baseURL == nil {
            if case .check = request.mode {
                baseURL = "http://127.0.0.1:9"  // nothing is sent when checking
            } else if replaysOnly, let settings = cassette {
                // Nothing is sent: the cassette answers. The session's address is the one the
                // cassette was recorded from, so that `:curl` and errors show what was called.
                do {
                    let replay = try documentCassette
                        ?? Shell.cassetteTransport(settings.path, mode: settings.mode, matching: settings.matching, forwardingTo: transport)
                    documentCassette = replay
                    baseURL = replay.recordedOrigin ?? "http://127.0.0.1:9"
                } catch {
                    throw StartFailure(message: String(describing: error))
                }
                answeredByCassette = true
            } else if let startService = host.defaultService {
                do {
                    let service = try await startService()
                    baseURL = service.baseURL
                    stopService = service.stop
                } catch {
                    throw StartFailure(message: "cannot start the built-in service: \(error)", status: ExitStatus.software)
                }
            } else {
                throw StartFailure(message: "no base URL: pass --base-url URL or --env NAME (typist.json)")
            }
        }
        if stopService == nil, !answeredByCassette {
            do {
                try startTLS.validate()
                if !startTLS.isSystemDefault, !transport.appliesTLSOptions { throw URLSessionTransport.refusal(of: startTLS) }
            } catch {
                throw StartFailure(message: String(describing: error))
            }
        }
        do {
            var environment = try ServerEnvironment(name: environmentName ?? "default", url: baseURL ?? "")
            // The built-in service is plain HTTP on loopback: TLS options are for real services.
            if stopService == nil, !answeredByCassette { environment.tls = startTLS }
            let colors = !options.noColor && TerminalStyle.colorsEnabled(for: STDOUT_FILENO)
            // Every mode that reads a person's lines gets the line editor at a terminal: the prompt,
            // and a lesson's walk (`lesson N`).
            let readsLines: Bool = switch request.mode {
            case .prompt: true
            case .custom(let readsLines, _): readsLines
            default: false
            }
            let terminal = readsLines && input == nil && LineEditor.isInteractive
            let progress = ProgressLine()
            let shell = try Shell(registry: registry, environment: environment, transport: transport,
                                  output: terminal ? progress.output : output, format: request.format, colors: colors,
                                  environments: environments, headers: host.requestHeaders, delegate: host.delegate)
            shell.tlsSources = tls
            shell.validatesResponses = options.validate
            if let documentCassette {
                shell.useCassette(documentCassette)
            } else if let cassette {
                try shell.useCassette(cassette.path, mode: cassette.mode, matching: cassette.matching)
            }
            if !environment.tls.verifiesServer { output.error(SessionTLS.insecureWarning) }
            if let token = ProcessInfo.processInfo.environment["TYPIST_TOKEN"], !token.isEmpty {
                shell.setToken(token)
            }
            for commandLineExtension in host.extensions { commandLineExtension.prepare(shell, host) }
            try graphQLSetup?(shell)
            if let environmentName, options.baseURL == nil { try await shell.switchEnvironment(to: environmentName) }
            for (name, value) in request.variables { try await shell.define(name, .string(value)) }
            return Session(shell: shell, environment: environment, endpointCount: registry.endpoints.count,
                           terminal: terminal, progress: progress,
                           script: request.script ?? ScriptSource(name: "-", text: ""), stopService: stopService)
        } catch {
            if let stopService { await stopService() }
            throw StartFailure(message: String(describing: error))
        }
    }

    /// Reads `--openapi`'s document through the host's OpenAPI extension, a URL fetched through
    /// `transport` with the command line's (`tls`) and the host's TLS options.
    static func loadDocument(_ location: String, options: DocumentOptions, tls commandLineTLS: TLSOptions = .system, host: ShellHost,
                             output: ShellOutput, transport: any HTTPTransport) async throws(StartFailure) -> LoadedDocument {
        guard let load = host.extensions.firstNonNil(\.loadDocument) else {
            throw StartFailure(message: "this program reads no OpenAPI documents (a host adds them with ShellHost.withOpenAPI(), from TypistOpenAPI)")
        }
        let tls = SessionTLS(commandLine: commandLineTLS, host: host.tls,
                             processCABundle: !transport.appliesTLSOptions
                                ? nil : SessionTLS.caBundle(in: ProcessInfo.processInfo.environment)).options(for: nil)
        let credential: DocumentCredential?
        do {
            credential = try options.documentCredential(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw StartFailure(message: String(describing: error), status: ExitStatus.usage)
        }
        do {
            return try await load(location, options.defaultAuth, try options.serverVariableValues(), transport, tls, credential)
        } catch let error as DocumentUnreachable {
            // Nothing answered: the service is unavailable (EX_UNAVAILABLE), not its document wrong.
            throw StartFailure(message: error.description, status: ExitStatus.unavailable)
        } catch {
            let shown = TerminalText.sanitized(URLParts.maskingUserinfo(location))
            let text = String(describing: error)
            throw StartFailure(message: text.contains(shown) ? text : "cannot read \(shown): \(text)", status: ExitStatus.dataError)
        }
    }

    /// `smoke.graphql` beside `smoke.api` (for `run` and `check`), when it is there.
    static func operationsBeside(_ mode: Mode) -> String? {
        let script: String
        switch mode {
        case .run(let file), .check(let file): script = file
        default: return nil
        }
        guard script != "-", script.hasSuffix(".api") else { return nil }
        let beside = String(script.dropLast(4)) + ".graphql"
        return FileManager.default.fileExists(atPath: beside) ? beside : nil
    }

    /// Reads `--graphql`'s schema (by introspection, with `--openapi-auth`'s credential or else
    /// `$TYPIST_TOKEN` as a bearer token) or `--graphql-schema`'s, and `--graphql-operations`'s
    /// operations, through the host's GraphQL extension.
    static func loadGraphQL(_ options: SessionOptions, host: ShellHost, transport: any HTTPTransport) async throws(StartFailure) -> LoadedDocument {
        try await loadGraphQL(GraphQLLoadRequest(endpoint: options.graphQL, schema: options.graphQLSchema, operations: options.graphQLOperations),
                              document: options.document, tls: options.tls, host: host, transport: transport)
    }

    /// The same for any command: `cassette verify`'s `--graphql-schema` too.
    static func loadGraphQL(_ request: GraphQLLoadRequest, document: DocumentOptions, tls commandLineTLS: TLSOptions, host: ShellHost,
                            transport: any HTTPTransport) async throws(StartFailure) -> LoadedDocument {
        guard let load = host.extensions.firstNonNil(\.loadGraphQL) else {
            throw StartFailure(message: "this program reads no GraphQL schemas (a host adds them with ShellHost.withGraphQL(), from TypistGraphQL)")
        }
        let environment = ProcessInfo.processInfo.environment
        let credential: DocumentCredential?
        do {
            credential = try document.documentCredential(environment: environment)
                ?? environment["TYPIST_TOKEN"].flatMap { $0.isEmpty ? nil : DocumentCredential.bearer(AccessToken($0)) }
        } catch {
            throw StartFailure(message: String(describing: error), status: ExitStatus.usage)
        }
        let tls = SessionTLS(commandLine: commandLineTLS, host: host.tls,
                             processCABundle: !transport.appliesTLSOptions ? nil : SessionTLS.caBundle(in: environment)).options(for: nil)
        do {
            return try await load(request, transport, tls, credential)
        } catch let error as DocumentUnreachable {
            throw StartFailure(message: error.description, status: ExitStatus.unavailable)
        } catch let error as MissingFeature {
            throw StartFailure(message: error.description, status: ExitStatus.unavailable)
        } catch {
            throw StartFailure(message: String(describing: error), status: ExitStatus.dataError)
        }
    }

    /// Writes a document's warnings, the first ten, then how many more.
    private static func warn(_ warnings: [String], output: ShellOutput) {
        let shown = 10
        for warning in warnings.prefix(shown) { output.error("warning: \(warning)\n") }
        if warnings.count > shown { output.error("warning: … and \(warnings.count - shown) more like these\n") }
    }

    /// Runs the prompt (in a terminal, from a line source or piped), the script, or the check.
    static func run(_ session: Session, _ host: ShellHost, mode: Mode, input: (any LineSource)?) async -> Int32 {
        let shell = session.shell
        switch mode {
        case .run:
            // Ctrl-C and SIGTERM end a script, however busy, with 130 and 143.
            // What a cassette recorded is written first (a script interrupted mid-recording keeps it).
            let endings = Self.exitOnSignals([(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)],
                                             beforeExit: Self.cassetteWriter(shell))
            defer { withExtendedLifetime(endings) {} }
            return await shell.run(session.script)
        case .check:
            let diagnostics = shell.check(session.script)
            shell.report(diagnostics)
            return diagnostics.contains { $0.severity == .error } ? ExitStatus.dataError : ExitStatus.success
        case .custom(_, let run):
            return await run(session, host, input)
        case .prompt:
            if let note = host.lessonsWithoutWorkshopNote { shell.output.error(note + "\n") }
            let banner = "\(host.name) \(host.version) — \(session.endpointCount) endpoints at \(session.environment.baseURL). :help for help, :quit to leave."
            return await prompt(session, host, input: input, banner: banner)
        }
    }

    /// Reads lines from `input`, the terminal (with the line editor), or a pipe (as a script runs).
    package static func prompt(_ session: Session, _ host: ShellHost, input: (any LineSource)?, banner: String?) async -> Int32 {
        let shell = session.shell
        if let input { return await shell.runPrompt(input, name: host.name) }
        if session.terminal {
            return await shell.runPrompt(TerminalLineSource(shell: shell, name: host.name, progress: session.progress),
                                         banner: banner, name: host.name)
        }
        // Piped input runs as a script does; Ctrl-C ends it with status 130, SIGTERM with 143.
        let endings = Self.exitOnSignals([(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)],
                                         beforeExit: Self.cassetteWriter(shell))
        defer { withExtendedLifetime(endings) {} }
        return await shell.runPiped(PipedInput())
    }

    /// Writes the session's cassette as a signal ends the process, if one records then (`--cassette`
    /// or a `:record` in piped input).
    private static func cassetteWriter(_ shell: Shell) -> @Sendable () -> Void {
        { _ = shell.finishCassette() }
    }
}
