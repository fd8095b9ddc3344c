import TypedAPI
import TypistText

/// A call the service answered with `401 Unauthorized`: what the service asked for (its
/// `WWW-Authenticate` challenge), what the call sent, and what to do. A bare `401` said none of
/// it, and the status alone does not tell a credential refused from one never sent.
enum ChallengeAdvice {
    /// The note for `error` when it is a 401 answer to a call of an endpoint of `kinds` (any one of
    /// which will do); nil otherwise.
    ///
    /// - Parameters:
    ///   - fromDocument: Whether the endpoint is an OpenAPI document's operation (whose kind
    ///     `--default-auth` sets when the document declares no security).
    ///   - sendsSecretArguments: Whether the call takes a credential as an argument (a login's
    ///     `password`): a `401` with no challenge to such a Public call refused what it was given,
    ///     which its body says, and gets no note — "this call sends none" would be false.
    static func note(for error: any Error, kinds: [String], credentials: SessionCredentials, fromDocument: Bool,
                     sendsSecretArguments: Bool) -> String? {
        guard case .unacceptableStatus(_, let response)? = error as? APIError, response.status == 401 else { return nil }
        let challenge = response.header(named: "www-authenticate").map { TerminalText.sanitized($0.value) }
        let asks = challenge.map { "the service asks for credentials (WWW-Authenticate: \($0))" } ?? "the service wants credentials"
        guard let sent = kinds.first(where: { Self.holds(credentials, for: $0) }) else { return nil }
        switch sent {
        case "Public":
            if challenge == nil, sendsSecretArguments { return nil }
            let scheme = challenge.map { String($0.prefix { $0 != " " }).lowercased() }
            let option = switch scheme {
            case "basic": "--default-auth basic, then username = … and password = …"
            case "bearer": "--default-auth bearer, then token = …"
            default: "--default-auth bearer, basic or apikey:header:NAME"
            }
            return "\(asks), and this call sends none (its kind is Public)"
                + (fromDocument ? "; the document declares no security for it: load it with \(option)" : "")
        case "Bearer": return "\(asks): the token sent was refused (it may have expired, or be another service's): set token = …, or log in again"
        case "Basic": return "\(asks): the user name and password sent were refused; check username and password"
        case "APIKey": return "\(asks): the API key sent was refused; check apiKey"
        default: return "\(asks): the \(sent) credentials sent were refused"
        }
    }

    /// Whether the session holds what a built-in `kind` sends (a host's own kind: assumed sent).
    private static func holds(_ credentials: SessionCredentials, for kind: String) -> Bool {
        switch kind {
        case "Bearer": !(credentials.token ?? "").isEmpty
        case "Basic": !(credentials.username ?? "").isEmpty && credentials.password != nil
        case "APIKey": !(credentials.apiKey ?? "").isEmpty
        default: true
        }
    }
}
