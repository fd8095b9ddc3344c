import Foundation
import HTTPTypes
import TypedAPI

/// The session's middleware for previews (`:curl`, `:swift`): a call whose context holds a
/// ``PreviewCall`` is kept as the client built it and answered with its sample, never sent.
struct PreviewStage: APIClientMiddleware {
    func prepare(_ request: inout PreparedRequest, context: CallContext) throws {
        context[PreviewKey.self]?.preview.keep(request)
    }

    func intercept(_ request: PreparedRequest, context: CallContext, next: Next) async throws -> TransportResponse {
        guard let call = context[PreviewKey.self] else { return try await next(request, context) }
        call.markAnswered()
        return TransportResponse(head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: .whole(call.sample))
    }
}
