/// A call refused for want of a token: the host's endpoints that answer with one (the shell keeps
/// the token they return).
enum TokenAdvice {
    /// The note for `error` when it is a missing token and the host has calls that give one; nil otherwise.
    static func note(for error: any Error, registry: EndpointRegistry) -> String? {
        guard let missing = error as? MissingCredentials, missing.message.contains("needs an access token") else { return nil }
        // The arguments a call needs; those with a default (an OAuth 2 form's `scope`,
        // `clientId` …) left to `:describe`.
        let calls = registry.endpoints.filter(\.producesToken).map { endpoint in
            "\(endpoint.name)(" + endpoint.parameters.filter { $0.defaultValue == nil }
                .map { ($0.label.map { "\($0): " } ?? "") + "…" }.joined(separator: ", ") + ")"
        }
        guard !calls.isEmpty else { return nil }
        return "or call " + calls.map { "`\($0)`" }.joined(separator: " or ") + ", which answers with a token the session keeps"
    }
}
