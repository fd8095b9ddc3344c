import Foundation

/// How a request's TLS is set up: the certificate authorities it trusts, the client certificate it
/// presents, and whether the server's certificate is checked at all — curl's `--cacert`, `--cert`,
/// `--key` and `--insecure`.
///
/// An environment carries its options (``ServerEnvironment/tls``), and ``APIClient`` passes them
/// to the transport with every request to that environment's origin. A request to another origin
/// (a redirect, an absolute URL) gets them without the client certificate: it is a credential.
///
/// ```swift
/// var environment = try ServerEnvironment(url: "https://api.internal.example")
/// environment.tls = TLSOptions(certificateAuthorities: "/etc/company/ca.pem",
///                              clientCertificate: "me.pem", clientKey: "me.key")
/// ```
public struct TLSOptions: Sendable, Hashable, CustomStringConvertible {
    /// A PEM file of the certificate authorities to trust instead of the system's, such as a
    /// company's private CA or a self-signed server's own certificate.
    public var certificateAuthorities: String?
    /// A PEM file with the client certificate (and any intermediate certificates) for a server
    /// that asks for one (mutual TLS).
    public var clientCertificate: String?
    /// The PEM file with the client certificate's private key; `nil` when it is in
    /// ``clientCertificate``'s file.
    public var clientKey: String?
    /// Whether the server's certificate and host name are checked. `false` only when a person
    /// asked for it (`--insecure`): anyone on the path can then read and change the traffic.
    public var verifiesServer: Bool

    /// Creates options; with no arguments, the system's trust store and no client certificate.
    public init(certificateAuthorities: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil,
                verifiesServer: Bool = true) {
        self.certificateAuthorities = certificateAuthorities
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.verifiesServer = verifiesServer
    }

    /// The system's trust store, no client certificate, the server checked.
    public static let system = TLSOptions()

    /// Whether these are the system's defaults, which every transport supports.
    public var isSystemDefault: Bool { self == .system }

    /// The options for a request to another origin than the environment's: the same trust, and no
    /// client certificate.
    public var forOtherOrigin: TLSOptions {
        TLSOptions(certificateAuthorities: certificateAuthorities, verifiesServer: verifiesServer)
    }

    /// Each option that differs from the system's, in curl's terms: `CA bundle ca.pem, client
    /// certificate me.pem (key me.key), server not verified`.
    public var description: String {
        var parts: [String] = []
        if let certificateAuthorities { parts.append("CA bundle \(certificateAuthorities)") }
        if let clientCertificate {
            parts.append("client certificate \(clientCertificate)" + (clientKey.map { " (key \($0))" } ?? ""))
        } else if let clientKey {
            parts.append("client key \(clientKey) without a certificate")
        }
        if !verifiesServer { parts.append("server not verified") }
        return parts.isEmpty ? "system trust store" : parts.joined(separator: ", ")
    }

    /// Checks that each file exists, can be read and holds what it should, so that a wrong path
    /// is one clear error before anything is sent rather than a handshake failure later.
    ///
    /// - Throws: A ``TransportFailure`` of kind ``TransportFailure/Kind/tls`` naming the file and the problem.
    public func validate() throws {
        if clientKey != nil && clientCertificate == nil {
            throw TransportFailure(.tls, detail: "a client key was given without a client certificate; give both (--cert FILE --key FILE)")
        }
        if let certificateAuthorities {
            try Self.check(certificateAuthorities, role: "CA bundle", holds: ["CERTIFICATE"])
        }
        if let clientCertificate {
            try Self.check(clientCertificate, role: "client certificate", holds: ["CERTIFICATE"])
            let keyFile = clientKey ?? clientCertificate
            let keyData = try Self.check(keyFile, role: clientKey == nil ? "client certificate (for its key)" : "client key",
                                         holds: ["PRIVATE KEY"], hint: clientKey == nil ? "; give the key's file with --key FILE" : "")
            if Self.isEncryptedKey(keyData) {
                throw TransportFailure(.tls, detail: "the client key in '\(keyFile)' is protected by a passphrase, which Typist does not ask for: "
                    + "write it without one (openssl pkey -in \(keyFile) -out key.pem), keep that file private (chmod 600), and give it with --key")
            }
        }
    }

    /// Whether PEM text holds a private key protected by a passphrase: PKCS #8's
    /// `ENCRYPTED PRIVATE KEY`, or a traditional key with `Proc-Type: 4,ENCRYPTED`.
    static func isEncryptedKey(_ data: Data) -> Bool {
        holdsBlock(data, labeled: ["ENCRYPTED PRIVATE KEY"]) || data.firstRange(of: Data("Proc-Type: 4,ENCRYPTED".utf8)) != nil
    }

    /// Whether PEM text has a block whose label ends with one of `labels`: a line
    /// `-----BEGIN RSA PRIVATE KEY-----` holds a `PRIVATE KEY`, `-----BEGIN CERTIFICATE REQUEST-----`
    /// no `CERTIFICATE`. (A bundle of system CAs is checked at every start, so bytes are read once
    /// and no further than the first block that answers.)
    static func holdsBlock(_ data: Data, labeled labels: [String]) -> Bool {
        let begin = Array("-----BEGIN ".utf8)
        let dash = UInt8(ascii: "-")
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var index = 0
            while index + begin.count <= bytes.count {
                guard bytes[index] == dash, bytes[index..<(index + begin.count)].elementsEqual(begin) else {
                    index += 1
                    continue
                }
                // The label: capital letters and spaces, then five dashes.
                let start = index + begin.count
                var end = start
                while end < bytes.count, bytes[end] == 0x20 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[end]) { end += 1 }
                if bytes.count - end >= 5, bytes[end..<(end + 5)].allSatisfy({ $0 == dash }) {
                    let label = bytes[start..<end]
                    if labels.contains(where: { label.reversed().starts(with: $0.utf8.reversed()) }) { return true }
                }
                index = end
            }
            return false
        }
    }

    /// The file's first bytes, once they are known to hold a block labelled with one of `labels`.
    @discardableResult
    private static func check(_ path: String, role: String, holds labels: [String], hint: String = "") throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TransportFailure(.tls, detail: "the \(role) '\(path)' does not exist")
        }
        guard !isDirectory.boolValue else {
            throw TransportFailure(.tls, detail: "the \(role) '\(path)' is a directory; give a PEM file")
        }
        // PEM files are small; a few megabytes hold any real bundle.
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: 8 << 20) else {
            throw TransportFailure(.tls, detail: "the \(role) '\(path)' cannot be read")
        }
        try? handle.close()
        guard holdsBlock(data, labeled: labels) else {
            throw TransportFailure(.tls, detail: "the \(role) '\(path)' holds no PEM \(labels.joined(separator: " or ")) (-----BEGIN \(labels[0])-----)\(hint)")
        }
        return data
    }
}
