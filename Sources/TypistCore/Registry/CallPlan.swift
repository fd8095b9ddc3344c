import APIScript
import Foundation
import TypedAPI

/// Everything the shell needs to run one call of a registered endpoint.
package struct CallPlan: Sendable {
    /// The value a JSON body encodes, such as a `PostDraft` (for `:describe`).
    package var body: (any Encodable & Sendable)?
    /// The key the response sits under, when it has an envelope (for `:describe`).
    package var envelopeKey: String?
    /// The request the endpoint would send (built, not sent).
    package var prepare: @Sendable (APIClient, SessionCredentials) throws -> PreparedRequest
    /// Sends it and returns the script value.
    package var send: @Sendable (APIClient, CallSetup) async throws -> (value: Value, token: String?)
    /// Sample JSON of the response, for a preview's answer (see ``Preview``).
    package var sample: @Sendable () -> Data

    package init(body: (any Encodable & Sendable)?, envelopeKey: String?,
                 prepare: @escaping @Sendable (APIClient, SessionCredentials) throws -> PreparedRequest,
                 send: @escaping @Sendable (APIClient, CallSetup) async throws -> (value: Value, token: String?),
                 sample: @escaping @Sendable () -> Data) {
        self.body = body
        self.envelopeKey = envelopeKey
        self.prepare = prepare
        self.send = send
        self.sample = sample
    }
}
