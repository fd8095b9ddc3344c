import FaultServer
import Foundation
import Testing
import TypedAPI

/// A service nobody here wrote: httpbin (PyPI), started on a loopback port, through every
/// transport. What real services do — escaping, echoes, auth challenges, status codes,
/// compression, redirects, slow answers, XML where JSON was expected — each checked as it arrives.
///
/// `.ci/run` installs httpbin first (`Scripts/test-tools`), so CI always runs this suite; a plain
/// `swift test` without it skips the suite and says how to install it.
@Suite("httpbin, a third-party service",
       .enabled(if: HttpbinServer.unavailable == nil, Comment(rawValue: HttpbinServer.unavailable ?? "")))
struct HttpbinTests {
    struct Echo: Decodable, Sendable {
        var args: [String: String]
        var headers: [String: String]
        var url: String
    }

    struct Anything: Decodable, Sendable {
        var args: [String: String]
        var method: String
        var json: Draft?
        var headers: [String: String]
    }

    struct Draft: Codable, Sendable, Equatable {
        var title: String
        var tags: [String]
    }

    struct Authenticated: Decodable, Sendable {
        var authenticated: Bool
        var user: String?
        var token: String?
    }

    struct Gzipped: Decodable, Sendable { var gzipped: Bool }
    struct Deflated: Decodable, Sendable { var deflated: Bool }

    private func withHttpbin(_ transport: TransportChoice, _ body: (APIClient, HttpbinServer) async throws -> Void) async throws {
        let server = try await HttpbinServer.start()
        defer { server.stop() }
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               configuration: .init(timeout: .seconds(60)))
        try await body(client, server)
    }

    @Test("Query values round trip exactly: spaces, &, =, +, /, ?, %, accents and emoji", arguments: TransportChoice.allCases)
    func queryRoundTrip(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let values = ["space": "a b", "amp": "x&y", "eq": "k=v", "plus": "1+1", "slash": "a/b", "question": "why?",
                          "percent": "100%", "accent": "café", "emoji": "🚀 launch"]
            let items = values.keys.sorted().map { URLQueryItem(name: $0, value: values[$0]) }
            let echo = try await client.send(Endpoint<Public, Echo>(.get(query: items), path: "/get"))
            #expect(echo.args == values)
            // A query on a POST, and one written into the path.
            let posted = try await client.send(Endpoint<Public, Anything>(
                .post(.json(Draft(title: "t", tags: [])), query: [URLQueryItem(name: "notify", value: "1 2")]), path: "/anything?from=path"))
            #expect(posted.args == ["from": "path", "notify": "1 2"])
        }
    }

    @Test("Headers and JSON bodies come back as sent", arguments: TransportChoice.allCases)
    func echoes(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let draft = Draft(title: "Über \"quotes\" & ünïcödé", tags: ["a", "b"])
            let echo = try await client.send(Endpoint<Public, Anything>(.put(.json(draft)), path: "/anything",
                                                                       headers: [.custom(name: "X-Trace", value: "t 1")]))
            #expect(echo.method == "PUT")
            #expect(echo.json == draft)
            #expect(echo.headers["X-Trace"] == "t 1")
            #expect(echo.headers["Accept-Encoding"]?.contains("gzip") == true, "\(echo.headers)")
        }
    }

    @Test("Bearer and Basic authentication; wrong credentials are a 401, answered at once", arguments: TransportChoice.allCases)
    func authentication(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let bearer = try await client.send(Endpoint<Bearer, Authenticated>(path: "/bearer"), with: AccessToken("t0k3n"))
            #expect(bearer.authenticated && bearer.token == "t0k3n")
            let noToken = await expectAPIError { try await client.send(Endpoint<Public, Authenticated>(path: "/bearer")) }
            #expect(noToken?.status == 401)
            let basic = try await client.send(Endpoint<Basic, Authenticated>(path: "/basic-auth/ada/lovelace"),
                                              with: BasicCredentials(username: "ada", password: "lovelace"))
            #expect(basic.authenticated && basic.user == "ada")
            // httpbin answers a wrong password with WWW-Authenticate: URLSession used to wait for a credential.
            let wrong = await expectAPIError {
                try await client.send(Endpoint<Basic, Authenticated>(path: "/basic-auth/ada/lovelace"),
                                      with: BasicCredentials(username: "ada", password: "babbage"))
            }
            #expect(wrong?.status == 401)
            #expect(wrong.map { !String(describing: $0).contains("babbage") } == true)
        }
    }

    @Test("Status codes: 204 is success for Void, 418 and 503 are errors with their status", arguments: TransportChoice.allCases)
    func statusCodes(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            try await client.send(Endpoint<Public, Void>(path: "/status/204"))
            for code in [418, 503] {
                let error = await expectAPIError { try await client.send(Endpoint<Public, Void>(path: "/status/\(code)")) }
                #expect(error?.status == code)
            }
        }
    }

    @Test("gzip and deflate bodies are decoded", arguments: TransportChoice.allCases)
    func compression(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let gzipped = try await client.send(Endpoint<Public, Gzipped>(path: "/gzip"))
            let deflated = try await client.send(Endpoint<Public, Deflated>(path: "/deflate"))
            #expect(gzipped.gzipped && deflated.deflated)
        }
    }

    @Test("Redirects: followed on the same origin; to another origin the token stays behind", arguments: TransportChoice.allCases)
    func redirects(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, server in
            let same = try await client.send(Endpoint<Public, Echo>(
                .get(query: [URLQueryItem(name: "url", value: "/get?after=redirect")]), path: "/redirect-to"))
            #expect(same.args == ["after": "redirect"])
            // `localhost` is another origin than `127.0.0.1`, though the same server.
            let other = "http://localhost:\(server.port)/bearer"
            let error = await expectAPIError {
                try await client.send(Endpoint<Bearer, Authenticated>(
                    .get(query: [URLQueryItem(name: "url", value: other)]), path: "/redirect-to"), with: AccessToken("t0k3n"))
            }
            #expect(error?.status == 401, "the token did not follow: \(String(describing: error))")
        }
    }

    struct Cookies: Decodable, Sendable { var cookies: [String: String] }

    @Test("Cookies: one set on a redirect goes back on the follow, stays for the origin, never crosses to another, and is deleted when told",
          arguments: TransportChoice.allCases)
    func cookies(transport: TransportChoice) async throws {
        let server = try await HttpbinServer.start()
        defer { server.stop() }
        var configuration = APIClient.Configuration(timeout: .seconds(60))
        configuration.cookies = CookieJar()
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: transport.make(),
                               configuration: configuration)
        // /cookies/set answers 302 with Set-Cookie, then /cookies echoes what arrived.
        let set = try await client.send(Endpoint<Public, Cookies>(
            .get(query: [URLQueryItem(name: "flavour", value: "oat")]), path: "/cookies/set"))
        #expect(set.cookies == ["flavour": "oat"])
        #expect(try await client.send(Endpoint<Public, Cookies>(path: "/cookies")).cookies == ["flavour": "oat"])
        // A request's own Cookie (an API key sent as a cookie) goes with the jar's, and wins for its names.
        let own = Endpoint<Public, Cookies>(path: "/cookies").header(.custom(name: "Cookie", value: "api_key=k1"))
        #expect(try await client.send(own).cookies == ["flavour": "oat", "api_key": "k1"])
        let same = Endpoint<Public, Cookies>(path: "/cookies").header(.custom(name: "Cookie", value: "flavour=rye"))
        #expect(try await client.send(same).cookies == ["flavour": "rye"])
        let elsewhere = APIClient(environment: try ServerEnvironment(url: "http://localhost:\(server.port)"),
                                  transport: transport.make(), configuration: configuration)
        #expect(try await elsewhere.send(Endpoint<Public, Cookies>(path: "/cookies")).cookies.isEmpty, "another origin")
        let deleted = try await client.send(Endpoint<Public, Cookies>(
            .get(query: [URLQueryItem(name: "flavour", value: nil)]), path: "/cookies/delete"))
        #expect(deleted.cookies.isEmpty)
        #expect(configuration.cookies?.cookies().isEmpty == true)
    }

    @Test("An answer slower than the time limit is a time-out, and XML where JSON was expected says so",
          arguments: TransportChoice.allCases)
    func slowAndXML(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let slow = await expectAPIError {
                try await client.send(Endpoint<Public, Echo>(path: "/delay/10").timeout(.seconds(2)))
            }
            guard case .timedOut? = slow else {
                Issue.record("expected a time-out, got \(String(describing: slow))")
                return
            }
            let xml = await expectAPIError { try await client.send(Endpoint<Public, Echo>(path: "/xml")) }
            guard case .unexpectedContentType(_, let expected, let response)? = xml else {
                Issue.record("expected a content-type error, got \(String(describing: xml))")
                return
            }
            #expect(expected == "application/json")
            #expect(response.contentType == "application/xml")
            let bytes = try await client.send(Endpoint<Public, Data>(path: "/bytes/64"))
            #expect(bytes.count == 64)
        }
    }

    struct Uploaded: Decodable, Sendable {
        var form: [String: String]
        var files: [String: String]
        var headers: [String: String]
    }

    @Test("A multipart body's fields and files arrive as sent: quotes and accents in names, a binary file",
          arguments: TransportChoice.allCases)
    func multipart(transport: TransportChoice) async throws {
        try await withHttpbin(transport) { client, _ in
            let notes = UploadFile(filename: "notes \"v2\".txt", data: Data("line 1\r\n--not a boundary\r\nünïcödé".utf8))
            let parts: [MultipartPart] = [
                .text("purpose", "fine-tune & more"),
                .text("meta", #"{"a": 1}"#, contentType: "application/json"),
                .file("notes", notes),
            ]
            let echo = try await client.send(Endpoint<Public, Uploaded>(.post(.multipart(parts)), path: "/post"))
            #expect(echo.form["purpose"] == "fine-tune & more")
            #expect(echo.form["meta"] == #"{"a": 1}"#)
            #expect(echo.files["notes"] == "line 1\r\n--not a boundary\r\nünïcödé")
            #expect(echo.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=typist-") == true)
        }
    }
}
