import FaultServer
import Foundation
import HTTPTypes
import Testing
import TypedAPI
import TypedAPICurl
import TypistProcess

/// `typist` against HTTPS services with a CA of their own, and one that wants a client
/// certificate: `--cacert`, `--cert`, `--key`, `--insecure`, curl's environment variables,
/// `typist.json` environments, `:curl`, and the errors that say what to do.
@Suite("TLS options on the command line and in typist.json",
       .enabled(if: TLSServer.unavailable == nil, Comment(rawValue: TLSServer.unavailable ?? "")))
struct TLSCommandLineTests {
    /// No CA bundle from the test's own environment.
    static let clean = ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""]

    private func withServer(clientCertificate: Bool = false,
                            _ body: (TLSServer.Certificates, TLSServer, URL) async throws -> Void) async throws {
        let certificates = try await ServerProcess.offThePool { try TLSServer.Certificates.make() }
        defer { certificates.remove() }
        let server = try await TLSServer.start(certificates, requiresClientCertificate: clientCertificate)
        defer { server.stop() }
        let script = URL(fileURLWithPath: certificates.folder).appendingPathComponent("who.api")
        try "let answer = httpGet(\"/who\")\nprint(answer.status, answer.text ?? \"\")\n".write(to: script, atomically: true, encoding: .utf8)
        try await body(certificates, server, script)
    }

    @Test("A private CA: refused with advice; --cacert, CURL_CA_BUNDLE and SSL_CERT_FILE trust it; --insecure warns")
    func privateAuthority() async throws {
        try await withServer { certificates, server, script in
            let base = ["run", script.path, "--base-url", server.baseURL]
            let refused = try await Built.run("typist", base, environment: Self.clean)
            #expect(refused.status == 1)
            #expect(refused.error.contains("TLS failed"), "\(refused.error)")
            #expect(refused.error.contains("--cacert FILE"), "the error says what to do: \(refused.error)")

            let trusted = try await Built.run("typist", base + ["--cacert", certificates.authority], environment: Self.clean)
            #expect(trusted.status == 0, "\(trusted.error)")
            #expect(trusted.standard.hasPrefix(#"200 {"path": "/who", "client": null}"#))

            // A relative path is relative to the current directory, as curl's.
            let relative = try await Built.run("typist", base + ["--cacert", "ca.pem"], environment: Self.clean,
                                               directory: URL(fileURLWithPath: certificates.folder))
            #expect(relative.status == 0, "\(relative.error)")

            for variable in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
                var environment = Self.clean
                environment[variable] = certificates.authority
                let fromEnvironment = try await Built.run("typist", base, environment: environment)
                #expect(fromEnvironment.status == 0, "\(variable): \(fromEnvironment.error)")
            }

            let insecure = try await Built.run("typist", base + ["--insecure"], environment: Self.clean)
            #expect(insecure.status == 0, "\(insecure.error)")
            #expect(insecure.error.contains("warning: TLS certificate checks are off (--insecure)"))
            #expect(!trusted.error.contains("warning"), "no warning while the server is checked")
        }
    }

    @Test("An API document behind a private CA is fetched with --cacert (it was fetched by URLSession, which ignored it)")
    func documentBehindPrivateAuthority() async throws {
        try await withServer { certificates, server, script in
            // The server answers any path with its echo: fetched, it is JSON but no OpenAPI document.
            let base = ["run", script.path, "--openapi", server.baseURL + "/openapi.json"]
            let refused = try await Built.run("typist", base, environment: Self.clean)
            #expect(refused.status == 69, "\(refused.error)")
            #expect(refused.error.contains("cannot fetch \(server.baseURL)/openapi.json: ") && refused.error.contains("TLS"), "\(refused.error)")
            let trusted = try await Built.run("typist", base + ["--cacert", certificates.authority], environment: Self.clean)
            #expect(trusted.status == 65, "\(trusted.error)")
            // Fetched (the CA trusted), then read: what came is not a document.
            #expect(trusted.error.hasSuffix("/openapi.json: not an OpenAPI document: it has no 'openapi' or 'swagger' version\n"), "\(trusted.error)")
        }
    }

    @Test("Mutual TLS from --cert and --key; a wrong file or a transport that cannot is refused at start")
    func clientCertificate() async throws {
        try await withServer(clientCertificate: true) { certificates, server, script in
            let base = ["run", script.path, "--base-url", server.baseURL, "--cacert", certificates.authority]
            let anonymous = try await Built.run("typist", base, environment: Self.clean)
            #expect(anonymous.status == 1)
            let signed = try await Built.run("typist", base + ["--cert", certificates.clientCertificate, "--key", certificates.clientKey],
                                             environment: Self.clean)
            #expect(signed.status == 0, "\(signed.error)")
            #expect(signed.standard.contains(#""client": "typist-test-client""#))

            let missing = try await Built.run("typist", base + ["--cert", certificates.folder + "/nope.pem"], environment: Self.clean)
            #expect(missing.status == 64)
            #expect(missing.error.contains("the client certificate '\(certificates.folder)/nope.pem' does not exist"), "\(missing.error)")
            let keyOnly = try await Built.run("typist", base + ["--key", certificates.clientKey], environment: Self.clean)
            #expect(keyOnly.status == 64)
            #expect(keyOnly.error.contains("a client key was given without a client certificate"))
            let urlSession = try await Built.run("typist", base + ["--transport", "urlsession"], environment: Self.clean)
            #expect(urlSession.status == 64)
            #expect(urlSession.error.contains("the urlsession transport cannot use TLS options"), "\(urlSession.error)")
        }
    }

    @Test("A client key protected by a passphrase is refused at start with what to do (OpenSSL waited on /dev/tty); curl never asks")
    func passphraseProtectedKey() async throws {
        try await withServer(clientCertificate: true) { certificates, server, script in
            guard let openssl = ServerProcess.executable(named: "openssl") else { return }
            let pkcs8 = certificates.folder + "/client-pkcs8.key"
            let traditional = certificates.folder + "/client-traditional.key"
            for (command, output) in [("pkey", pkcs8), ("ec", traditional)] {
                let made = try ChildProcess.run([openssl, command, "-in", certificates.clientKey, "-aes256", "-passout", "pass:typist-9", "-out", output])
                #expect(made.status == 0, "\(String(decoding: made.errors, as: UTF8.self))")
            }
            let base = ["run", script.path, "--base-url", server.baseURL, "--cacert", certificates.authority, "--cert", certificates.clientCertificate]
            for key in [pkcs8, traditional] {
                let refused = try await Built.run("typist", base + ["--key", key], environment: Self.clean)
                #expect(refused.status == 64, "\(refused.error)")
                #expect(refused.error.contains("the client key in '\(key)' is protected by a passphrase, which Typist does not ask for: "
                                               + "write it without one (openssl pkey -in \(key) -out key.pem)"), "\(refused.error)")
            }
            // A host that sends through curl without validating first gets a TLS error, not a prompt.
            var request = HTTPRequest(method: .get, scheme: "https", authority: String(server.baseURL.dropFirst("https://".count)), path: "/who")
            request.headerFields[.accept] = "*/*"
            let tls = TLSOptions(certificateAuthorities: certificates.authority, clientCertificate: certificates.clientCertificate, clientKey: pkcs8)
            let failure = await #expect(throws: TransportFailure.self) {
                try await CurlTransport().send(request, body: nil, timeout: .seconds(60), tls: tls)
            }
            #expect(failure?.kind == .tls, "\(String(describing: failure))")
        }
    }

    @Test("typist.json: an environment's tls, paths relative to the file; :curl shows the options as curl's")
    func configuredEnvironment() async throws {
        try await withServer(clientCertificate: true) { certificates, server, script in
            let folder = URL(fileURLWithPath: certificates.folder)
            try """
                {"default": "internal", "environments": {
                  "internal": {"baseURL": "\(server.baseURL)",
                               "tls": {"caBundle": "ca.pem", "clientCertificate": "client.pem", "clientKey": "client.key"}},
                  "plain": {"baseURL": "\(server.baseURL)"}}}
                """.write(to: folder.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
            let run = try await Built.run("typist", ["run", script.path], environment: Self.clean)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.standard.contains(#""client": "typist-test-client""#))
            // The other environment has none of it.
            let plain = try await Built.run("typist", ["run", script.path, "--env", "plain"], environment: Self.clean)
            #expect(plain.status == 1)

            let prompt = try await Built.run("typist", [], input: ":curl httpGet(\"/who\")\n:env plain\nhttpGet(\"/who\").status\n",
                                             environment: Self.clean, directory: folder)
            #expect(prompt.standard.contains("--cacert '\(certificates.folder)/ca.pem'"), "\(prompt.standard)")
            #expect(prompt.standard.contains("--cert '\(certificates.folder)/client.pem'"))
            #expect(prompt.standard.contains("--key '\(certificates.folder)/client.key'"))
            #expect(prompt.error.contains("TLS failed"), "after :env plain the certificate is gone: \(prompt.error)")

            try #"{"environments": {"internal": {"baseURL": "https://x", "tls": {"caBundel": "ca.pem"}}}}"#
                .write(to: folder.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
            let typo = try await Built.run("typist", ["run", script.path, "--env", "internal"], environment: Self.clean)
            #expect(typo.status == 64)
            #expect(typo.error.contains("'tls' has no setting 'caBundel'"), "\(typo.error)")
            try #"{"environments": {"internal": {"baseURL": "https://x", "tls": {"insecure": 1}}}}"#
                .write(to: folder.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
            let number = try await Built.run("typist", ["run", script.path, "--env", "internal"], environment: Self.clean)
            #expect(number.error.contains("tls 'insecure' must be true or false"), "\(number.error)")
        }
    }
}
