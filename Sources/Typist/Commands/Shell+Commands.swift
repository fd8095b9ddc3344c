import APIScript
import Foundation
import TypedAPI

extension Shell {
    /// The prompt's own commands (name, usage, summary), for `:help` and completion.
    public static var commands: [(name: String, usage: String, summary: String)] {
        MetaCommand.all.map { ($0.name, $0.usage, $0.summary) }
    }

    /// Runs a `:command`.
    func command(_ line: String) async -> Bool {
        let body = line.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let argument = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let command = MetaCommand.named(name) else {
            let suggestion = Suggestions.nearest(to: name, in: MetaCommand.all.map(\.name))
            fail("unknown command ':\(name)'" + (suggestion.map { "; did you mean ':\($0)'?" } ?? "") + " (:help lists them)")
            return false
        }
        return await command.run(self, argument)
    }

    func write(_ text: String) { output.standard(text.hasSuffix("\n") ? text : text + "\n") }
    func fail(_ text: String) { output.error(TerminalStyle(enabled: colors).error("error:") + " " + text + "\n") }

    // MARK: Help

    func help(_ topic: String) -> String {
        let style = TerminalStyle(enabled: colors)
        if topic.isEmpty {
            var lines = [style.bold("Typist") + " — call typed endpoints as functions; navigate results like Swift values.", ""]
            lines.append("  posts().filter { $0.userId == 1 }.map(\\.title)")
            lines.append("  let p = post(id: 1); print(p.title)")
            lines.append("  token = login(user: \"ada\", password: \"lovelace\").token")
            lines.append("")
            lines.append(style.bold("Commands"))
            for command in Self.commands {
                lines.append("  " + command.usage.padding(toLength: 28, withPad: " ", startingAt: 0) + command.summary)
            }
            lines.append("")
            lines.append("Session: baseURL, token, apiKey, headers, timeout; read-only: last (_), response.")
            lines.append("Endpoints: \(registry.endpoints.count) in \(registry.groups.count) groups — :endpoints lists them.")
            lines.append("More: :help <endpoint>, :help <Model>, :help print, :help language")
            return lines.joined(separator: "\n")
        }
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        if let command = MetaCommand.named(name) {
            let aliases = command.aliases.isEmpty ? "" : "\n  also: " + command.aliases.map { ":" + $0 }.joined(separator: ", ")
            return "\(command.usage)\n  \(command.summary)" + aliases
        }
        if registry.endpoint(named: name) != nil || interpreter.recordTypes[name] != nil {
            return describeText(name) ?? ""
        }
        if name == "language" {
            return """
                Statements: let/var, x = e, x += e, if/else, if let, guard let … else, for x in e, while, break,
                continue, func name(label p: Type) -> Type { … }, return, expect(condition, "message").
                Expressions: Swift precedence; closures { $0.id } and { p in p.id }; key paths \\.title;
                optional chaining a?.b; a ?? b; try? e; ranges 0..<n; subscripts a[0], d["k"].
                Full reference: Docs/Language.md
                """
        }
        if let builtin = BuiltinHelp.text(for: name) { return builtin + (Self.typeHelp[name].map { "\n" + $0 } ?? "") }
        if let global = interpreter.global(named: name) {
            return "\(global.name): \(global.type)\(global.set == nil ? " (read-only)" : "")\n  \(global.summary)"
        }
        if let type = Self.typeHelp[name] { return type }
        return "no help on '\(topic)'; try :help, :endpoints, or :describe <name>"
    }

    /// The language's own types, for `:help Int` and the like (models answer from the registry).
    static let typeHelp: [String: String] = [
        "Int": "Int — a whole number (64 bits); arithmetic that overflows is an error, not a wrap",
        "Double": "Double — a floating-point number",
        "Bool": "Bool — true or false",
        "String": "String — text; \"\\(expression)\" interpolates",
        "Secret": "Secret — text that prints as •••• (token, apiKey, password arguments); use it like a String",
        "Any": "Any — a value whose type is known only when it runs (JSON from json(_:)); members are checked then",
    ]

    // MARK: Endpoints and types

    func endpointsListing() -> String {
        let style = TerminalStyle(enabled: colors)
        var lines: [String] = []
        for group in registry.groups {
            lines.append(style.bold(group))
            for endpoint in registry.endpoints where endpoint.group == group {
                let route = routeTemplate(endpoint).map { "  \(style.dim($0))" } ?? ""
                lines.append("  " + endpoint.swiftSignature + route)
                if !endpoint.summary.isEmpty { lines.append("      " + style.dim(endpoint.summary)) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `GET /posts/{id}`, found by building the endpoint with recognisable argument values.
    func routeTemplate(_ endpoint: EndpointRegistration) -> String? {
        var values: [Value] = []
        var probes: [(String, String)] = []
        for (index, parameter) in endpoint.parameters.enumerated() {
            var value = ProbeValues.value(for: parameter.scriptType, index: index)
            if let defaultValue = parameter.defaultValue, case .bool = value { value = defaultValue }
            values.append(value)
            probes.append((ValueFormatter.description(value), "{\(parameter.name)}"))
        }
        // A value the parameter's type rejects is replaced by its default, nil, or a UUID, in turn.
        var plan: CallPlan?
        for _ in 0...values.count {
            do {
                plan = try endpoint.plan(values)
                break
            } catch let error as ArgumentError where error.index < values.count {
                let parameter = endpoint.parameters[error.index]
                if let defaultValue = parameter.defaultValue, values[error.index] != defaultValue {
                    values[error.index] = defaultValue
                } else if parameter.swiftType == "UUID" {
                    let probe = String(format: "00000000-0000-0000-0000-%012d", 900_001 + error.index)
                    values[error.index] = .string(probe)
                    probes[error.index].0 = probe
                } else {
                    return nil
                }
            } catch {
                return nil
            }
        }
        guard let plan, let request = try? plan.prepare(client, SessionCredentials(token: "token", apiKey: "key")) else {
            return nil
        }
        var text = request.method + " " + request.path
        if !request.queryItems.isEmpty {
            text += "?" + request.queryItems.filter { $0.name != "api_key" }.map { item in
                "\(item.name)=\(item.value ?? "")"
            }.joined(separator: "&")
        }
        for (probe, placeholder) in probes {
            text = text.replacingOccurrences(of: probe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? probe,
                                             with: placeholder)
            text = text.replacingOccurrences(of: probe, with: placeholder)
        }
        return text
    }

    func describe(_ name: String) -> Bool {
        guard !name.isEmpty else {
            fail("write :describe <endpoint or type>, such as :describe post")
            return false
        }
        guard let text = describeText(name) else {
            let names = registry.endpoints.map(\.name) + interpreter.recordTypes.keys
            let suggestion = Suggestions.nearest(to: name, in: names)
            fail("no endpoint or type named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            return false
        }
        write(text)
        return true
    }

    func describeText(_ name: String) -> String? {
        let style = TerminalStyle(enabled: colors)
        if let endpoint = registry.endpoint(named: name) {
            var lines = [style.bold(endpoint.swiftSignature)]
            if !endpoint.summary.isEmpty { lines.append("  " + endpoint.summary) }
            if let route = routeTemplate(endpoint) { lines.append("  request:  " + route) }
            lines.append("  kind:     \(endpoint.kindName)" + (endpoint.kindName == "Bearer" ? " (sends `token` as Authorization: Bearer ••••)" : ""))
            for parameter in endpoint.parameters {
                let label = parameter.label ?? "_ \(parameter.name)"
                let defaultText = parameter.defaultValue.map { " = \(ValueFormatter.literal($0))" } ?? ""
                lines.append("  param:    \(label): \(parameter.swiftType)\(defaultText)")
            }
            lines.append("  response: \(endpoint.responseTypeName)")
            if case .record(let record) = endpoint.responseType.unwrapped { lines.append(contentsOf: fields(record, indent: "    ")) }
            if case .array(.record(let record)) = endpoint.responseType { lines.append(contentsOf: fields(record, indent: "    ")) }
            if endpoint.producesToken { lines.append("  stores the session token when it succeeds") }
            return lines.joined(separator: "\n")
        }
        if let record = interpreter.recordTypes[name] {
            return ([style.type(record.name)] + fields(record, indent: "  ")).joined(separator: "\n")
        }
        return nil
    }

    private func fields(_ record: RecordType, indent: String) -> [String] {
        record.fields.map { "\(indent)\($0.name): \($0.type)" }
    }

    func typeCommand(_ text: String) -> Bool {
        switch interpreter.staticType(of: text) {
        case .success(let type):
            var line = "\(type)"
            if case .record(let record) = type.unwrapped { line += "  " + TerminalStyle(enabled: colors).dim(record.description) }
            write(line)
            return true
        case .failure(let error):
            report(error.diagnostics)
            return false
        }
    }

    func variablesListing() -> String {
        let variables = interpreter.variables
        if variables.isEmpty { return "no variables yet; declare one with let or var" }
        let width = variables.map(\.name.count).max() ?? 0
        return variables.map { "\($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.type)" }
            .joined(separator: "\n")
    }

    // MARK: Requests

    func curl(_ text: String) async -> Bool {
        guard !text.isEmpty else {
            fail("write :curl <expression>, such as :curl post(id: 1)")
            return false
        }
        let (requests, diagnostics) = await dryRun(text)
        if !diagnostics.isEmpty {
            report(diagnostics)
            return false
        }
        if requests.isEmpty {
            write("# this expression sends no request")
            return true
        }
        write(requests.map(CurlCommand.render).joined(separator: "\n"))
        return true
    }

    func swift(_ text: String) async -> Bool {
        guard !text.isEmpty else {
            fail("write :swift <expression>, such as :swift post(id: 1)")
            return false
        }
        let (_, diagnostics) = await dryRun(text)
        if !diagnostics.isEmpty {
            report(diagnostics)
            return false
        }
        write(SwiftSnippet(shell: self).render(text))
        return true
    }

    func lastExchange() -> String {
        guard let exchange = state.read(\.lastExchange) else { return "no request has been sent yet" }
        let style = TerminalStyle(enabled: colors)
        var lines = [style.bold("\(exchange.method) \(exchange.url)")]
        // Headers and bodies are data: nothing in them may drive the terminal.
        let safe = TerminalText.sanitized
        for (name, value) in exchange.requestHeaders { lines.append(safe("\(name): \(value)")) }
        if let body = exchange.requestBody, !body.isEmpty { lines.append(""); lines.append(safe(String(decoding: body.prefix(2048), as: UTF8.self))) }
        let (seconds, attoseconds) = exchange.duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        lines.append("")
        lines.append(style.bold("\(exchange.status) \(safe(exchange.reason.isEmpty ? ResponseSummary.standardReasons[exchange.status] ?? "" : exchange.reason))") + style.dim(String(format: "  (%.1f ms)", milliseconds)))
        for (name, value) in exchange.responseHeaders { lines.append(safe("\(name): \(value)")) }
        if !exchange.responseBody.isEmpty {
            lines.append("")
            let text = safe(String(decoding: exchange.responseBody.prefix(4096), as: UTF8.self))
            lines.append(text + (exchange.responseBody.count > 4096 ? style.dim("\n… \(exchange.responseBody.count) bytes in all; response.body has everything") : ""))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Session

    func base(_ url: String) -> Bool {
        if url.isEmpty {
            write(client.environment.baseURL)
            return true
        }
        do {
            client.environment = try ServerEnvironment(name: client.environment.name, url: url)
            transcript.append(TranscriptEntry(text: "baseURL = \(ValueFormatter.quoted(client.environment.baseURL))", producedResult: false))
            write("baseURL = \(client.environment.baseURL)")
            return true
        } catch {
            fail(String(describing: error))
            return false
        }
    }

    @discardableResult
    func token(_ value: String) async -> Bool {
        var text = value
        if text.isEmpty {
            guard let readSecret else {
                write(state.credentials.token == nil ? "no token set" : "token = ••••")
                return true
            }
            guard let entered = await readSecret("token: "), !entered.isEmpty else {
                write(state.credentials.token == nil ? "no token set" : "token = •••• (unchanged)")
                return true
            }
            text = entered
        }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        let token = text
        state.update { $0.credentials.token = token }
        state.remember(secret: token, as: "TYPIST_TOKEN")
        transcript.append(TranscriptEntry(text: "token = env(\"TYPIST_TOKEN\")!", producedResult: false))
        write("token = ••••")
        return true
    }

    func environment(_ name: String) async -> Bool {
        if name.isEmpty {
            if environments.isEmpty {
                write("no environments configured (typist.json); baseURL = \(client.environment.baseURL)")
                return true
            }
            let current = state.read(\.environmentName)
            write(environments.map { ($0.name == current ? "* " : "  ") + "\($0.name)  \($0.baseURL)" }.joined(separator: "\n"))
            return true
        }
        do {
            try await switchEnvironment(to: name)
            transcript.append(TranscriptEntry(text: "// :env \(name) — its variables come with `typist run … --env \(name)`\nbaseURL = \(ValueFormatter.quoted(client.environment.baseURL))", producedResult: false))
            write("environment \(name): baseURL = \(client.environment.baseURL)")
            return true
        } catch {
            fail(String(describing: error))
            return false
        }
    }

    /// Switches to a configured environment: its base URL, and its variables as `let`s.
    public func switchEnvironment(to name: String) async throws {
        guard let environment = environments.first(where: { $0.name == name }) else {
            let known = environments.map(\.name).joined(separator: ", ")
            throw SessionError("no environment named '\(name)'" + (known.isEmpty ? "; none are configured" : "; known: \(known)"))
        }
        client.environment = try ServerEnvironment(name: name, url: environment.baseURL)
        state.update { $0.environmentName = name }
        for (key, value) in environment.variables.sorted(by: { $0.key < $1.key }) {
            try await define(key, .string(value))
        }
    }

    /// Declares a constant in the session (for `--var` and environment variables).
    ///
    /// A name that is also an endpoint's keeps both meanings, with a note: the name alone is the
    /// value (`user` is "ada"), a call is the endpoint (`user(id: 1)`). A session property or a
    /// built-in function cannot be a variable's name.
    public func define(_ name: String, _ value: Value) async throws {
        let type: ScriptType = switch value {
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .secret: .secret
        default: .string
        }
        do {
            if let hidden = try interpreter.defineConstant(name, value: value, type: type) {
                output.error("note: the variable '\(name)' is \(ValueFormatter.literal(value)); '\(name)(…)' still calls the endpoint \(hidden.name)(\(hidden.parameters.map { ($0.label ?? "_") + ":" }.joined()))\n")
            }
        } catch Interpreter.RegistrationError.invalidName {
            throw SessionError("'\(name)' is not a valid variable name")
        } catch Interpreter.RegistrationError.duplicateName {
            throw SessionError("'\(name)' cannot be a variable: it is a session property or a built-in function")
        }
    }

    /// Sets the session token (from `TYPIST_TOKEN`, a secret prompt, or a host).
    public func setToken(_ token: String?) {
        state.update { $0.credentials.token = token }
        state.remember(secret: token, as: "TYPIST_TOKEN")
    }

    func setFormat(_ name: String) -> Bool {
        guard !name.isEmpty else {
            write("format: \(format.rawValue) (pretty, json or table)")
            return true
        }
        guard let chosen = OutputFormat(rawValue: name) else {
            fail("unknown format '\(name)'; choose pretty, json or table")
            return false
        }
        format = chosen
        write("format: \(chosen.rawValue)")
        return true
    }

    // MARK: Files

    func load(_ path: String) async -> Bool {
        guard !path.isEmpty else {
            fail("write :load <file.api>")
            return false
        }
        let expanded = (path as NSString).expandingTildeInPath
        guard let text = try? String(contentsOfFile: expanded, encoding: .utf8) else {
            fail("cannot read '\(path)'")
            return false
        }
        let source = ScriptSource(name: (expanded as NSString).lastPathComponent, text: text)
        return await runLoaded(source, intoSession: true) == ExitStatus.success
    }

    func save(_ path: String) -> Bool {
        guard !path.isEmpty else {
            fail("write :save <file.api>")
            return false
        }
        let text = SessionScript(entries: transcript, secrets: state.knownSecrets).render()
        do {
            try Self.writePrivately(text, to: (path as NSString).expandingTildeInPath)
            write("saved \(transcript.count) input\(transcript.count == 1 ? "" : "s") to \(path)")
            return true
        } catch {
            fail("cannot write '\(path)': \(error)")
            return false
        }
    }

    /// Writes a file readable by its owner only (0600), also when it already exists.
    static func writePrivately(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }
}
