import TypistCore

/// The names the five write-ups of the type-safe networking pattern use, and what each is called in
/// TypedAPI and at the prompt (`:help Route`, `:glossary`).
struct Glossary {
    struct Entry: Sendable {
        /// The write-up's name, as `:help` takes it.
        let term: String
        /// Which write-up (lesson) uses it, 0…4.
        let seed: Int
        /// TypedAPI's name for the same idea.
        let typedAPI: String
        /// What it is, in one or two sentences.
        let meaning: String
        /// Something to try at the prompt.
        let tryIt: String
    }

    /// The write-ups in their order, as the workshop's lessons name them.
    static var seeds: [String] { TypedAPIHelp.writeUps }

    static let entries: [Entry] = [
        Entry(term: "Route", seed: 0, typedAPI: "Endpoint<Kind, Response>",
              meaning: "A route that names the model its response decodes into, so asking a route for the wrong model does not compile.",
              tryIt: ":describe breeds"),
        Entry(term: "Routes", seed: 0, typedAPI: "static factories on Endpoint (Endpoint.posts, .post(id:))",
              meaning: "The catalogue of an API's routes; in TypedAPI each is a static property or function of an Endpoint extension constrained to its response type.",
              tryIt: ":endpoints"),
        Entry(term: "Result", seed: 0, typedAPI: "async throws (try await client.send(…)), or Result<Response, APIError> from the completion-handler send",
              meaning: "Success with the model, or failure with an error; Swift's own Result and async/throws replaced the hand-written enum.",
              tryIt: "try? post(id: 999)"),
        Entry(term: "NetworkService", seed: 0, typedAPI: "APIClient",
              meaning: "The object that builds the URL, sends the request and decodes the answer.",
              tryIt: ":swift post(id: 1)"),
        Entry(term: "fetch", seed: 0, typedAPI: "APIClient.send(_:)",
              meaning: "One generic call whose result type comes from the endpoint, not from the caller's annotation.",
              tryIt: ":type post(id: 1)"),
        Entry(term: "Request", seed: 1, typedAPI: "Endpoint<Kind, Response>",
              meaning: "A request description whose generic parameter is the response type (a phantom type: no stored property uses it).",
              tryIt: ":describe searchRepositories"),
        Entry(term: "HttpMethod", seed: 1, typedAPI: "HTTPMethod (.get(query:), .post(body, query:), .put, .patch, .delete(query:), .head)",
              meaning: "Methods as enum cases that carry exactly what they may: a GET has query items and no body, so a GET with a body cannot be written.",
              tryIt: ":curl createPost(userId: 1, title: \"t\", body: \"b\")"),
        Entry(term: "publisher", seed: 1, typedAPI: "APIClient.publisher(for:) in TypedAPICombine (Combine, or OpenCombine on Linux)",
              meaning: "A publisher of the request's own response type, so the pipeline after it (.map(\\.items)) is checked by the compiler.",
              tryIt: ":swift --publisher searchRepositories(query: \"swift\").items.count"),
        Entry(term: "decode", seed: 1, typedAPI: "APIClient.send(_:) (async)",
              meaning: "The async form: await the request's response type, decoded; the caller names no type.",
              tryIt: ":swift searchRepositories(query: \"swift\").items.count"),
        Entry(term: "HTTPError", seed: 2, typedAPI: "APIError",
              meaning: "One error type for everything a call can meet: a bad URL, no response, a status outside 2xx, the wrong content type, a body that does not decode, a time-out.",
              tryIt: "status(code: 503) then :explain"),
        Entry(term: "APIConfig", seed: 2, typedAPI: "ServerEnvironment and APIClient.Configuration",
              meaning: "Where requests go and how (base URL, default headers, time limit), kept apart from the endpoints.",
              tryIt: ":base"),
        Entry(term: "API", seed: 2, typedAPI: "an EndpointRegistry (the shell's functions), or an app's own facade over APIClient",
              meaning: "A facade with one function per endpoint; the shell's functions are such a facade, generated from the registrations.",
              tryIt: ":endpoints"),
        Entry(term: "request", seed: 2, typedAPI: "APIClient.send(_:)",
              meaning: "A generic request<T: Decodable> whose T the caller chooses; TypedAPI takes T from the endpoint instead, so the caller cannot choose wrongly.",
              tryIt: ":type posts()"),
        Entry(term: "NetworkResponse", seed: 3, typedAPI: "ResponseDecoding.json(envelope:), Endpoint(path:envelope:)",
              meaning: "A wrapper the server puts around every answer ({\"result\": …}); the endpoint unwraps it so callers see the model.",
              tryIt: ":describe search"),
        Entry(term: "EndpointKind", seed: 3, typedAPI: "EndpointKind (Public, Bearer, Basic, APIKey, or a host's own)",
              meaning: "A type parameter that says what a request needs before it can be sent.",
              tryIt: ":describe search"),
        Entry(term: "RequestData", seed: 3, typedAPI: "EndpointKind.RequestData (Void, AccessToken, BasicCredentials, APIKeyCredential)",
              meaning: "What a kind needs for every request; sending a private endpoint without a token does not compile in Swift, and stops before the network here.",
              tryIt: "search(query: \"mug\")"),
        Entry(term: "Private", seed: 3, typedAPI: "Bearer",
              meaning: "The kind of endpoints that need an access token, sent as Authorization: Bearer.",
              tryIt: "login(user: \"ada\", password: \"lovelace\")"),
        Entry(term: "AccessToken", seed: 3, typedAPI: "AccessToken (the session's `token`)",
              meaning: "The request data of Bearer endpoints; the session keeps it and prints it as ••••.",
              tryIt: "token"),
        Entry(term: "Endpoint", seed: 4, typedAPI: "Endpoint<Kind, Response> (a struct, not a protocol)",
              meaning: "Everything about one request: method and payload, path, headers, accepted statuses, time limit, how to decode.",
              tryIt: ":describe createPost"),
        Entry(term: "HTTPHeader", seed: 4, typedAPI: "HTTPHeader (.accept, .contentType, .authorization, .custom)",
              meaning: "Headers as enum cases, so the common ones cannot be misspelled; credentials among them are masked.",
              tryIt: ":last"),
        Entry(term: "APIRequestFor", seed: 4, typedAPI: "Endpoint<Kind, Response>",
              meaning: "A request generic over its result type, so that only a response of that type answers it.",
              tryIt: ":type post(id: 1)"),
        Entry(term: "APIResponseOf", seed: 4, typedAPI: "the value send(_:) returns, or .includingResponse() for the status and headers beside it",
              meaning: "The answer to a request, typed by the request's result type.",
              tryIt: ":last"),
        Entry(term: "ResultType", seed: 4, typedAPI: "Endpoint's Response type parameter",
              meaning: "What a request's answer decodes into; for an answer without a body, TypedAPI's is Void.",
              tryIt: ":type deletePost(id: 1)"),
        Entry(term: "APIRequestProcessing", seed: 4, typedAPI: "APIClient.prepare(_:with:) and APIClientDelegate",
              meaning: "The steps that turn an endpoint into bytes on the wire; the delegate can sign, retry and observe.",
              tryIt: ":curl post(id: 1)"),
        Entry(term: "validate", seed: 4, typedAPI: "the client's checks: Endpoint.acceptableStatusCodes and the Accept header against Content-Type",
              meaning: "A response must have an accepted status and the promised content type before it is decoded; each failed check is its own APIError case.",
              tryIt: "notJSON() then :explain"),
        Entry(term: "APIResponseDecodable", seed: 4, typedAPI: "ResponseDecoding (json, json(envelope:), text, data, none)",
              meaning: "How an endpoint turns a body into its response type.",
              tryIt: ":describe deletePost"),
        Entry(term: "MIMEType", seed: 4, typedAPI: "the Accept and Content-Type headers (HTTPHeader.accept, .contentType)",
              meaning: "The media types a request sends and accepts.",
              tryIt: ":describe notJSON"),
    ]

    /// The entry for a term, in any letter case.
    static func entry(_ term: String) -> Entry? {
        entries.first { $0.term.lowercased() == term.lowercased() }
    }

    /// `:help Route`.
    static func text(_ entry: Entry) -> String {
        """
        \(entry.term) (write-up \(seeds[entry.seed])) — in TypedAPI: \(entry.typedAPI)
          \(entry.meaning)
          try: \(entry.tryIt)
        """
    }

    /// `:glossary`: every term, by write-up.
    static var listing: String {
        var lines: [String] = []
        for (index, title) in seeds.enumerated() {
            lines.append("Write-up \(title)")
            for entry in entries where entry.seed == index {
                lines.append("  " + entry.term.padding(toLength: 22, withPad: " ", startingAt: 0) + entry.typedAPI)
            }
        }
        lines.append("More: :help <term>, such as :help Route")
        return lines.joined(separator: "\n")
    }
}
