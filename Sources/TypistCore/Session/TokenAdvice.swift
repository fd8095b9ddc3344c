import TypedAPI

/// A call refused for want of a token, with the host's endpoints that answer with one (the shell
/// keeps the token they return): a second line, which the prompt shows as a note.
struct TokenAdvice: Error, CustomStringConvertible {
    let underlying: MissingCredentials
    let calls: [String]

    /// `error` with the calls that set a token, when it is a missing token and the host has such calls.
    static func wrapping(_ error: any Error, registry: EndpointRegistry) -> any Error {
        guard let missing = error as? MissingCredentials, missing.message.contains("needs an access token") else { return error }
        let calls = registry.endpoints.filter(\.producesToken).map { endpoint in
            "\(endpoint.name)(" + endpoint.parameters.map { ($0.label.map { "\($0): " } ?? "") + "…" }.joined(separator: ", ") + ")"
        }
        return calls.isEmpty ? error : TokenAdvice(underlying: missing, calls: calls)
    }

    var description: String {
        "\(underlying)\nor call " + calls.map { "`\($0)`" }.joined(separator: " or ") + ", which answers with a token the session keeps"
    }
}
