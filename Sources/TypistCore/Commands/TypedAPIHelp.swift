/// `:help` for TypedAPI's own types — the names lessons, `:describe` and `:swift` use — each with
/// its declaration's shape, what it is for, the write-up that introduces the idea, and something to try.
package enum TypedAPIHelp {
    struct Entry: Sendable {
        let name: String
        let shape: String
        let meaning: String
        let seed: Int?
        let tryIt: String
    }

    static let entries: [Entry] = [
        Entry(name: "Endpoint", shape: "struct Endpoint<Kind: EndpointKind, Response>",
              meaning: "A route: method, path, headers and how the answer decodes, with who may call it (Kind) and what it answers (Response) in its type.",
              seed: 0, tryIt: ":describe post"),
        Entry(name: "EndpointKind", shape: "protocol EndpointKind { associatedtype RequestData; static func prepare(_:with:) }",
              meaning: "Who may call an endpoint, and the data a call needs: Public (none), Bearer (an AccessToken), Basic, APIKey, or a host's own.",
              seed: 3, tryIt: ":describe search"),
        Entry(name: "Public", shape: "enum Public: EndpointKind  (RequestData == Void)",
              meaning: "An endpoint anyone may call: `client.send(endpoint)`, with no credential.",
              seed: 3, tryIt: ":describe posts"),
        Entry(name: "Bearer", shape: "enum Bearer: EndpointKind  (RequestData == AccessToken)",
              meaning: "An endpoint that needs a token: `client.send(endpoint, with: token)` sends `Authorization: Bearer …`; without one, the Swift does not compile and the prompt stops before the network.",
              seed: 3, tryIt: ":describe search"),
        Entry(name: "Basic", shape: "enum Basic: EndpointKind  (RequestData == BasicCredentials)",
              meaning: "An endpoint that needs a user name and password (HTTP Basic); at the prompt, set `username` and `password`.",
              seed: 3, tryIt: ":describe issueToken"),
        Entry(name: "APIKey", shape: "enum APIKey: EndpointKind  (RequestData == APIKeyCredential)",
              meaning: "An endpoint that needs an API key in a header; at the prompt, set `apiKey`.",
              seed: 3, tryIt: ":help apiKey"),
        Entry(name: "AccessToken", shape: "struct AccessToken  (init(_ value: String))",
              meaning: "A Bearer endpoint's request data: the token. At the prompt it is the session's `token`, shown as ••••.",
              seed: 3, tryIt: "token = login(user: \"ada\", password: \"lovelace\").token"),
        Entry(name: "RequestData", shape: "EndpointKind.RequestData",
              meaning: "What a kind needs to send a call: Void for Public, AccessToken for Bearer, BasicCredentials for Basic, APIKeyCredential for APIKey.",
              seed: 3, tryIt: ":describe search"),
        Entry(name: "APIClient", shape: "final class APIClient  (send(_:), send(_:with:))",
              meaning: "Sends endpoints through a transport and returns exactly their Response, or throws an APIError; follows redirects without credentials to another origin.",
              seed: 2, tryIt: ":swift post(id: 1)"),
        Entry(name: "APIError", shape: "enum APIError: Error  (invalidURL, invalidRequest, transport, unacceptableStatus, unexpectedContentType, decodingFailed, cancelled, timedOut, tooManyRedirects)",
              meaning: "Every way a call fails, in one type: each case says where (before sending, on the wire, in the status, in the body).",
              seed: 2, tryIt: "post(id: 999), then :explain"),
        Entry(name: "HTTPMethod", shape: "enum HTTPMethod  (.get(query:), .head(query:), .post(body, query:), .put, .patch, .delete(query:))",
              meaning: "A method with the payload it may carry: a GET, HEAD or DELETE has no body, so one with a body cannot be written.",
              seed: 1, tryIt: ":describe createPost"),
        Entry(name: "RequestBody", shape: "struct RequestBody  (.json(value), .text(string), .data(bytes, contentType:), .form(items))",
              meaning: "A body and its content type, carried by .post, .put and .patch.",
              seed: 1, tryIt: ":curl createPost(userId: 1, title: \"t\", body: \"b\")"),
        Entry(name: "HTTPHeader", shape: "struct HTTPHeader  (name, value; .accept, .contentType, .authorization, .contentDisposition, .custom(name:value:))",
              meaning: "One header, name as spelled and value: what an endpoint or a client adds, and what an exchange and a cassette hold; secret ones are shown as ••••.",
              seed: 4, tryIt: ":last"),
        Entry(name: "ServerEnvironment", shape: "struct ServerEnvironment  (init(url:), name, scheme, host, port, pathPrefix, tls)",
              meaning: "Where requests go: the base URL, apart from the routes; the session's `baseURL` and `:env`.",
              seed: 2, tryIt: ":base"),
        Entry(name: "ResponseDecoding", shape: "struct ResponseDecoding<Response>  (.json(), .json(envelope:), .text, .data, .none)",
              meaning: "How an endpoint's body becomes its Response: JSON (inside an envelope or not), text, bytes, or nothing (a 204).",
              seed: 4, tryIt: ":describe deletePost"),
        Entry(name: "APIResponse", shape: "struct APIResponse<Value>  (value, status, headers, url)",
              meaning: "An answer with its exchange: the session's `response` after a call (optional before any: `response!.status`).",
              seed: 4, tryIt: "post(id: 1); response!.status"),
        Entry(name: "Kind", shape: "Endpoint<Kind, Response>'s first parameter",
              meaning: "Who may call the endpoint and what a call needs (see EndpointKind).", seed: 3, tryIt: ":help EndpointKind"),
        Entry(name: "Response", shape: "Endpoint<Kind, Response>'s second parameter",
              meaning: "The type the answer decodes into; the compiler holds every call to it.", seed: 1, tryIt: ":type post(id: 1)"),
        Entry(name: "Decodable", shape: "protocol Decodable (Swift)",
              meaning: "What a Response must be, so the client can decode the body into it.", seed: 0, tryIt: ":source post"),
        Entry(name: "Void", shape: "typealias Void = () (Swift)",
              meaning: "No value: the Response of an endpoint that answers with no content (a 204), and a Public kind's request data.",
              seed: 4, tryIt: ":type deletePost(id: 1)"),
        Entry(name: "TLSOptions", shape: "struct TLSOptions  (certificateAuthorities, clientCertificate, clientKey, verifiesServer)",
              meaning: "A CA bundle, a client certificate and whether the server is checked: --cacert, --cert, --key, --insecure.",
              seed: nil, tryIt: "typist --help"),
    ]

    /// The write-ups of the type-safe networking pattern TypedAPI follows, in their order.
    package static let writeUps = [
        "0 · an endpoint coupled with its model",
        "1 · a phantom response type; methods that carry their payload",
        "2 · route and method enums, an error type, a configuration, one generic request",
        "3 · an envelope, endpoint kinds and the data each kind needs",
        "4 · headers, request and response processing, validation",
    ]

    static func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    static func text(_ entry: Entry) -> String {
        let seed = entry.seed.map { " (write-up \(writeUps[$0]))" } ?? ""
        return """
            \(entry.name) — TypedAPI: \(entry.shape)\(seed)
              \(entry.meaning)
              try: \(entry.tryIt)
            """
    }
}
