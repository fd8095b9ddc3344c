import APIScript
import Foundation
import TypedAPI

/// The untyped way in: `httpGet("/anything", query: ["a": "1"])`, `httpPost(path, json: value)`,
/// `httpPost(path, multipart: ["file": file("cat.png")])` —
/// for endpoints nobody has registered yet. They go to the session's base URL with its headers,
/// cookies and credentials, like any endpoint, and answer with what came back, whatever the status.
extension Shell {
    /// What an untyped call returns.
    static let httpResultType = RecordType(name: "HTTPResult", fields: [
        .init("status", .int), .init("headers", .dictionary(.string)), .init("text", .optional(.string)),
        .init("json", .any), .init("bytes", .bytes), .init("size", .int),
    ])

    /// The untyped functions by name, with their method.
    static let untypedCalls: [(name: String, method: String)] = [
        ("httpGet", "GET"), ("httpHead", "HEAD"), ("httpDelete", "DELETE"),
        ("httpPost", "POST"), ("httpPut", "PUT"), ("httpPatch", "PATCH"),
    ]

    /// The untyped stream's name.
    static let untypedStreamName = "httpStream"

    /// Registers the untyped calls, except where the host already has an endpoint of that name.
    func registerUntypedCalls() throws {
        interpreter.register(Self.httpResultType)
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
        let client = client
        let session = session
        let recorder = ExchangeRecorder(session: session, host: nil)
        let summary = "An untyped GET whose answer is an event stream (text/event-stream) or JSON Lines, under baseURL (another origin "
            + "with crossOrigin: true, without the session's credentials): each item, as it arrives, the JSON its event's data or line is, else its text"
        return HostFunction(name: name, parameters: parameters, returnType: .stream(.any), summary: summary) { values in
            for value in values { session.rememberSecrets(inFieldsOf: value) }
            let request = try UntypedRequest(function: name, method: "GET", values: values, base: client.environment)
            let client = request.origin.map { client.crossOrigin(to: $0, recorder: recorder) } ?? client
            let credentials = request.origin == nil ? session.credentials : SessionCredentials()
            let tls = client.environment.tls
            let advice = { @Sendable (error: any Error) -> any Error in
                session.update { $0.lastFailure = .init(function: name + "(_:)", error: error) }
                return CallAdvice.wrapping(error, notes: TLSAdvice.note(for: error, options: tls).map { [$0] } ?? [])
            }
            do {
                if let preview = Preview.current {
                    preview.keep(try request.prepareStream(client, credentials))
                    preview.noteCall(answersList: false)
                    return SampleValue.of(.stream(.any))
                }
                let items = try request.stream(client, credentials)
                return .stream(ScriptStream(origin: name + "(_:)") { items.map { UntypedRequest.streamItem($0) } }.mappingErrors(advice))
            } catch {
                throw advice(error)
            }
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
        let client = client
        let session = session
        let recorder = ExchangeRecorder(session: session, host: nil)
        let summary = "An untyped \(method) to a path under baseURL (or a URL on its origin; another origin with crossOrigin: true, "
            + "without the session's credentials)" + (hasBody ? ", with one body: json: any value, form: fields, or multipart: fields and file(…)s" : "")
            + "; answers with status, headers, text and json, whatever the status"
        return HostFunction(name: name, parameters: parameters, returnType: .record(Self.httpResultType), summary: summary) { values in
            // Fields with secret names (`password`, `api_key`) in its query, headers or body are masked from here on.
            for value in values { session.rememberSecrets(inFieldsOf: value) }
            let request = try UntypedRequest(function: name, method: method, values: values, base: client.environment)
            // Another origin gets none of the session's credentials, headers or cookies.
            let client = request.origin.map { client.crossOrigin(to: $0, recorder: recorder) } ?? client
            // The session's own credentials, also in a preview: `:curl` shows each as the variable it is remembered by.
            let credentials = request.origin == nil ? session.credentials : SessionCredentials()
            // In a preview, a second client whose transport answers with an empty JSON body.
            let preview = Preview.current
            preview?.note(request)
            let call = preview?.call(like: client, answering: Data())
            do {
                return try await request.send(call?.client ?? client, credentials)
            } catch where call?.wasSent == true {
                return SampleValue.of(.record(Self.httpResultType))
            } catch {
                session.update { $0.lastFailure = .init(function: name + "(_:)", error: error) }
                throw CallAdvice.wrapping(error, notes: TLSAdvice.note(for: error, options: client.environment.tls).map { [$0] } ?? [])
            }
        }
    }
}

extension APIClient {
    /// A client for another origin: this one's transport, time limit and plain headers
    /// (`User-Agent`), and none of its credentials, secret headers, cookies or host delegate
    /// (which may sign requests) or its client certificate; the exchange is still recorded for `:last`.
    func crossOrigin(to origin: ServerEnvironment, recorder: ExchangeRecorder) -> APIClient {
        var origin = origin
        origin.tls = environment.tls.forOtherOrigin
        let configuration = APIClient.Configuration(headers: defaultHeaders.filter { !Redaction.isSecretHeader($0.name) }, timeout: timeout)
        return APIClient(environment: origin, transport: transport, configuration: configuration, delegate: recorder)
    }
}
