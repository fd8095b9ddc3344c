import TypedAPI

/// The advice a failed call's error carries, each a line the prompt shows as a note: how to trust
/// a server (``TLSAdvice``), what a 401 asked for (``ChallengeAdvice``), what the service found
/// wrong with another refused call (``RefusalAdvice``), how long a rate limit asks to wait
/// (``RateLimitAdvice``), which calls give a token (``TokenAdvice``).
/// Each reads a failure of its own kind, so at most one applies.
enum CallAdvice {
    /// `error` with whichever advice applies to a call of `endpoint` sent with `credentials`.
    static func wrapping(_ error: any Error, endpoint: EndpointRegistration, credentials: SessionCredentials,
                         tls: TLSOptions, registry: EndpointRegistry) -> any Error {
        let kinds = endpoint.acceptedKinds.isEmpty ? [endpoint.kindName] : endpoint.acceptedKinds
        let challenged = ChallengeAdvice.wrapping(TLSAdvice.wrapping(error, options: tls), kinds: kinds, credentials: credentials,
                                                  fromDocument: endpoint.route != nil)
        // A rate limit's wait first: a 429's body may list nothing the call could change.
        let limited = RateLimitAdvice.wrapping(challenged)
        let refused = limited is RateLimitAdvice ? limited : RefusalAdvice.wrapping(limited, parameters: endpoint.parameters)
        return TokenAdvice.wrapping(refused, registry: registry)
    }
}
