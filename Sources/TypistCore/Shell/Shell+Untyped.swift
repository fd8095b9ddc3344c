import APIScript
import Foundation
import TypedAPI

/// The untyped way in: `httpGet("/anything", query: ["a": "1"])`, `httpPost(path, json: value)`,
/// `httpPost(path, multipart: ["file": file("cat.png")])` —
/// for endpoints nobody has registered yet. They go to the session's base URL with its headers,
/// cookies and credentials, like any endpoint, and answer with what came back, whatever the status.
extension Shell {

    /// The untyped functions by name, with their method.
    static let untypedCalls: [(name: String, method: String)] = [
        ("httpGet", "GET"), ("httpHead", "HEAD"), ("httpDelete", "DELETE"),
        ("httpPost", "POST"), ("httpPut", "PUT"), ("httpPatch", "PATCH"),
    ]

    /// The untyped stream's name.
    static let untypedStreamName = "httpStream"

    /// Registers the untyped calls, except where the host already has an endpoint of that name.
    func registerUntypedCalls() throws {
        interpreter.register(UntypedRequest.resultType)
        let taken = Set(registry.endpoints.map(\.name))
        for (name, method) in Self.untypedCalls where !taken.contains(name) {
            try interpreter.register(untypedCall(name: name, method: method))
        }
        if !taken.contains(Self.untypedStreamName) { try interpreter.register(untypedStream()) }
    }

    /// `httpStream(path, query:, headers:, crossOrigin:)`: a `GET` whose answer is an event stream
    /// or JSON Lines, read as it arrives — for a service whose document does not say it streams
    /// (FastAPI's and Litestar's declare their event streams as JSON) or that has none. Each item is
    /// the JSON its event's `data` (or its line) is, else its text.
    private func untypedStream() -> HostFunction {
        let name = Self.untypedStreamName
        let parameters = [
            HostFunction.Parameter(label: nil, name: "path", type: .string),
            HostFunction.Parameter(label: "query", type: .dictionary(.string), defaultValue: .dictionary([:])),
            HostFunction.Parameter(label: "headers", type: .dictionary(.string), defaultValue: .dictionary([:])),
            HostFunction.Parameter(label: "crossOrigin", type: .bool, defaultValue: .bool(false)),
        ]
        let (client, session, router) = (client, session, router)
        let summary = "An untyped GET whose answer is an event stream (text/event-stream) or JSON Lines, under baseURL (another origin "
            + "with crossOrigin: true, without the session's credentials): each item, as it arrives, the JSON its event's data or line is, else its text"
        return HostFunction(name: name, parameters: parameters, returnType: .stream(.any), summary: summary) { values in
            for value in values { session.rememberSecrets(inFieldsOf: value) }
            return try router.untypedStream(try UntypedRequest(function: name, method: "GET", values: values, base: client.environment))
        }
    }

    private func untypedCall(name: String, method: String) -> HostFunction {
        var parameters = [
            HostFunction.Parameter(label: nil, name: "path", type: .string),
            HostFunction.Parameter(label: "query", type: .dictionary(.string), defaultValue: .dictionary([:])),
            HostFunction.Parameter(label: "headers", type: .dictionary(.string), defaultValue: .dictionary([:])),
        ]
        let hasBody = UntypedRequest.bodyMethods.contains(method)
        if hasBody {
            parameters.append(.init(label: "json", type: .any, defaultValue: .null))
            parameters.append(.init(label: "form", type: .optional(.dictionary(.any)), defaultValue: .null))
            parameters.append(.init(label: "multipart", type: .optional(.dictionary(.any)), defaultValue: .null))
        }
        parameters.append(.init(label: "crossOrigin", type: .bool, defaultValue: .bool(false)))
        let (client, session, router) = (client, session, router)
        let summary = "An untyped \(method) to a path under baseURL (or a URL on its origin; another origin with crossOrigin: true, "
            + "without the session's credentials)" + (hasBody ? ", with one body: json: any value, form: fields, or multipart: fields and file(…)s" : "")
            + "; answers with status, headers, text and json, whatever the status"
        return HostFunction(name: name, parameters: parameters, returnType: .record(UntypedRequest.resultType), summary: summary) { values, scope in
            // Fields with secret names (`password`, `api_key`) in its query, headers or body are masked from here on.
            for value in values { session.rememberSecrets(inFieldsOf: value) }
            let request = try UntypedRequest(function: name, method: method, values: values, base: client.environment)
            return try await router.untyped(request, scope: scope)
        }
    }
}
