import TypedAPI

/// A call that failed in its TLS handshake, with the session's TLS options and the ways to change
/// them: the error's description gets a second line, which the prompt shows as a note.
struct TLSAdvice: Error, CustomStringConvertible {
    let underlying: any Error

    let options: TLSOptions

    /// `error` with advice when it is a TLS failure of a request the transport sent; unchanged otherwise.
    static func wrapping(_ error: any Error, options: TLSOptions) -> any Error {
        guard case .transport(_, let failure)? = error as? APIError, failure.kind == .tls else { return error }
        return TLSAdvice(underlying: error, options: options)
    }

    var description: String {
        let inEffect = options.isSystemDefault ? "the system's trust store, no client certificate" : options.description
        return "\(underlying)\nTLS in effect: \(inEffect). A private CA or self-signed server: --cacert FILE; a server that wants a client certificate: --cert FILE --key FILE (or \"tls\" in the environment in typist.json); --insecure skips the server check"
    }
}
