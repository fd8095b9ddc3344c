import TypedAPI

/// A call that failed in its TLS handshake: the session's TLS options and the ways to change them.
enum TLSAdvice {
    /// The note for `error` when it is a TLS failure of a request the transport sent; nil otherwise.
    static func note(for error: any Error, options: TLSOptions) -> String? {
        guard case .transport(_, let failure)? = error as? APIError, failure.kind == .tls else { return nil }
        let inEffect = options.isSystemDefault ? "the system's trust store, no client certificate" : options.description
        return "TLS in effect: \(inEffect). A private CA or self-signed server: --cacert FILE; a server that wants a client certificate: --cert FILE --key FILE (or \"tls\" in the environment in typist.json); --insecure skips the server check"
    }
}
