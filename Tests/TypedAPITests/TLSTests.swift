import FaultServer
import Foundation
import HTTPTypes
import Testing
import TypedAPI
import TypedAPICurl

/// HTTPS services with a CA of their own and services that want a client certificate — most
/// internal APIs — through every transport: a Python server (`ssl`, the standard library) with
/// certificates `openssl` makes for the test.
@Suite("TLS: private CAs, client certificates, --insecure",
       .enabled(if: TLSServer.unavailable == nil, Comment(rawValue: TLSServer.unavailable ?? "")))
struct TLSTests {
    struct Who: Decodable, Sendable {
        var path: String
        var client: String?
    }

    static let who = Endpoint<Public, Who>(.get(), path: "/who")

    /// The transports that take TLS options.
    static let capable: [TransportChoice] = [.curl, .asyncHTTPClient]

    private func withServer<T>(clientCertificate: Bool = false,
                               _ body: (TLSServer.Certificates, TLSServer) async throws -> T) async throws -> T {
        let certificates = try await ServerProcess.offThePool { try TLSServer.Certificates.make() }
        defer { certificates.remove() }
        let server = try await TLSServer.start(certificates, requiresClientCertificate: clientCertificate)
        defer { server.stop() }
        return try await body(certificates, server)
    }

    private func client(_ server: TLSServer, _ transport: TransportChoice, tls: TLSOptions) throws -> APIClient {
        var environment = try ServerEnvironment(url: server.baseURL)
        environment.tls = tls
        return APIClient(environment: environment, transport: transport.make(), configuration: .init(timeout: .seconds(60)))
    }

    private func tlsFailure(_ operation: () async throws -> Who) async -> TransportFailure? {
        let error = await expectAPIError(operation)
        guard case .transport(_, let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return nil
        }
        return failure
    }

    @Test("A private CA's server is refused with the system's trust store, on every transport",
          arguments: TransportChoice.allCases)
    func refusedWithoutTheCA(transport: TransportChoice) async throws {
        try await withServer { _, server in
            let client = try client(server, transport, tls: .system)
            let failure = await tlsFailure { try await client.send(Self.who) }
            #expect(failure?.kind == .tls)
        }
    }

    @Test("Its CA bundle makes it trusted; another CA's bundle does not", arguments: capable)
    func trustedWithItsCA(transport: TransportChoice) async throws {
        try await withServer { certificates, server in
            let trusted = try client(server, transport, tls: TLSOptions(certificateAuthorities: certificates.authority))
            let answer = try await trusted.send(Self.who)
            #expect(answer.path == "/who")
            #expect(answer.client == nil)
            let other = try client(server, transport, tls: TLSOptions(certificateAuthorities: certificates.otherAuthority))
            #expect(await tlsFailure { try await other.send(Self.who) }?.kind == .tls)
        }
    }

    @Test("Not verifying the server reaches it without its CA", arguments: capable)
    func insecure(transport: TransportChoice) async throws {
        try await withServer { _, server in
            let client = try client(server, transport, tls: TLSOptions(verifiesServer: false))
            #expect(try await client.send(Self.who).path == "/who")
        }
    }

    @Test("Mutual TLS: refused without a client certificate; with one (key apart or in the same file) the server sees its CN",
          arguments: capable)
    func mutualTLS(transport: TransportChoice) async throws {
        try await withServer(clientCertificate: true) { certificates, server in
            let anonymous = try client(server, transport, tls: TLSOptions(certificateAuthorities: certificates.authority))
            // The server ends the handshake (TLS 1.3 reports it at the first read): no answer either way.
            #expect(await tlsFailure { try await anonymous.send(Self.who) } != nil)
            let separate = try client(server, transport, tls: TLSOptions(
                certificateAuthorities: certificates.authority, clientCertificate: certificates.clientCertificate,
                clientKey: certificates.clientKey))
            #expect(try await separate.send(Self.who).client == "typist-test-client")
            let combined = try client(server, transport, tls: TLSOptions(
                certificateAuthorities: certificates.authority, clientCertificate: certificates.clientCombined))
            #expect(try await combined.send(Self.who).client == "typist-test-client")
        }
    }

    @Test("URLSession refuses TLS options it cannot apply, naming a transport that can")
    func urlSessionRefuses() async throws {
        try await withServer { certificates, server in
            let client = try client(server, .urlSession, tls: TLSOptions(certificateAuthorities: certificates.authority))
            let failure = await tlsFailure { try await client.send(Self.who) }
            #expect(failure?.kind == .tls)
            #expect(failure?.detail.contains("curl") == true)
        }
    }

    @Test("A wrong file is one clear error before anything is sent")
    func validation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a certificate".write(toFile: folder + "/plain.txt", atomically: true, encoding: .utf8)
        func message(_ options: TLSOptions) -> String {
            do {
                try options.validate()
                return "valid"
            } catch {
                return String(describing: error)
            }
        }
        #expect(message(TLSOptions(certificateAuthorities: folder + "/missing.pem")).contains("does not exist"))
        #expect(message(TLSOptions(certificateAuthorities: folder)).contains("is a directory"))
        #expect(message(TLSOptions(certificateAuthorities: folder + "/plain.txt")).contains("holds no PEM CERTIFICATE"))
        #expect(message(TLSOptions(clientKey: folder + "/plain.txt")).contains("without a client certificate"))
        #expect(message(.system) == "valid")

        // What a block's label must end with: a bundle, a key of any kind, not a request.
        let blocks = [
            ("bundle.pem", "# a comment\n-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n-----BEGIN TRUSTED CERTIFICATE-----\nAAAA\n"),
            ("rsa.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"),
            ("request.pem", "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"),
            ("cut.pem", "-----BEGIN CERTIFICATE---"),
            ("lower.pem", "-----BEGIN certificate-----\n"),
        ]
        for (name, text) in blocks { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        #expect(message(TLSOptions(certificateAuthorities: folder + "/bundle.pem")) == "valid")
        #expect(message(TLSOptions(clientCertificate: folder + "/rsa.pem")) == "valid")
        #expect(message(TLSOptions(clientCertificate: folder + "/bundle.pem")).contains("holds no PEM PRIVATE KEY"))
        for name in ["request.pem", "cut.pem", "lower.pem"] {
            #expect(message(TLSOptions(certificateAuthorities: folder + "/" + name)).contains("holds no PEM CERTIFICATE"), "\(name)")
        }
    }

    /// Records the TLS options each request is sent with, and answers with a redirect to another origin first.
    final class Recorder: HTTPTransport, @unchecked Sendable {
        let lock = NSLock()
        var seen: [(String, TLSOptions)] = []

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
            try await send(request, body: body, timeout: timeout, tls: .system)
        }

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
            let authority = request.authority ?? ""
            lock.withLock { seen.append((authority, tls)) }
            if authority == "a.example" {
                return (HTTPResponse(status: .found, headerFields: [.location: "https://b.example/who"]), Data())
            }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(#"{"path":"/who"}"#.utf8))
        }
    }

    @Test("The client certificate is a credential: a redirect to another origin is sent without it, with the same trust")
    func clientCertificateStaysOnItsOrigin() async throws {
        let recorder = Recorder()
        var environment = try ServerEnvironment(url: "https://a.example")
        let options = TLSOptions(certificateAuthorities: "/ca.pem", clientCertificate: "/me.pem", clientKey: "/me.key")
        environment.tls = options
        let client = APIClient(environment: environment, transport: recorder)
        _ = try await client.send(Self.who)
        let seen = recorder.lock.withLock { recorder.seen }
        #expect(seen.map(\.0) == ["a.example", "b.example"])
        #expect(seen.first?.1 == options)
        #expect(seen.last?.1 == TLSOptions(certificateAuthorities: "/ca.pem"))
    }
}
