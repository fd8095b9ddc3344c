import Foundation
import HTTPTypes
import TypedAPI

/// The session's middleware for previews (`:curl`, `:swift`): a call whose context holds a
/// ``PreviewCall`` is answered with its sample, never sent (before the log and the host's stages
/// see it); ``PreviewKeeper``, the last stage, keeps it as every stage's `prepare` left it.
struct PreviewStage: APIClientMiddleware {
    func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
        guard let call = context[PreviewKey.self] else { return try await next(request, context) }
        call.markAnswered()
        return TransportResponse(head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: .whole(call.sample))
    }
}

/// The last of the session's stages: keeps a preview's request as the client built it, after
/// every stage's `prepare` (the host's included) — what `:curl` shows.
struct PreviewKeeper: APIClientMiddleware {
    func prepare(_ request: inout PreparedRequest, context: CallContext) throws {
        context[PreviewKey.self]?.preview.keep(request)
    }
}
