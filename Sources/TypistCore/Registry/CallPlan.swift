import APIScript
import Foundation
import TypedAPI

/// Everything the shell needs to run one call of a registered endpoint.
struct CallPlan: Sendable {
    /// The value a JSON body encodes, such as a `PostDraft` (for `:describe`).
    var body: (any Encodable & Sendable)?
    /// The key the response sits under, when it has an envelope (for `:describe`).
    var envelopeKey: String?
    /// The request the endpoint would send (built, not sent).
    var prepare: @Sendable (APIClient, SessionCredentials) throws -> PreparedRequest
    /// Sends it and returns the script value.
    var send: @Sendable (APIClient, SessionCredentials) async throws -> (value: Value, token: String?)
    /// Sample JSON of the response, for a preview's answer (see ``Preview``).
    var sample: @Sendable () -> Data
}
