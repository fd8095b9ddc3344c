import Foundation
import TypistProcess

/// An HTTPS server with a certificate authority of its own, as internal services have: Python's
/// `ssl` and `http.server` (the standard library), certificates made by `openssl` for the test.
///
/// `GET /who` answers `{"path": "/who", "client": "<the client certificate's CN or null>"}`. With
/// `requiresClientCertificate`, the handshake fails unless the client presents a certificate
/// signed by ``Certificates/authority`` (mutual TLS). ``stop()`` ends the process and waits for it.
public final class TLSServer: Sendable {
    /// `https://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: ServerProcess

    /// Why the suite cannot run (no `openssl` or no `python3`), or `nil`.
    public static var unavailable: String? {
        if ServerProcess.executable(named: "openssl") == nil { return "openssl is not installed (apt-get install openssl)" }
        if python == nil { return "python3 is not installed" }
        return nil
    }

    static var python: String? {
        FileManager.default.isExecutableFile(atPath: HttpbinServer.python)
            ? HttpbinServer.python : ServerProcess.executable(named: "python3")
    }

    /// The files of a test PKI, in a temporary folder that ``remove()`` deletes.
    public struct Certificates: Sendable {
        /// The folder.
        public let folder: String
        /// The CA that signed the server's and the client's certificates (PEM).
        public var authority: String { folder + "/ca.pem" }
        /// Another CA, which signed nothing here.
        public var otherAuthority: String { folder + "/other-ca.pem" }
        /// The client certificate (CN `typist-test-client`) and its key, in two files.
        public var clientCertificate: String { folder + "/client.pem" }
        public var clientKey: String { folder + "/client.key" }
        /// The client certificate followed by its key, in one file.
        public var clientCombined: String { folder + "/client-combined.pem" }
        var serverCertificate: String { folder + "/server.pem" }
        var serverKey: String { folder + "/server.key" }

        /// Makes the PKI: two CAs, a server certificate for 127.0.0.1 and localhost, a client certificate.
        public static func make() throws -> Certificates {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let made = Certificates(folder: folder)
            do {
                try made.generate()
            } catch {
                made.remove()
                throw error
            }
            return made
        }

        private func generate() throws {
            let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            for (name, subject) in [("ca", "/CN=Typist Test CA"), ("other-ca", "/CN=Typist Other CA")] {
                try Self.openssl(["req", "-x509"] + key + ["-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).pem",
                                  "-days", "2", "-subj", subject,
                                  "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
            }
            let extensions = [
                "server": "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
                "client": "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n",
            ]
            for (name, subject) in [("server", "/CN=127.0.0.1"), ("client", "/CN=typist-test-client")] {
                try Self.openssl(["req"] + key + ["-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).csr", "-subj", subject])
                try (extensions[name] ?? "").write(toFile: "\(folder)/\(name).ext", atomically: true, encoding: .utf8)
                try Self.openssl(["x509", "-req", "-in", "\(folder)/\(name).csr", "-CA", authority, "-CAkey", "\(folder)/ca.key",
                                  "-CAcreateserial", "-out", "\(folder)/\(name).pem", "-days", "2", "-extfile", "\(folder)/\(name).ext"])
            }
            let combined = try String(contentsOfFile: clientCertificate, encoding: .utf8) + String(contentsOfFile: clientKey, encoding: .utf8)
            try combined.write(toFile: clientCombined, atomically: true, encoding: .utf8)
        }

        private static func openssl(_ arguments: [String]) throws {
            guard let openssl = ServerProcess.executable(named: "openssl") else { throw ServerProcess.Failure("openssl is not installed") }
            let result = try ChildProcess.run([openssl] + arguments)
            guard result.status == 0 else {
                throw ServerProcess.Failure("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(String(decoding: result.errors, as: UTF8.self))")
            }
        }

        /// Deletes the folder.
        public func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The server: each connection's handshake runs on its own thread (a client that fails it
    /// must not stop the others), and the answer names the client certificate's CN.
    static let program = """
        import json, ssl, sys
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        certificate, key, client_ca = sys.argv[1], sys.argv[2], sys.argv[3]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        if client_ca != "-":
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(client_ca)
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                peer = self.connection.getpeercert() or {}
                names = [value for part in peer.get("subject", ()) for (name, value) in part if name == "commonName"]
                body = json.dumps({"path": self.path, "client": names[0] if names else None}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *arguments):
                pass
        class Server(ThreadingHTTPServer):
            daemon_threads = True
            def get_request(self):
                connection, address = self.socket.accept()
                return context.wrap_socket(connection, server_side=True, do_handshake_on_connect=False), address
            def handle_error(self, request, address):
                pass
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Starts a server with `certificates`' server certificate.
    public static func start(_ certificates: Certificates, requiresClientCertificate: Bool = false) async throws -> TLSServer {
        try await ServerProcess.offThePool { try TLSServer(certificates, requiresClientCertificate: requiresClientCertificate) }
    }

    private init(_ certificates: Certificates, requiresClientCertificate: Bool) throws {
        guard let python = Self.python else { throw ServerProcess.Failure("python3 is not installed") }
        process = try ServerProcess(
            python: python, program: Self.program,
            arguments: [certificates.serverCertificate, certificates.serverKey, requiresClientCertificate ? certificates.authority : "-"],
            name: "the TLS server")
        baseURL = "https://127.0.0.1:\(process.port)"
    }

    /// Ends the server and waits for it.
    public func stop() { process.end() }
}
