import APIScript
import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// A preview of an input (`:curl`, `:swift`): what its calls would send, nothing sent.
///
/// While one runs, each endpoint call goes the way every call goes — its plan, the typed client,
/// a transport — but with a second client, made for the call from the session's as it is then, on
/// a ``RecordingTransport`` that answers with sample JSON of the endpoint's response type, so the
/// rest of the expression has values of the right shape (an array holds one element). The
/// requests are kept as the client would have sent them. A missing credential is a placeholder.
final class Preview: Sendable {
    /// The preview the current task's input runs in, if any.
    @TaskLocal static var current: Preview?

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

    /// One call's way out: a client like the session's, whose transport answers `sample`.
    struct Call {
        let client: APIClient
        let transport: RecordingTransport

        /// Whether the call got as far as its transport (so a failure after is the sample's, not the request's).
        var wasSent: Bool { !transport.exchanges.isEmpty }
    }

    /// A client for one call, answering with `sample` (JSON of the response type).
    func call(like session: APIClient, answering sample: Data) -> Call {
        let transport = RecordingTransport { _, _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), sample)
        }
        return Call(client: session.replacingTransport(with: transport, delegate: RequestKeeper(preview: self)), transport: transport)
    }

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

/// Keeps each request a preview's client sends, as it sends it.
private struct RequestKeeper: APIClientDelegate {
    let preview: Preview

    func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {
        preview.keep(request)
    }
}
