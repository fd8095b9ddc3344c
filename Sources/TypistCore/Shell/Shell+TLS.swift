import TypedAPI

extension Shell {
    /// Where this session's TLS options come from (the command line, the host, curl's variables),
    /// for the environments it switches to.
    package var tlsSources: SessionTLS {
        get { session.tls.withLock { $0 } }
        set { session.tls.withLock { $0 = newValue } }
    }
}
