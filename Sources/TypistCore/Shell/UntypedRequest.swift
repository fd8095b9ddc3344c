import APIScript
import Foundation
import TypedAPI

/// One untyped call: its request, sent with whichever credential the session holds.
struct UntypedRequest: Sendable {
    let function: String
    let method: HTTPMethod
    let path: String
    let headers: [HTTPHeader]
    /// What `:swift` needs to write the call as an endpoint: the method's name, the query, the JSON body.
    let methodName: String
    let query: [URLQueryItem]
    let jsonBody: Data?
    /// The methods whose calls take a `json:` body.
    static let bodyMethods: Set<String> = ["POST", "PUT", "PATCH"]
    /// Another origin the call goes to (`crossOrigin: true`), without the session's credentials;
    /// nil for the session's own.
    let origin: ServerEnvironment?

    /// - Parameter base: The session's base URL: a URL on its origin is a path under it.
    init(function: String, method: String, values: [Value], base: ServerEnvironment) throws {
        self.function = function
        guard case .string(let given)? = values.first else { throw ArgumentError(index: 0, message: "the path must be a String") }
        let hasBody = Self.bodyMethods.contains(method)
        let crossOrigin = (values.count > (hasBody ? 4 : 3) ? values[hasBody ? 4 : 3] : .null) == .bool(true)
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
        let json = hasBody && values.count > 3 ? values[3] : .null
        jsonBody = json.isNull ? nil : try JSONWriter.data(json)
        let body = jsonBody.map { RequestBody.data($0, contentType: "application/json") } ?? RequestBody.data(Data())
        switch method {
        case "POST": self.method = .post(body, query: query)
        case "PUT": self.method = .put(body, query: query)
        case "PATCH": self.method = .patch(body, query: query)
        case "HEAD": self.method = .head(query: query)
        case "DELETE": self.method = .delete(query: query)
        default: self.method = .get(query: query)
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
    func send(_ client: APIClient, _ credentials: SessionCredentials) async throws -> Value {
        let response: APIResponse<Data>
        switch Self.kind(for: credentials) {
        case .bearer: response = try await client.send(endpoint(Bearer.self), with: try Bearer.requestData(from: credentials, calling: function))
        case .basic: response = try await client.send(endpoint(Basic.self), with: try Basic.requestData(from: credentials, calling: function))
        case .apiKey: response = try await client.send(endpoint(APIKey.self), with: try APIKey.requestData(from: credentials, calling: function))
        case .public: response = try await client.send(endpoint(Public.self), with: ())
        }
        return Self.result(response)
    }

    enum Credential: String { case bearer = "Bearer", basic = "Basic", apiKey = "APIKey", `public` = "Public" }

    /// The session's token if it has one, else its user name and password, else its API key.
    static func kind(for credentials: SessionCredentials) -> Credential {
        if credentials.token != nil { return .bearer }
        if credentials.username != nil, credentials.password != nil { return .basic }
        if credentials.apiKey != nil { return .apiKey }
        return .public
    }

    private func endpoint<Kind: EndpointKind>(_ kind: Kind.Type) -> Endpoint<Kind, APIResponse<Data>> {
        // Any status is an answer: the untyped way shows it rather than failing.
        Endpoint<Kind, Data>(method, path: path, headers: headers).accepting(statusCodes: 100..<600).includingResponse()
    }

    static func result(_ response: APIResponse<Data>) -> Value {
        var headers: [String: Value] = [:]
        for field in response.headers { headers[field.name.canonicalName] = .string(field.value) }
        let text = String(bytes: response.value, encoding: .utf8)
        // JSON Lines (several values, one a line) as the array of them.
        let json = (try? JSONReader.parse(response.value)) ?? JSONReader.parseLines(response.value).map(Value.array) ?? .null
        return .record(Record(type: Shell.httpResultType, values: [
            .int(response.status), .dictionary(headers), text.map(Value.string) ?? .null, json, .bytes(Array(response.value)),
            .int(response.value.count),
        ]))
    }
}
