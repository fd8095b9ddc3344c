import APIScript
import Foundation
import TypedAPI
import TypistText

/// The shell: the registered endpoints as script functions, the session, and the commands.
///
/// One shell serves one session (a prompt, or a script run); it evaluates one input at a time.
/// It is `@unchecked Sendable` so that an evaluation can run in a task Ctrl-C cancels and Tab can
/// complete from the readline thread. Invariant: the mutable state (`format`, `transcript`,
/// `wantsToQuit`, `readSecret`, the interpreter's) is touched only by the one input under way,
/// which a turn keeps so (tested by `CoreConsoleTests`, "Inputs from several tasks of the app run
/// one after another, each whole"): every public entry (``evaluate(_:)``, ``handle(_:)``, ``run(_:)``,
/// ``runPiped(_:name:)-(String,_)``, ``check(_:)``, ``completions(before:)``) takes it, so inputs from several
/// tasks run one after another, and completion while an input runs offers nothing. What other
/// threads read while one runs (the secrets to mask, the last exchange) lives in its `Session`,
/// behind locks.
public final class Shell: @unchecked Sendable {
    /// The language interpreter, with the endpoints registered. Internal: a host evaluates through
    /// ``evaluate(_:)`` and ``run(_:)``, so the session's rollback, masking and transcript stay whole.
    let interpreter: Interpreter
    /// The registry the endpoints come from.
    public private(set) var registry: EndpointRegistry
    /// The typed client every call goes through.
    public let client: APIClient
    /// The host's transport, or a cassette over it (`--cassette`, `:record`).
    let sessionTransport: SessionTransport
    /// The transport the session's calls go through, beneath its cassette: what `:openapi`
    /// fetches a document with (with ``APIClient/environment``'s TLS options).
    package var documentTransport: any HTTPTransport { sessionTransport.base }
    /// The session's credentials now, for what is fetched beside the calls (a document).
    package var credentials: SessionCredentials { session.credentials }
    /// What this session holds: credentials, results, cookies, secrets (see ``Session``).
    let session = Session()
    /// The one way its calls go out (see ``CallRouter``).
    let router: CallRouter
    /// Held by the input under way (see ``oneInputAtATime(_:)``).
    let inputTurn = ScriptTurn()
    package let output: ShellOutput
    /// Where the shell's own text goes (lessons, help): unmasked, since it holds no session data,
    /// and a lesson that says `password = "lovelace"` must say it as written.
    package let ownTextOutput: ShellOutput
    /// Where output goes instead of the host's, while a lesson's transcript is collected.
    package let outputRedirect = OutputRedirect()
    /// The `:commands`: the core's, and those a module adds (the workshop's `:lesson`).
    package internal(set) var commandTable = MetaCommand.all
    /// What follows the prompt's inputs (the workshop's lesson walk).
    package internal(set) var inputObservers: [any InputObserver] = []
    /// More help by topic (the workshop's glossary), after the core's own.
    package internal(set) var helpProviders: [@Sendable (String) -> String?] = []
    /// What Tab offers inside string literals extensions read (``add(literalCompleter:)``).
    var literalCompleters: [@Sendable (String) -> PromptCompletion?] = []
    /// The host's headers for every request, User-Agent included; the session's `headers` come after.
    let hostHeaders: [HTTPHeader]
    /// How results are shown; with `.json`, `print` writes non-string values as JSON too. Set by
    /// the initializer and `:format`.
    public internal(set) var format: OutputFormat {
        didSet { applyFormat() }
    }
    /// Whether output may use colour.
    public let colors: Bool
    /// The configured environments.
    public let environments: [NamedEnvironment]
    /// Inputs that succeeded, for `:save`.
    var transcript: [TranscriptEntry] = []
    /// Set by `:quit`.
    public internal(set) var wantsToQuit = false
    /// Reads a secret without echo (for `:token` with no value); `nil` reads nothing. Set when a
    /// line source that can read one drives the shell.
    var readSecret: ((String) async -> String?)?
    /// Where the prompt reads its lines (for `:history` and `:clear`), while it runs.
    weak var lineSource: (any LineSource)?

    /// Creates a shell.
    ///
    /// - Parameters:
    ///   - registry: The host's endpoints.
    ///   - environment: Where requests go first.
    ///   - transport: What sends them.
    ///   - output: Where results and diagnostics go.
    ///   - format: How results are shown.
    ///   - colors: Whether to use colour.
    ///   - environments: Named environments from the configuration.
    ///   - headers: Headers sent with every request, before the session's `headers` and an
    ///     endpoint's own, which win; a `User-Agent: typist/<version>` is added unless one is given.
    ///   - delegate: The host's client delegate: it may sign, retry and observe every request.
    ///   - middlewares: The host's stages for every exchange the session sends (see
    ///     `APIClientMiddleware`), after the session's own: they see what is really
    ///     sent (no preview's), and nothing sent to another origin (`crossOrigin: true`).
    public init(registry: EndpointRegistry, environment: ServerEnvironment, transport: any HTTPTransport,
                output: ShellOutput = .process, format: OutputFormat = .pretty, colors: Bool = false,
                environments: [NamedEnvironment] = [], headers: [HTTPHeader] = [],
                delegate: (any APIClientDelegate)? = nil, middlewares: [any APIClientMiddleware] = []) throws {
        self.registry = registry
        // Everything the shell writes passes through the scrubber: no known secret leaves in clear.
        let session = session
        let redirect = outputRedirect
        self.output = ShellOutput(standard: { (redirect.current ?? output).standard(session.scrub($0)) },
                                  error: { text in
                                      let scrubbed = session.scrub(text)
                                      session.tapError(scrubbed)
                                      (redirect.current ?? output).error(scrubbed)
                                  })
        // Lesson and help text hold no session data: written as they are, never masked.
        self.ownTextOutput = ShellOutput(standard: { (redirect.current ?? output).standard($0) },
                                         error: { (redirect.current ?? output).error($0) })
        self.format = format
        self.colors = colors
        self.environments = environments
        // A User-Agent unless the host sent its own: some services (GitHub's) refuse requests without one.
        let headers = TypistVersion.headers(headers, withUserAgentOf: "typist", version: TypistVersion.current)
        hostHeaders = headers
        var configuration = APIClient.Configuration(headers: headers, timeout: .seconds(30))
        configuration.cookies = session.cookies
        configuration.middlewares = SessionLog.chain(for: session, host: middlewares)
        configuration.environments = try environments.map { named in
            var environment = try ServerEnvironment(name: named.name, url: named.baseURL)
            environment.tls = named.tls
            return environment
        }
        sessionTransport = SessionTransport(base: transport)
        client = APIClient(environment: environment, transport: sessionTransport, configuration: configuration, delegate: delegate)
        router = CallRouter(client: client, session: session, output: self.output)
        let scrubbed = self.output
        // What scripts print may hold a server's bytes: control characters are shown escaped.
        interpreter = Interpreter(output: { text in scrubbed.standard(TerminalText.sanitized(text)) })
        // The models' record types are derived when a script names one, not at start-up.
        interpreter.registerRecordTypes(whenAsked: { [registry] in registry.recordTypes })
        interpreter.register(Self.exchangeType)
        for endpoint in registry.endpoints { try interpreter.register(hostFunction(for: endpoint)) }
        try registerUntypedCalls()
        try registerPages()
        try registerFileFunction()
        try registerSessionGlobals()
        markLast(unavailable: "is the prompt's last result, and there is none yet")
        applyFormat()
    }

    /// Makes `last` and `_` a check error with a reason (before any result, and in scripts), or
    /// usable again (`nil`).
    private func markLast(unavailable reason: String?) {
        for name in ["last", "_"] { interpreter.setUnavailable(name, reason: reason.map { "'\(name)' \($0)" }) }
    }

    /// `last` and `_` as a script sees them, until ``leaveScript(_:)``: unavailable, since a
    /// script's values have names (so `typist check` and `typist run` agree on what they mean).
    /// - Returns: Whether the prompt had a result, for ``leaveScript(_:)``.
    private func enterScript() -> Bool {
        markLast(unavailable: "is the prompt's last result, which a script does not have; name the value with 'let'")
        return session.read { $0.hasResult }
    }

    private func leaveScript(_ hadResult: Bool) {
        markLast(unavailable: hadResult ? nil : "is the prompt's last result, and there is none yet")
    }

    private func applyFormat() {
        if format == .json {
            interpreter.describe = { value in
                if case .string(let text) = value { return text }
                return JSONWriter.render(value, pretty: false)
            }
        } else {
            interpreter.describe = { ValueFormatter.description($0) }
        }
    }

    // MARK: Evaluating

    /// Evaluates source text in this session and returns its value (for apps and tests).
    ///
    /// - Throws: `EvaluationError` (from `APIScript`) with the diagnostics.
    @discardableResult
    public func evaluate(_ source: String) async throws -> Value {
        let result = await oneInputAtATime { await evaluate(ScriptSource(name: "<input>", text: source), isPrompt: true) }
        if result.failed { throw EvaluationError(diagnostics: result.diagnostics) }
        return result.value ?? .void
    }

    /// Evaluates a source; a failure leaves the session as it was before: its variables, token,
    /// base URL, headers and time limit (the last exchange stays, for `:last`).
    ///
    /// - Parameter echo: Shows each top-level expression's value (piped input and `:load`).
    func evaluate(_ source: ScriptSource, isPrompt: Bool, echo: ((Value, ScriptType) async throws -> Void)? = nil) async -> Evaluation {
        let saved = snapshot()
        let result = await interpreter.evaluate(source, isPrompt: isPrompt, echo: echo)
        if result.failed {
            restore(saved, keepingLastExchange: true)
        } else if let value = result.value, let type = result.type {
            setLast(value, type: type)
        }
        return result
    }

    /// Whether `condition` evaluates to `true` now, without output or any effect on the session
    /// (a lesson step's check).
    package func holdsQuietly(_ condition: String, name: String = "<check>") async -> Bool {
        let saved = snapshot()
        let savedOutput = interpreter.output
        interpreter.output = { _ in }
        let result = await interpreter.evaluate(ScriptSource(name: name, text: condition), isPrompt: true)
        interpreter.output = savedOutput
        restore(saved, keepingLastExchange: true)
        return !result.failed && result.value == .bool(true)
    }

    /// `last` and `_` take a result and its type.
    func setLast(_ value: Value, type: ScriptType) {
        session.update {
            $0.last = value
            $0.hasResult = true
        }
        // `session.last`: the session's binding also when an endpoint took the bare name.
        for name in ["session.last", "_"] { interpreter.setType(type, ofGlobal: name) }
        for name in ["last", "_"] { interpreter.setUnavailable(name, reason: nil) }
    }

    /// Everything an input can change in the session.
    struct SessionSnapshot {
        let contents: Session.Contents
        let environment: ServerEnvironment
        let headers: [HTTPHeader]
        let timeout: Duration
        let concurrency: Int
        let interpreter: Interpreter.Snapshot
    }

    func snapshot() -> SessionSnapshot {
        SessionSnapshot(contents: session.read { $0 }, environment: client.environment, headers: client.defaultHeaders,
                        timeout: client.timeout, concurrency: interpreter.concurrency, interpreter: interpreter.snapshot())
    }

    /// Puts the session back as it was; the secrets it has seen stay known (and masked).
    func restore(_ snapshot: SessionSnapshot, keepingLastExchange: Bool) {
        session.update { contents in
            let (exchange, failure) = (contents.lastExchange, contents.lastFailure)
            contents = snapshot.contents
            if keepingLastExchange {
                contents.lastExchange = exchange
                contents.lastFailure = failure
            }
        }
        client.environment = snapshot.environment
        client.defaultHeaders = snapshot.headers
        client.timeout = snapshot.timeout
        interpreter.concurrency = snapshot.concurrency
        interpreter.restore(snapshot.interpreter)
    }

    /// Handles one prompt input: a `:command` or code. Results and errors are written out.
    ///
    /// - Returns: Whether it succeeded.
    @discardableResult
    public func handle(_ input: String) async -> Bool {
        await oneInputAtATime { await handleInput(input) }
    }

    private func handleInput(_ input: String) async -> Bool {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return true }
        // An observer (a lesson step whose line is meant to fail) may listen to the errors this input writes.
        let listening = inputObservers.contains { $0.collectsErrors(shell: self) }
        if listening { session.startErrorTap() }
        let succeeded: Bool
        if trimmed.hasPrefix(":") {
            succeeded = await command(trimmed)
            if let command = commandNamed(in: trimmed), !command.isObserved {
                if listening { _ = session.endErrorTap() }
                return succeeded
            }
        } else {
            let source = ScriptSource(name: "<input>", text: input)
            let result = await evaluate(source, isPrompt: true)
            report(result.diagnostics)
            var ok = !result.failed
            if ok {
                transcript.append(TranscriptEntry(text: input, producedResult: result.value != nil && result.type != nil))
                if case .stream(let stream)? = result.value, case .stream(let itemType)? = result.type {
                    ok = await show(stream, itemType: itemType, from: source)
                } else if let value = result.value, value != .void {
                    output.standard(render(value, type: result.type) + "\n")
                }
            }
            succeeded = ok
        }
        let errors = listening ? session.endErrorTap() : ""
        for observer in inputObservers { await observer.inputEnded(trimmed, succeeded: succeeded, errors: errors, shell: self) }
        return succeeded
    }

    /// Checks a script, then runs it; diagnostics go to the error output.
    ///
    /// - Returns: The exit status: 0, 1 for a runtime error or failed `expect`, 65 for syntax or
    ///   check errors.
    public func run(_ source: ScriptSource) async -> Int32 {
        await oneInputAtATime { await runScript(source) }
    }

    private func runScript(_ source: ScriptSource) async -> Int32 {
        let hadResult = enterScript()
        defer { leaveScript(hadResult) }
        let problems = interpreter.check(source)
        if problems.contains(where: { $0.severity == .error }) {
            report(problems)
            return ExitStatus.dataError
        }
        let result = await evaluate(source, isPrompt: false)
        report(result.diagnostics)
        if result.errors.contains(where: { $0.kind == .cancelled }) { return ExitStatus.interrupted }
        return result.failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Every static error of a script, and every call whose credential nothing provides; nothing
    /// sent (`typist check`).
    public func check(_ source: ScriptSource) -> [Diagnostic] {
        guard let diagnostics = ifNoOtherInput({ checkScript(source, credentials: true) }) else {
            return [Diagnostic(kind: .check, message: "the session is running another input; check once it has ended",
                               source: source, span: TextSpan(start: 0, end: 0))]
        }
        return diagnostics
    }

    /// A script's static errors; with `credentials`, also the calls whose credential nothing
    /// provides (only `typist check` asks: a run, piped input and `:load` fail such a call when
    /// they reach it, as `typist run` does).
    func checkScript(_ source: ScriptSource, credentials: Bool) -> [Diagnostic] {
        let hadResult = enterScript()
        defer { leaveScript(hadResult) }
        let diagnostics = interpreter.check(source)
        guard credentials, !diagnostics.contains(where: { $0.severity == .error }) else { return diagnostics }
        // A call whose credential nothing provides, reported with nothing sent.
        return diagnostics + CredentialCheck.diagnostics(source, interpreter: interpreter, registry: registry,
                                                         credentials: session.credentials)
    }

    /// Writes diagnostics to the error output, rendered.
    package func report(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        if diagnostics.count == 1, diagnostics[0].kind == .cancelled {
            output.error("cancelled\n")
            return
        }
        if format == .json {
            output.error(diagnostics.map(DiagnosticJSON.render).joined(separator: "\n") + "\n")
            return
        }
        output.error(DiagnosticRenderer(colors: colors).render(diagnostics) + "\n")
    }

    // MARK: Endpoints

    /// Adds endpoints to the session (`:openapi`): each becomes a function, its record types known
    /// to scripts. A name the session has already — an endpoint's, a built-in's, a session
    /// variable's — keeps its meaning; the newcomer gets a number (`listPets2`), and a warning says so.
    ///
    /// - Returns: The endpoints added, and the warnings.
    package func addEndpoints(_ pending: [PendingRegistration], server: ServerEnvironment? = nil) throws -> (added: [EndpointRegistration], warnings: [String]) {
        var (extended, warnings) = try registry.adding(pending)
        let before = registry.endpoints.count
        var added: [EndpointRegistration] = []
        for var endpoint in extended.endpoints.dropFirst(before) {
            if let server { endpoint = endpoint.sending(to: server) }
            let original = endpoint.name
            var counter = 2
            while (try? interpreter.register(hostFunction(for: endpoint))) == nil {
                guard counter < 100 else { break }
                endpoint.name = original + String(counter)
                counter += 1
            }
            if endpoint.name != original { warnings.append("\(endpoint.location): '\(original)' is taken; this one is '\(endpoint.name)'") }
            added.append(endpoint)
        }
        extended = extended.replacing(endpointsFrom: before, with: added)
        for record in extended.recordTypes where interpreter.recordTypes[record.name] == nil { interpreter.register(record) }
        registry = extended
        return (added, warnings)
    }

    /// A function that calls `endpoint` as the session's endpoints are called (its credentials,
    /// cassette, `:curl`, `:last`), not registered: an extension's function that makes endpoints
    /// as it is called (GraphQL's inline queries).
    package func callingFunction(for endpoint: EndpointRegistration) -> HostFunction { hostFunction(for: endpoint) }

    /// Gives scripts a function of an extension's (GraphQL's `graphql(_:)`).
    package func register(_ function: HostFunction) throws { try interpreter.register(function) }

    private func hostFunction(for endpoint: EndpointRegistration) -> HostFunction {
        let session = session
        let router = router
        let registry = registry
        let parameters = endpoint.parameters.map {
            var parameter = HostFunction.Parameter(label: $0.label, name: $0.name, type: $0.scriptType, defaultValue: $0.defaultValue,
                                                   enumeration: $0.enumeration, rule: $0.rule)
            parameter.typeRule = $0.typeRule
            return parameter
        }
        // Worked out once per endpoint, not on every call: which arguments carry a credential.
        let secretArguments = endpoint.parameters.indices.filter { endpoint.parameters[$0].carriesSecret }
            .map { (index: $0, variable: endpoint.parameters[$0].environmentVariable) }
        // Arguments whose dictionaries may have fields with secret names (a form of `[String: String]`, any JSON);
        // in a document's, only a password's or a secret's name makes one (a `token` key may be a cursor).
        let fieldArguments = endpoint.parameters.indices.filter {
            switch endpoint.parameters[$0].scriptType.unwrapped {
            case .dictionary, .any: true
            default: false
            }
        }.map { index in
            (index: index, isSecret: endpoint.parameters[index].isSecretByDocument == nil
                ? Redaction.isSecretHeader : Redaction.namesPasswordOrSecret)
        }
        var function = HostFunction(name: endpoint.name, parameters: parameters, returnType: endpoint.responseType,
                                    summary: endpoint.summary) { values, scope in
            // Arguments that carry a credential (a password, a `Secret`) are masked from here on.
            for argument in secretArguments where argument.index < values.count {
                switch values[argument.index] {
                case .string(let text), .secret(let text): session.remember(secret: text, as: argument.variable)
                default: break
                }
            }
            for argument in fieldArguments where argument.index < values.count {
                session.rememberSecrets(inFieldsOf: values[argument.index], isSecret: argument.isSecret)
            }
            return try await router.call(endpoint, values, scope: scope, registry: registry)
        }
        function.deprecation = endpoint.deprecation
        let conditional = endpoint.optionalWhenGiven
        if !conditional.isEmpty {
            // `getRecord(…, ifNoneMatch: etag)` is `GetRecordResponse?`: nil for 304 Not Modified.
            let responseType = endpoint.responseType
            function.resultFromArguments = { types in
                conditional.contains { $0 < types.count && types[$0] != nil && types[$0] != .nilLiteral } ? responseType.optional : nil
            }
        }
        return function
    }

    /// Requests an expression would send, built and recorded but not sent. A preview has no
    /// effect on the session: whatever the expression assigns or declares is taken back.
    func dryRun(_ text: String) async -> (requests: [PreparedRequest], diagnostics: [Diagnostic], perElement: Bool,
                                          untyped: [UntypedRequest]) {
        let saved = snapshot()
        let savedOutput = interpreter.output
        interpreter.output = { _ in }
        let preview = Preview()
        let result = await router.running(preview: preview, validation: nil) {
            await interpreter.evaluate(ScriptSource(name: "<input>", text: text), isPrompt: true)
        }
        interpreter.output = savedOutput
        restore(saved, keepingLastExchange: false)
        return (preview.requests, result.failed ? result.errors : [], preview.madeCallsPerElement, preview.untypedRequests)
    }
}
