import Foundation
import HTTPTypes

/// The demo service's routes, family by family (see the project's `Docs/DemoService.md`).
struct DemoRoutes: Sendable {
    let store: BlogStore
    let data = DemoData.shared
    let sessions = SessionStore()

    func router() -> DemoRouter {
        var router = DemoRouter()
        addDogs(to: &router)
        addBlog(to: &router)
        addGitHub(to: &router)
        addAccounts(to: &router)
        addFaults(to: &router)
        addStreams(to: &router)
        // The service's own OpenAPI document (nine of its operations).
        router.get("/openapi.yaml") { _ in
            Reply.bytes(Array(DemoOpenAPI.document.utf8), contentType: "application/yaml; charset=utf-8")
        }
        router.get("/debug/headers") { request in
            var headers: [String: String] = [:]
            for field in request.headers {
                let name = field.name.canonicalName
                headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
            }
            return Reply.json(HeaderEcho(headers: headers))
        }
        return router
    }
}

/// Building responses.
enum Reply {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, snakeCase: Bool = false) -> DemoResponse {
        bytes(JSONBody.buffer(value, snakeCase: snakeCase), status: status)
    }

    static func bytes(_ bytes: [UInt8], status: HTTPResponse.Status = .ok,
                      contentType: String = "application/json; charset=utf-8") -> DemoResponse {
        DemoResponse(status: status, headers: [.contentType: contentType], body: .bytes(bytes))
    }

    static func bytes(_ text: String, status: HTTPResponse.Status = .ok,
                      contentType: String = "application/json; charset=utf-8") -> DemoResponse {
        bytes(Array(text.utf8), status: status, contentType: contentType)
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> DemoResponse {
        json(ErrorMessage(error: message), status: status)
    }

    /// Wraps a value in the accounts family's envelope, `{"result": …}`.
    static func envelope(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> DemoResponse {
        json(Envelope(result: value), status: status)
    }

    private struct Envelope<Value: Encodable>: Encodable {
        let result: Value
    }

    /// Reads a JSON body, or throws an error that answers 400 saying what is wrong with it.
    static func decode<Value: Decodable>(_ type: Value.Type, from request: DemoRequest) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(request.body))
        } catch let error as DecodingError {
            throw BadRequest(message: "the body is not a valid \(Value.self): \(Self.describe(error))")
        } catch {
            throw BadRequest(message: "the body could not be read: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the key '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty ? context.debugDescription
                : "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default: "\(error)"
        }
    }
}

/// A 400 answer with a JSON error body, `{"error": "…"}`.
struct BadRequest: DemoHTTPError {
    let message: String

    var response: DemoResponse { Reply.error(message, status: .badRequest) }
}

/// An answer with the error body the service has always given for a parameter out of range:
/// `{"error": {"message": "…"}}`.
struct ParameterRefusal: DemoHTTPError {
    let message: String

    var response: DemoResponse { Reply.json(Body(error: .init(message: message)), status: .badRequest) }

    private struct Body: Encodable {
        struct Message: Encodable { let message: String }
        let error: Message
    }
}
