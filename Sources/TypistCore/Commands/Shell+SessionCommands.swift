import APIScript
import Foundation
import TypedAPI

/// `:base`, `:token`, `:env` and `:format`: the session's settings.
extension Shell {
    func base(_ url: String) -> Bool {
        if url.isEmpty {
            write(client.environment.baseURL)
            return true
        }
        do {
            client.environment = try Self.moving(client.environment, to: url, session: session)
            transcript.append(TranscriptEntry(text: "\(sessionSpelling("baseURL")) = \(ValueFormatter.quoted(client.environment.baseURL))", producedResult: false))
            write("baseURL = \(client.environment.baseURL)")
            return true
        } catch {
            fail(String(describing: error))
            return false
        }
    }

    /// `current` moved to another base URL (`:base`, `baseURL = …`): on the same origin it keeps
    /// its TLS options; elsewhere it takes the session's own, without the named environment's
    /// (its client certificate belongs to its origin).
    static func moving(_ current: ServerEnvironment, to url: String, session: Session) throws -> ServerEnvironment {
        var next = try ServerEnvironment(name: current.name, url: url)
        next.tls = next.hasSameOrigin(as: current) ? current.tls : session.tls.withLock { $0.options(for: nil) }
        return next
    }

    @discardableResult
    func token(_ value: String) async -> Bool {
        var text = value
        if text.isEmpty {
            guard let readSecret else {
                write(session.credentials.token == nil ? "no token set" : "token = ••••")
                return true
            }
            let keeps = session.credentials.token == nil ? "Enter alone sets none" : "Enter alone keeps the current one"
            guard let entered = await readSecret("Paste the access token, then Enter (it is not shown; \(keeps)): "), !entered.isEmpty else {
                write(session.credentials.token == nil ? "no token set" : "token = •••• (unchanged)")
                return true
            }
            text = entered
        }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        session.update { $0.credentials.token = token }
        session.remember(secret: token, as: "TYPIST_TOKEN")
        transcript.append(TranscriptEntry(text: "\(sessionSpelling("token")) = env(\"TYPIST_TOKEN\")!", producedResult: false))
        write("token = ••••")
        return true
    }

    func environment(_ name: String) async -> Bool {
        if name.isEmpty {
            if environments.isEmpty {
                write("no environments configured (typist.json); baseURL = \(client.environment.baseURL)")
                return true
            }
            let current = session.read(\.environmentName)
            // Names in a column, the current one marked.
            let width = environments.map(\.name.count).max() ?? 0
            write(environments.map { environment in
                let name = environment.name.padding(toLength: width, withPad: " ", startingAt: 0)
                return (environment.name == current ? "* " : "  ") + "\(name)  \(environment.baseURL)"
            }.joined(separator: "\n"))
            return true
        }
        do {
            try await switchEnvironment(to: name)
            transcript.append(TranscriptEntry(text: "// :env \(name) — its variables come with `typist run … --env \(name)`\n\(sessionSpelling("baseURL")) = \(ValueFormatter.quoted(client.environment.baseURL))", producedResult: false))
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
        var next = try ServerEnvironment(name: name, url: environment.baseURL)
        next.tls = session.tls.withLock { $0.options(for: environment) }
        try next.tls.validate()
        if !next.tls.verifiesServer && client.environment.tls.verifiesServer { output.error(SessionTLS.insecureWarning) }
        client.environment = next
        session.update { $0.environmentName = name }
        for (key, value) in environment.values.sorted(by: { $0.key < $1.key }) {
            try await define(key, value)
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
                output.error("note: the variable '\(name)' is \(ValueFormatter.literal(value)); '\(name)(…)' still calls the endpoint \(EndpointRegistration.selector(hidden.name, labels: hidden.parameters.map(\.label)))\n")
            }
        } catch Interpreter.RegistrationError.invalidName {
            throw SessionError("'\(name)' is not a valid variable name")
        } catch Interpreter.RegistrationError.duplicateName {
            throw SessionError("'\(name)' cannot be a variable: it is a session property or a built-in function")
        }
    }

    /// Sets the session token (from `TYPIST_TOKEN`, a secret prompt, or a host).
    /// White space around it (a pasted `\r\n`) is dropped: a header never carries it.
    public func setToken(_ token: String?) {
        let token = token?.trimmingCharacters(in: .whitespacesAndNewlines)
        session.update { $0.credentials.token = token }
        session.remember(secret: token, as: "TYPIST_TOKEN")
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

    /// How a saved script names a session property: bare, or `session.name` where one of the host's
    /// endpoints has the bare name.
    func sessionSpelling(_ name: String) -> String {
        registry.endpoint(named: name) == nil ? name : QualifiedName.session + "." + name
    }
}

extension Shell {
    /// `:history`, `:history 5`, `:history search posts`: numbered from the oldest kept, as shells
    /// number theirs (the newest has the highest number); lines that held a secret were never kept.
    func historyCommand(_ argument: String) -> Bool {
        var entries = lineSource?.historyEntries() ?? []
        // Not this `:history` itself.
        if entries.last?.hasPrefix(":history") == true { entries.removeLast() }
        guard !entries.isEmpty else {
            write(lineSource?.isInteractive == true ? "no history yet" : "no history: it is kept at a terminal, not for piped input")
            return true
        }
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        var picked: [(number: Int, line: String)] = entries.enumerated().map { ($0.offset + 1, $0.element) }
        switch words.first {
        case nil:
            picked = Array(picked.suffix(20))
        case "search"?:
            guard words.count == 2 else {
                fail(":history search needs a word: :history search posts")
                return false
            }
            picked = picked.filter { $0.line.localizedCaseInsensitiveContains(words[1]) }
            if picked.isEmpty {
                write("no input contains '\(words[1])'")
                return true
            }
        case let text?:
            guard let count = Int(text), count > 0, words.count == 1 else {
                fail(":history takes a count or `search word`, not '\(argument)'")
                return false
            }
            picked = Array(picked.suffix(count))
        }
        let width = String(picked.map(\.number).max() ?? 1).count
        write(picked.map { String(repeating: " ", count: width - String($0.number).count) + "\($0.number)  \($0.line)" }
            .joined(separator: "\n"))
        return true
    }
}
