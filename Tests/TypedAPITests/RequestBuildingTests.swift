import Foundation
import HTTPTypes
import Testing
import TypistTesting
import TypedAPI

private struct Draft: Codable, Sendable, Equatable {
    var userId: Int
    var createdAt: Date
}

/// A host's own kind: a signed request with a tenant header.
private enum Tenant: EndpointKind {
    static func prepare(_ request: inout PreparedRequest, with tenant: String) throws {
        guard !tenant.isEmpty else { throw TenantError.empty }
        request.setHeader(.custom(name: "X-Tenant", value: tenant))
    }
}

private enum TenantError: Error, CustomStringConvertible {
    case empty
    var description: String { "the tenant is empty" }
}

/// A host's own body encoding.
private struct CSVBody: RequestBodyEncoding {
    var rows: [[String]]
    var contentType: String { "text/csv" }
    func encode(using jsonEncoder: JSONEncoder) throws -> Data {
        Data(rows.map { $0.joined(separator: ",") }.joined(separator: "\n").utf8)
    }
}

private func client(_ transport: InMemoryTransport, base: String = "https://api.example.test/v2",
                    configuration: APIClient.Configuration = .init()) throws -> APIClient {
    APIClient(environment: try ServerEnvironment(name: "production", url: base), transport: transport,
              configuration: configuration)
}

@Suite("Request building")
struct RequestBuildingTests {
    @Test("Scheme, host, port and path prefix come from the environment")
    func url() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport, base: "http://127.0.0.1:8080/api/")
        _ = try await api.send(Endpoint<Public, Data>(path: "posts/1"))
        let sent = try #require(transport.last)
        #expect(sent.url == "http://127.0.0.1:8080/api/posts/1")
        #expect(sent.request.method == .get)
        #expect(sent.request.authority == "127.0.0.1:8080")
    }

    @Test("Query values are escaped, '+', '&', '=' and non-ASCII included",
          arguments: [("swift", "swift"), ("a b", "a%20b"), ("c++", "c%2B%2B"), ("x&y=z", "x%26y%3Dz"),
                      ("naïve ✓", "na%C3%AFve%20%E2%9C%93"), ("/path?q#f", "%2Fpath%3Fq%23f"), ("", "")])
    func queryEscaping(value: String, expected: String) async throws {
        let transport = InMemoryTransport()
        _ = try await client(transport).send(
            Endpoint<Public, Data>(.get(query: [URLQueryItem(name: "q", value: value),
                                                URLQueryItem(name: "flag", value: nil)]), path: "/search"))
        #expect(transport.last?.request.path == "/v2/search?q=\(expected)&flag")
    }

    @Test("Every method carries query items, and a query written in the path comes first")
    func queryOnEveryMethod() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport)
        let notify = [URLQueryItem(name: "notify", value: "1")]
        let body = RequestBody.text("x")
        for method in [HTTPMethod.post(body, query: notify), .put(body, query: notify), .patch(body, query: notify),
                       .delete(query: notify), .get(query: notify), .head(query: notify)] {
            _ = try await api.send(Endpoint<Public, Data>(method, path: "/posts"))
            #expect(transport.last?.request.path == "/v2/posts?notify=1", "\(method.name)")
            #expect(transport.last?.request.method.rawValue == method.name)
        }
        #expect(HTTPMethod.delete.queryItems.isEmpty && HTTPMethod.post(body).queryItems.isEmpty)
        _ = try await api.send(Endpoint<Public, Data>(.post(body, query: [URLQueryItem(name: "x", value: "a b")]),
                                                      path: "/posts?notify=1&tag=%C3%A9"))
        #expect(transport.last?.request.path == "/v2/posts?notify=1&tag=%C3%A9&x=a%20b")
        let error = await expectAPIError { try await api.send(Endpoint<Public, Data>(path: "/posts?bad=%zz")) }
        #expect(error?.description.contains("the query 'bad=%zz' in the path does not parse") == true, "\(String(describing: error))")
    }

    @Test("The segments . and .. are escaped, so they name a value, not a folder")
    func dotSegments() {
        #expect(Endpoint<Public, Data>.escape(".") == "%2E")
        #expect(Endpoint<Public, Data>.escape("..") == "%2E%2E")
        #expect(Endpoint<Public, Data>.escape("a..b") == "a..b")
        #expect(Endpoint<Public, Data>.escape("...") == "...")
    }

    @Test("Path segments escape with Endpoint.escape")
    func pathEscaping() async throws {
        let transport = InMemoryTransport()
        _ = try await client(transport).send(Endpoint<Public, Data>(path: "/breeds/\(Endpoint<Public, Data>.escape("hound afghan/1"))"))
        #expect(transport.last?.request.path == "/v2/breeds/hound%20afghan%2F1")
    }

    @Test("Default headers, endpoint headers, Accept and Content-Type, in that order of precedence")
    func headers() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport, configuration: .init(headers: [.custom(name: "User-Agent", value: "typist"),
                                                                       .custom(name: "X-Trace", value: "default")]))
        _ = try await api.send(
            Endpoint<Public, Data>(.post(.text("hi")), path: "/notes",
                                   headers: [.custom(name: "x-trace", value: "endpoint"),
                                             .contentDisposition("attachment; filename=\"n.txt\""),
                                             .accept(["text/plain", "application/json"])]))
        let sent = try #require(transport.last)
        #expect(sent.header("User-Agent") == "typist")
        #expect(sent.header("X-Trace") == "endpoint")
        #expect(sent.header("Accept") == "text/plain, application/json")
        #expect(sent.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(sent.header("Content-Disposition") == "attachment; filename=\"n.txt\"")
        api.defaultHeaders = []
        _ = try? await api.send(Endpoint<Public, Draft>(path: "/posts/1"))
        #expect(transport.last?.header("User-Agent") == nil)
        #expect(transport.last?.header("Accept") == "application/json")
    }

    @Test("An invalid header name is reported, not sent")
    func invalidHeaderName() async throws {
        let transport = InMemoryTransport()
        let error = await expectAPIError {
            try await client(transport).send(Endpoint<Public, Data>(path: "/x").header(.custom(name: "Bad Name", value: "1")))
        }
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason == "'Bad Name' is not a valid header name")
        #expect(transport.requests.isEmpty)
    }

    @Test("Methods carry only their payloads")
    func methods() {
        let body = RequestBody.text("x")
        #expect(HTTPMethod.get(query: [URLQueryItem(name: "a", value: "1")]).queryItems.count == 1)
        #expect(HTTPMethod.get().body == nil)
        #expect(HTTPMethod.head().name == "HEAD")
        #expect(HTTPMethod.post(body).body?.contentType == "text/plain; charset=utf-8")
        #expect(HTTPMethod.post(body).queryItems.isEmpty)
        #expect(HTTPMethod.put(body).name == "PUT" && HTTPMethod.patch(body).name == "PATCH")
        #expect(HTTPMethod.delete.body == nil && HTTPMethod.delete.queryItems.isEmpty)
    }

    @Test("The default encoder sorts keys, so a body is the same bytes in every process")
    func sortedKeysByDefault() async throws {
        struct Wide: Encodable, Sendable { var zeta = 1, alpha = 2, mid = 3, beta = 4, omega = 5, gamma = 6 }
        let transport = InMemoryTransport()
        let api = try client(transport)
        _ = try await api.send(Endpoint<Public, Data>(.post(.json(Wide())), path: "/wide"))
        #expect(transport.last?.bodyText == #"{"alpha":2,"beta":4,"gamma":6,"mid":3,"omega":5,"zeta":1}"#)
    }

    @Test("JSON bodies use the client's encoder unless the body brings its own")
    func jsonBodies() async throws {
        let transport = InMemoryTransport()
        let configuration = APIClient.Configuration()
        configuration.encoder.keyEncodingStrategy = .convertToSnakeCase
        configuration.encoder.dateEncodingStrategy = .secondsSince1970
        configuration.encoder.outputFormatting = .sortedKeys
        let api = try client(transport, configuration: configuration)
        let draft = Draft(userId: 7, createdAt: Date(timeIntervalSince1970: 0))
        _ = try await api.send(Endpoint<Public, Data>(.post(.json(draft)), path: "/drafts"))
        #expect(transport.last?.bodyText == #"{"created_at":0,"user_id":7}"#)
        #expect(transport.last?.header("Content-Type") == "application/json")

        let own = JSONEncoder()
        own.dateEncodingStrategy = .iso8601
        own.outputFormatting = .sortedKeys
        _ = try await api.send(Endpoint<Public, Data>(.put(.json(draft, encoder: own)), path: "/drafts/1"))
        #expect(transport.last?.bodyText == #"{"createdAt":"1970-01-01T00:00:00Z","userId":7}"#)
        #expect(transport.last?.request.method == .put)
    }

    @Test("Raw, form and custom bodies")
    func otherBodies() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport)
        _ = try await api.send(Endpoint<Public, Data>(.post(.data(Data([0, 1, 255]), contentType: "image/png")), path: "/raw"))
        #expect(transport.last?.body == Data([0, 1, 255]))
        #expect(transport.last?.header("Content-Type") == "image/png")

        _ = try await api.send(Endpoint<Public, Data>(
            .patch(.form([URLQueryItem(name: "name", value: "Ada L"), URLQueryItem(name: "note", value: "a&b=c+d")])),
            path: "/form"))
        #expect(transport.last?.bodyText == "name=Ada%20L&note=a%26b%3Dc%2Bd")
        #expect(transport.last?.header("Content-Type") == "application/x-www-form-urlencoded")

        _ = try await api.send(Endpoint<Public, Data>(.post(RequestBody(CSVBody(rows: [["a", "b"], ["1", "2"]]))),
                                                      path: "/csv"))
        #expect(transport.last?.bodyText == "a,b\n1,2")
        #expect(transport.last?.header("Content-Type") == "text/csv")
    }

    @Test("A body that does not encode is an invalid request, and nothing is sent")
    func unencodableBody() async throws {
        let transport = InMemoryTransport()
        let error = await expectAPIError {
            try await client(transport).send(Endpoint<Public, Data>(.post(.json(["x": Double.nan])), path: "/nan"))
        }
        guard case .invalidRequest(let request, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(request.method == "POST")
        #expect(reason.hasPrefix("the body does not encode"))
        #expect(transport.requests.isEmpty)
    }

    @Test("Kinds attach their data: nothing, a bearer token, an API key, a host's own")
    func kinds() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport)
        _ = try await api.send(Endpoint<Public, Data>(path: "/open"))
        #expect(transport.last?.header("Authorization") == nil)

        _ = try await api.send(Endpoint<Bearer, Data>(path: "/me"), with: AccessToken("t0k3n"))
        #expect(transport.last?.header("Authorization") == "Bearer t0k3n")

        _ = try await api.send(Endpoint<APIKey, Data>(path: "/keyed"), with: APIKeyCredential(value: "k1"))
        #expect(transport.last?.header("X-API-Key") == "k1")

        let inQuery = Endpoint<APIKey, Data>(.get(query: [URLQueryItem(name: "q", value: "x")]), path: "/keyed")
        let prepared = try api.prepare(inQuery, with: APIKeyCredential(name: "api_key", value: "k2", placement: .query))
        #expect(prepared.url == "https://api.example.test/v2/keyed?q=x&api_key=k2")
        #expect(prepared.redactedURL == "https://api.example.test/v2/keyed?q=x&api_key=••••")
        _ = try await api.send(inQuery, with: APIKeyCredential(name: "api_key", value: "k2", placement: .query))
        #expect(transport.last?.request.path == "/v2/keyed?q=x&api_key=k2")

        _ = try await api.send(Endpoint<Tenant, Data>(path: "/tenant"), with: "acme")
        #expect(transport.last?.header("X-Tenant") == "acme")
        let refused = await expectAPIError { try await api.send(Endpoint<Tenant, Data>(path: "/tenant"), with: "") }
        guard case .invalidRequest(_, let reason)? = refused else {
            Issue.record("expected invalidRequest, got \(String(describing: refused))")
            return
        }
        #expect(reason == "the tenant is empty")
    }

    @Test("Secrets are redacted wherever a request is described")
    func redaction() throws {
        let token = AccessToken("t0k3n")
        #expect("\(token)" == "••••")
        #expect(String(reflecting: token) == "AccessToken(••••)")
        #expect("\(APIKeyCredential(value: "k"))" == "X-API-Key: ••••")
        let api = try client(InMemoryTransport())
        let prepared = try api.prepare(Endpoint<Bearer, Data>(path: "/me")
            .header(.custom(name: "Cookie", value: "c=1")), with: token)
        let shown = prepared.redactedHeaders.map { "\($0.name): \($0.value)" }
        #expect(shown.contains("Authorization: ••••"))
        #expect(shown.contains("Cookie: ••••"))
        #expect(!shown.joined().contains("t0k3n"))
    }

    @Test("Environments switch at run time")
    func environments() async throws {
        let transport = InMemoryTransport()
        let staging = try ServerEnvironment(name: "staging", url: "https://staging.example.test")
        let local = try ServerEnvironment(name: "local", scheme: "http", host: "localhost", port: 8080)
        let api = try client(transport, configuration: .init(environments: [staging, local]))
        #expect(api.environments.map(\.name) == ["staging", "local", "production"])
        try api.switchEnvironment(to: "local")
        _ = try await api.send(Endpoint<Public, Data>(path: "/ping"))
        #expect(transport.last?.url == "http://localhost:8080/ping")
        try api.switchEnvironment(to: "staging")
        _ = try await api.send(Endpoint<Public, Data>(path: "/ping"))
        #expect(transport.last?.url == "https://staging.example.test/ping")
        #expect(throws: APIError.self) { try api.switchEnvironment(to: "moon") }
    }

    @Test("Per-client and per-endpoint time limits reach the transport")
    func timeouts() async throws {
        let transport = InMemoryTransport()
        let api = try client(transport, configuration: .init(timeout: .seconds(7)))
        _ = try await api.send(Endpoint<Public, Data>(path: "/a"))
        #expect(transport.last?.timeout == .seconds(7))
        _ = try await api.send(Endpoint<Public, Data>(path: "/a").timeout(.milliseconds(250)))
        #expect(transport.last?.timeout == .milliseconds(250))
        api.timeout = .seconds(2)
        _ = try await api.send(Endpoint<Public, Data>(path: "/a"))
        #expect(transport.last?.timeout == .seconds(2))
    }
}
