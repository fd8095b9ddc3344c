import FaultServer
import Foundation
import Testing
@testable import TypedAPI

/// httpbin echoes every credential back (in headers, arguments, URLs and JSON): a cassette of a
/// session that used every kind must hold none of them, in any encoding, and still replay.
@Suite("Cassettes never hold a secret",
       .enabled(if: HttpbinServer.unavailable == nil, Comment(rawValue: HttpbinServer.unavailable ?? "")))
struct CassetteSecretsTests {
    struct Anything: Decodable, Sendable, Equatable {
        var args: [String: String]
        var headers: [String: String]
        var url: String
    }

    struct Authenticated: Decodable, Sendable, Equatable {
        var authenticated: Bool
        var user: String?
        var token: String?
    }

    struct Cookies: Decodable, Sendable, Equatable { var cookies: [String: String] }

    struct Login: Encodable, Sendable { var user: String; var password: String }

    static let headerKey = "hdr-key-5b1e9c4a"
    static let queryKey = "qry key/7d3a+2f&"  // a space, a slash, a plus and an ampersand: percent-encoded on the wire
    static let token = "tok.bearer-9f8e7d6c"
    static let password = "pw basic:3c4d5e6f"
    static let cookie = "cookie-secret-1a2b3c4d"
    static let bodySecret = "body \"secret\" é8e7f6a5b"

    /// The session: each credential kind once, and what each echo said.
    private func session(_ client: APIClient) async throws -> [String] {
        var seen: [String] = []
        let header = try await client.send(Endpoint<APIKey, Anything>(path: "/anything/header"),
                                           with: APIKeyCredential(name: "X-Api-Key", value: Self.headerKey))
        seen.append(header.headers["X-Api-Key"] ?? "-")
        let query = try await client.send(Endpoint<APIKey, Anything>(path: "/anything/query"),
                                          with: APIKeyCredential(name: "api_key", value: Self.queryKey, placement: .query))
        seen.append(query.args["api_key"] ?? "-")
        let bearer = try await client.send(Endpoint<Bearer, Authenticated>(path: "/bearer"), with: AccessToken(Self.token))
        seen.append(bearer.token ?? "-")
        let basic = try await client.send(Endpoint<Basic, Authenticated>(path: "/basic-auth/ada/\(Self.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"),
                                          with: BasicCredentials(username: "ada", password: Self.password))
        seen.append("\(basic.authenticated)")
        let cookies = try await client.send(Endpoint<Public, Cookies>(
            .get(query: [URLQueryItem(name: "session", value: Self.cookie)]), path: "/cookies/set"))
        seen.append(cookies.cookies["session"] ?? "-")
        let body = try await client.send(Endpoint<Public, Anything>(
            .post(.json(Login(user: "ada", password: Self.bodySecret))), path: "/anything/body"))
        seen.append(body.url.hasSuffix("/anything/body") ? "body" : body.url)
        // A secret in a multipart field beside a file's bytes that are not text (each call has a
        // random boundary: the replay matches part by part).
        let parts: [MultipartPart] = [.text("password", Self.bodySecret), .file("photo", UploadFile(filename: "p.bin", data: Data([0, 255, 1])))]
        let upload = try await client.send(Endpoint<Public, Anything>(.post(.multipart(parts)), path: "/anything/upload"))
        seen.append(upload.url.hasSuffix("/anything/upload") ? "upload" : upload.url)
        return seen
    }

    @Test("API key in a header and in the query, bearer, basic, a cookie and a body secret: none in the file, in any form")
    func everyKind() async throws {
        let server = try await HttpbinServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-cassette-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("httpbin.har").path

        var configuration = APIClient.Configuration(timeout: .seconds(60))
        configuration.cookies = CookieJar()
        let cassette = try CassetteTransport(path: path, mode: .once, forwardingTo: TransportChoice.curl.make())
        cassette.addSecrets([Self.bodySecret])
        let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: cassette,
                               configuration: configuration)
        let live = try await session(client)
        #expect(live == [Self.headerKey, Self.queryKey, Self.token, "true", Self.cookie, "body", "upload"])
        try cassette.save()

        let text = try String(contentsOfFile: path, encoding: .utf8)
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        for secret in [Self.headerKey, Self.queryKey, Self.token, Self.password, Self.cookie, Self.bodySecret] {
            var forms = [secret, secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? secret,
                         secret.replacingOccurrences(of: "\"", with: "\\\"")]
            forms.append(forms[1].replacingOccurrences(of: "%20", with: "+"))
            for form in forms { #expect(!text.contains(form), "\(form) is in the cassette") }
        }
        #expect(!text.contains(Data("ada:\(Self.password)".utf8).base64EncodedString()))
        // A body of bytes that are not text is kept in base64: read, it holds no secret either.
        let har = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let encoded = entries.compactMap { ($0["request"] as? [String: Any])?["postData"] as? [String: Any] }.filter { $0["encoding"] as? String == "base64" }
        #expect(encoded.count == 1)
        for postData in encoded {
            let bytes = try #require(Data(base64Encoded: postData["text"] as? String ?? ""))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("8e7f6a5b") && String(decoding: bytes, as: UTF8.self).contains("••••"))
        }
        // Each secret's distinctive part, in whatever encoding a server echoed it (JSON inside a
        // JSON string, percent-encoded, in a URL path): nowhere.
        for core in ["5b1e9c4a", "7d3a", "9f8e7d6c", "3c4d5e6f", "1a2b3c4d", "8e7f6a5b"] {
            #expect(!text.contains(core), "\(core) is in the cassette")
        }
        // Data that only resembles a credential header's value is left as the server said it.
        #expect(text.contains(#""authenticated": true"#) || text.contains(#""authenticated" : true"#) || text.contains("authenticated\\\": true"),
                "\(text.prefix(2000))")

        // Replayed with no server and no credentials of its own: the echoes are masked.
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying,
                                configuration: .init(timeout: .seconds(60)))
        let replayed = try await session(offline)
        #expect(replayed == ["••••", "••••", "••••", "true", "••••", "body", "upload"], "\(replayed)")
        #expect(replaying.missCount == 0)
    }
}
