import APIScript
import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// A preview of an input (`:curl`, `:swift`): what its calls would send, nothing sent.
///
/// While one runs, each endpoint call goes the way every call goes — its plan, the session's
/// client, its middlewares — as a dry run (``TypedAPI/CallContext/isDryRun``) whose context holds
/// a ``PreviewCall``: the session's ``PreviewStage`` keeps the request as the client would send it
/// and answers with sample JSON of the endpoint's response type, so the rest of the expression has
/// values of the right shape (an array holds one element). Nothing reaches the transport, no
/// delegate is asked. A missing credential is a placeholder.
final class Preview: Sendable {
    private struct State {
        var requests: [PreparedRequest] = []
        var untyped: [UntypedRequest] = []
        var listAnswered = false
        var perElement = false
    }

    private let state = Mutex(State())

    /// The requests the input would send, in order.
    var requests: [PreparedRequest] { state.withLock { $0.requests } }
    /// The untyped calls among them, for `:swift`.
    var untypedRequests: [UntypedRequest] { state.withLock { $0.untyped } }
    /// Whether a call was made for each element of an earlier answer (shown once, for its sample).
    var madeCallsPerElement: Bool { state.withLock { $0.perElement } }

    /// The session's credentials, with a placeholder for each it lacks: nothing is sent, so a
    /// missing one shows in the request rather than stopping it.
    static func credentials(_ session: SessionCredentials) -> SessionCredentials {
        SessionCredentials(token: session.token ?? "TOKEN", apiKey: session.apiKey ?? "KEY",
                           username: session.username ?? "USER", password: session.password ?? "PASSWORD")
    }

    /// Notes a typed call and whether its answer holds an array (a later call is then per element).
    func noteCall(answersList: Bool) {
        state.withLock {
            if $0.listAnswered { $0.perElement = true }
            if answersList { $0.listAnswered = true }
        }
    }

    /// Notes an untyped call, for `:swift`.
    func note(_ request: UntypedRequest) { state.withLock { $0.untyped.append(request) } }

    func keep(_ request: PreparedRequest) { state.withLock { $0.requests.append(request) } }
}

/// One call in a preview: the sample it is answered with, and whether it was answered (so that a
/// failure after is the sample's, not the request's).
final class PreviewCall: Sendable {
    let preview: Preview
    let sample: Data
    private let answered = Atomic<Bool>(false)

    init(preview: Preview, sample: Data) {
        self.preview = preview
        self.sample = sample
    }

    /// Whether the call got as far as its answer.
    var wasAnswered: Bool { answered.load(ordering: .relaxed) }

    func markAnswered() { answered.store(true, ordering: .relaxed) }
}

/// The key a preview's call travels under in a ``TypedAPI/CallContext``.
enum PreviewKey: CallContextKey {
    typealias Value = PreviewCall
}
