import APIScript
import Foundation
import TypedAPI

/// One untyped call: its request, sent with whichever credential the session holds.
struct UntypedRequest: Sendable {
    let function: String
    let method: HTTPMethod
    let path: String
    let headers: [HTTPHeader]
    /// What `:swift` needs to write the call as an endpoint: the method's name, the query, the body.
    let methodName: String
    let query: [URLQueryItem]
    let body: Body
    /// What an untyped call returns.
    static let resultType = RecordType(name: "HTTPResult", fields: [
        .init("status", .int), .init("headers", .dictionary(.string)), .init("text", .optional(.string)),
        .init("json", .any), .init("bytes", .bytes), .init("size", .int),
    ])
    /// The methods whose calls take a body (`json:`, `form:` or `multipart:`).
    static let bodyMethods: Set<String> = ["POST", "PUT", "PATCH"]

    /// A call's body, as its argument gave it.
    enum Body: Sendable {
        case none
        case json(Data)
        case form([URLQueryItem])
        case multipart([MultipartPart])

        var requestBody: RequestBody {
            switch self {
            case .none: .data(Data())
            case .json(let data): .data(data, contentType: "application/json")
            case .form(let items): .form(items)
            case .multipart(let parts): .multipart(parts)
            }
        }
    }
    /// Another origin the call goes to (`crossOrigin: true`), without the session's credentials;
    /// nil for the session's own.
    let origin: ServerEnvironment?

    /// - Parameter base: The session's base URL: a URL on its origin is a path under it.
    init(function: String, method: String, values: [Value], base: ServerEnvironment) throws {
        self.function = function
        guard case .string(let given)? = values.first else { throw ArgumentError(index: 0, message: "the path must be a String") }
        let hasBody = Self.bodyMethods.contains(method)
        let crossOriginIndex = hasBody ? 6 : 3
        let crossOrigin = (values.count > crossOriginIndex ? values[crossOriginIndex] : .null) == .bool(true)
        (path, origin) = try Self.target(given, base: base, crossOrigin: crossOrigin)
        var query: [URLQueryItem] = []
        if case .dictionary(let entries)? = values.dropFirst().first {
            for key in entries.keys.sorted() {
                guard case .string(let text) = entries[key] ?? .null else { throw ArgumentError(index: 1, message: "query value '\(key)' must be a String") }
                query.append(URLQueryItem(name: key, value: text))
            }
        }
        var headers: [HTTPHeader] = []
        if case .dictionary(let entries)? = values.dropFirst(2).first {
            for key in entries.keys.sorted() {
                guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }) else {
                    throw ArgumentError(index: 2, message: "'\(key)' is not a valid header name")
                }
                switch entries[key] ?? .null {
                case .string(let text), .secret(let text): headers.append(.custom(name: key, value: text))
                default: throw ArgumentError(index: 2, message: "header '\(key)' must be a String")
                }
            }
        }
        self.headers = headers
        self.methodName = method
        self.query = query
        body = hasBody ? try Self.body(Array(values.dropFirst(3).prefix(3))) : .none
        let body = body.requestBody
        switch method {
        case "POST": self.method = .post(body, query: query)
        case "PUT": self.method = .put(body, query: query)
        case "PATCH": self.method = .patch(body, query: query)
        case "HEAD": self.method = .head(query: query)
        case "DELETE": self.method = .delete(query: query)
        default: self.method = .get(query: query)
        }
    }

    /// The body from `json:`, `form:` and `multipart:` (at most one of them): a form's and
    /// multipart's fields in their names' order, a list's elements each under the name.
    private static func body(_ values: [Value]) throws -> Body {
        let given = values.enumerated().filter { !$0.element.isNull }
        guard given.count <= 1 else { throw ArgumentError(index: 3 + (given.last?.offset ?? 0), message: "give one body: json:, form: or multipart:") }
        guard let (offset, value) = given.first else { return .none }
        let index = 3 + offset
        switch offset {
        case 0: return .json(try JSONWriter.data(value))
        case 1:
            guard case .dictionary(let entries) = value else { throw ArgumentError(index: index, message: "form: takes [String: String]") }
            return .form(try entries.keys.sorted().flatMap { key in
                try elements(of: entries[key] ?? .null).map { element -> URLQueryItem in
                    guard let text = text(element) else { throw ArgumentError(index: index, message: "form field '\(key)' must be a String or a number") }
                    return URLQueryItem(name: key, value: text)
                }
            })
        default:
            guard case .dictionary(let entries) = value else { throw ArgumentError(index: index, message: "multipart: takes [String: Any]") }
            return .multipart(try entries.keys.sorted().flatMap { key in
                try elements(of: entries[key] ?? .null).map { try MultipartPart.fromScript(key, $0, text: text, argument: index) }
            })
        }
    }

    /// A field's values: a list's elements, one value once, nil none.
    private static func elements(of value: Value) -> [Value] {
        switch value {
        case .null: []
        case .array(let items) where !items.contains(where: { if case .array = $0 { true } else if case .dictionary = $0 { true } else { false } }): items
        default: [value]
        }
    }

    /// A form or multipart field's text: strings as they are, numbers and Booleans as JSON writes them.
    private static func text(_ value: Value) -> String? {
        switch value {
        case .string(let text), .secret(let text): text
        case .int(let number): String(number)
        case .double(let number): ValueFormatter.literal(.double(number))
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// Where a call goes: a path under the base URL; a URL on the base URL's origin (such as a
    /// `next_url` or a `Link` header's) as that path; another origin only when asked for.
    static func target(_ given: String, base: ServerEnvironment, crossOrigin: Bool) throws -> (String, ServerEnvironment?) {
        if given.hasPrefix("/") { return (given, nil) }
        guard let components = URLComponents(string: given), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw ArgumentError(index: 0, message: "'\(given)' is not a path or an http(s) URL: write a path that starts with '/' (it goes to baseURL)")
        }
        guard components.user == nil, components.password == nil else {
            throw ArgumentError(index: 0, message: "credentials in the URL are not sent: set username and password (or a token) instead")
        }
        let path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let origin = "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
        let target = try ServerEnvironment(url: origin)
        if target.hasSameOrigin(as: base) {
            let prefix = base.pathPrefix
            guard prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/") || path.hasPrefix(prefix + "?") else {
                throw ArgumentError(index: 0, message: "'\(given)' is on this service but outside baseURL's path '\(prefix)': set baseURL = \"\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")\" to reach it")
            }
            let rest = String(path.dropFirst(prefix.count))
            return (rest.isEmpty || rest.hasPrefix("?") ? "/" + rest : rest, nil)
        }
        guard crossOrigin else {
            throw ArgumentError(index: 0, message: "'\(given)' is on another origin than baseURL (\(base.baseURL)): pass crossOrigin: true to call it without the session's credentials, or set baseURL = \"\(origin)\"")
        }
        return (path, target)
    }

    /// Sends it and returns an `HTTPResult`.
    func send(_ client: APIClient, _ credentials: SessionCredentials, context: CallContext) async throws -> Value {
        Self.result(try await sending(credentials).send(client, context: context))
    }

    /// Its items as a stream (an event stream's events, or JSON Lines), with whichever credential
    /// the session holds; the request goes when the stream is read.
    func stream(_ client: APIClient, _ credentials: SessionCredentials, context: CallContext) throws -> ItemStream<StreamItemBytes> {
        try sending(credentials).stream(client, context: context)
    }

    /// The stream's request, prepared as it will go (for `:curl`), with the session's credentials.
    func prepareStream(_ client: APIClient, _ credentials: SessionCredentials) throws -> PreparedRequest {
        var prepared = try sending(credentials).prepareStream(client)
        prepared.acceptStreams()
        return prepared
    }

    /// A stream's item as a script sees it: the JSON it is, else its text.
    static func streamItem(_ item: StreamItemBytes) -> Value {
        (try? JSONReader.parse(Data(item.bytes))) ?? .string(String(decoding: item.bytes, as: UTF8.self))
    }

    /// The request with the credential the session holds, of the kind that sends it.
    private func sending(_ credentials: SessionCredentials) throws -> any UntypedSending {
        switch Self.kind(for: credentials) {
        case .bearer: UntypedSend<Bearer>(request: self, data: try Bearer.requestData(from: credentials, calling: function))
        case .basic: UntypedSend<Basic>(request: self, data: try Basic.requestData(from: credentials, calling: function))
        case .apiKey: UntypedSend<APIKey>(request: self, data: try APIKey.requestData(from: credentials, calling: function))
        case .public: UntypedSend<Public>(request: self, data: ())
        }
    }

    enum Credential: String { case bearer = "Bearer", basic = "Basic", apiKey = "APIKey", `public` = "Public" }

    /// The session's token if it has one, else its user name and password, else its API key.
    static func kind(for credentials: SessionCredentials) -> Credential {
        if credentials.token != nil { return .bearer }
        if credentials.username != nil, credentials.password != nil { return .basic }
        if credentials.apiKey != nil { return .apiKey }
        return .public
    }

    fileprivate func endpoint<Kind: EndpointKind>(_ kind: Kind.Type) -> Endpoint<Kind, APIResponse<Data>> {
        // Any status is an answer: the untyped way shows it rather than failing.
        Endpoint<Kind, Data>(method, path: path, headers: headers).accepting(statusCodes: 100..<600).includingResponse()
    }

    /// A stream's endpoint: any answer but a stream is an error (with the start of its body).
    fileprivate func streamEndpoint<Kind: EndpointKind>(_ kind: Kind.Type) -> Endpoint<Kind, StreamItemBytes> {
        Endpoint<Kind, StreamItemBytes>(method, path: path, headers: headers)
    }

    static func result(_ response: APIResponse<Data>) -> Value {
        var headers: [String: Value] = [:]
        for field in response.headers { headers[field.name.canonicalName] = .string(field.value) }
        let text = String(bytes: response.value, encoding: .utf8)
        // JSON Lines (several values, one a line) as the array of them.
        let json = (try? JSONReader.parse(response.value)) ?? JSONReader.parseLines(response.value).map(Value.array) ?? .null
        return .record(Record(type: Self.resultType, values: [
            .int(response.status), .dictionary(headers), text.map(Value.string) ?? .null, json, .bytes(Array(response.value)),
            .int(response.value.count),
        ]))
    }
}

/// An untyped request with a credential, ready to send, stream or prepare.
private protocol UntypedSending {
    func send(_ client: APIClient, context: CallContext) async throws -> APIResponse<Data>
    func stream(_ client: APIClient, context: CallContext) -> ItemStream<StreamItemBytes>
    func prepareStream(_ client: APIClient) throws -> PreparedRequest
}

private struct UntypedSend<Kind: EndpointKind>: UntypedSending where Kind.RequestData: Sendable {
    let request: UntypedRequest
    let data: Kind.RequestData

    func send(_ client: APIClient, context: CallContext) async throws -> APIResponse<Data> {
        try await client.send(request.endpoint(Kind.self), with: data, context: context)
    }
    func stream(_ client: APIClient, context: CallContext) -> ItemStream<StreamItemBytes> {
        client.stream(request.streamEndpoint(Kind.self), with: data, context: context)
    }
    func prepareStream(_ client: APIClient) throws -> PreparedRequest { try client.prepare(request.streamEndpoint(Kind.self), with: data) }
}
