import APIScript
import Foundation
import TypedAPI

/// A failed call's error with advice: each note a line the prompt shows after the error — how to
/// trust a server (``TLSAdvice``), what a 401 asked for (``ChallengeAdvice``), how long a rate
/// limit asks to wait (``RateLimitAdvice``), which methods a 405 allows (``MethodAdvice``), which
/// calls give a token (``TokenAdvice``), or else what the service found wrong (``RefusalAdvice``).
/// Each reads a failure of its own kind, so one of them speaks.
struct CallAdvice: NotedError, CustomStringConvertible {
    let underlying: any Error
    let notes: [String]

    /// The call's error, as its type says it.
    var message: String { String(describing: underlying) }

    /// The error and its advice, a line each (for a log; a script's diagnostic takes the notes as they are).
    var description: String { ([message] + notes).joined(separator: "\n") }

    /// `error` with `notes`, or `error` itself when there are none.
    static func wrapping(_ error: any Error, notes: [String]) -> any Error {
        notes.isEmpty ? error : CallAdvice(underlying: error, notes: notes)
    }

    /// `error` with whichever advice applies to a call of `endpoint` sent with `credentials`.
    static func wrapping(_ error: any Error, endpoint: EndpointRegistration, credentials: SessionCredentials,
                         tls: TLSOptions, registry: EndpointRegistry) -> any Error {
        let kinds = endpoint.acceptedKinds.isEmpty ? [endpoint.kindName] : endpoint.acceptedKinds
        let note = TLSAdvice.note(for: error, options: tls)
            ?? ChallengeAdvice.note(for: error, kinds: kinds, credentials: credentials, fromDocument: endpoint.route != nil,
                                   sendsSecretArguments: endpoint.parameters.contains(where: \.carriesSecret))
            ?? RateLimitAdvice.note(for: error)
            ?? MethodAdvice.note(for: error)
            ?? TokenAdvice.note(for: error, registry: registry)
        return wrapping(error, notes: note.map { [$0] } ?? RefusalAdvice.lines(for: error, parameters: endpoint.parameters))
    }
}
