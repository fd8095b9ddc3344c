import APIScript

/// `typist check`'s credential pass: a call of an endpoint whose kind needs a credential the
/// session does not hold, and that nothing in the script sets before the call, is reported with
/// nothing sent — the pattern's compile-time guarantee (`Endpoint<Bearer, …>` needs a token), for
/// a script.
///
/// The script is read in source order: an assignment (`token = …`, `session.apiKey = …`) or a
/// call of an endpoint that stores a token makes that credential available to every call after
/// it, and a call under `try?` is left alone (its failure is a value the script expects). That is
/// an approximation in one direction only — a credential set in a branch counts — so the pass
/// does not refuse a script that can succeed.
struct CredentialCheck {
    private static let credentialNames: Set<String> = ["token", "username", "password", "apiKey"]

    /// The diagnostics for `source`, given the credentials the session starts with.
    static func diagnostics(_ source: ScriptSource, interpreter: Interpreter, registry: EndpointRegistry,
                            credentials: SessionCredentials) -> [Diagnostic] {
        var held: Set<String> = []
        if credentials.token.map({ !$0.isEmpty }) ?? false { held.insert("token") }
        if credentials.username.map({ !$0.isEmpty }) ?? false { held.insert("username") }
        if credentials.password != nil { held.insert("password") }
        if credentials.apiKey.map({ !$0.isEmpty }) ?? false { held.insert("apiKey") }
        let assignments = interpreter.assignments(of: credentialNames, in: source.text)
        // A call under `try?` may fail: that is what the script asks for.
        let tried = interpreter.optionalTrySpans(in: source.text)
        let calls = interpreter.hostCalls(in: source.text).filter { call in
            !tried.contains { $0.start <= call.span.start && call.span.end <= $0.end }
        }
        var diagnostics: [Diagnostic] = []
        var nextAssignment = 0
        for call in calls {
            while nextAssignment < assignments.count, assignments[nextAssignment].offset < call.span.start {
                held.insert(assignments[nextAssignment].name)
                nextAssignment += 1
            }
            guard let endpoint = registry.endpoint(named: call.name) else { continue }
            let kinds = endpoint.acceptedKinds.isEmpty ? [endpoint.kindName] : endpoint.acceptedKinds
            let needs = kinds.map(Self.needs)
            // A custom kind, or one alternative already satisfied: nothing to say.
            if needs.contains(where: { $0 == nil || $0?.isSubset(of: held) == true }) {
                if endpoint.producesToken { held.insert("token") }
                continue
            }
            diagnostics.append(Diagnostic(kind: .check, message: "\(endpoint.selector) needs \(Self.describe(kinds)), and nothing sets it before this call",
                                          source: source, span: call.span,
                                          notes: [.init(Self.advice(kinds.first ?? "Public"))]))
            if endpoint.producesToken { held.insert("token") }
        }
        return diagnostics
    }

    /// The session variables a built-in kind sends; nil for a host's own kind.
    private static func needs(_ kind: String) -> Set<String>? {
        switch kind {
        case "Public": []
        case "Bearer": ["token"]
        case "Basic": ["username", "password"]
        case "APIKey": ["apiKey"]
        default: nil
        }
    }

    private static func describe(_ kinds: [String]) -> String {
        kinds.map { kind in
            switch kind {
            case "Bearer": "an access token (Bearer)"
            case "Basic": "a user name and password (Basic)"
            case "APIKey": "an API key (APIKey)"
            default: kind
            }
        }.joined(separator: " or ")
    }

    private static func advice(_ kind: String) -> String {
        switch kind {
        case "Bearer": "set token = … (or call an endpoint that logs in) before it, or export TYPIST_TOKEN"
        case "Basic": "set username = … and password = … before it"
        default: "set apiKey = … before it"
        }
    }
}
