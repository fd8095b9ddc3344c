import Foundation
import TypedAPI

/// Where a session's TLS options come from, field by field, the first that sets one winning: the
/// command line (`--cacert`, `--cert`, `--key`, `--insecure`), the environment's `"tls"` in
/// `typist.json`, the host's ``ShellHost/tls``, and, for the CA bundle only, the process
/// environment as curl reads it (`CURL_CA_BUNDLE`, then `SSL_CERT_FILE`).
package struct SessionTLS: Sendable, Equatable {
    package var commandLine: TLSOptions = .system
    package var host: TLSOptions = .system
    package var processCABundle: String?

    package init(commandLine: TLSOptions = .system, host: TLSOptions = .system, processCABundle: String? = nil) {
        self.commandLine = commandLine
        self.host = host
        self.processCABundle = processCABundle
    }

    /// The CA bundle the process environment names, as curl reads it.
    package static func caBundle(in environment: [String: String]) -> String? {
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return nil
    }

    /// The options for requests to `environment` (a named one from `typist.json`, or `nil` for a
    /// base URL set by hand).
    package func options(for environment: NamedEnvironment?) -> TLSOptions {
        let base = TLSOptions(certificateAuthorities: processCABundle)
        return Self.overlay(commandLine, on: Self.overlay(environment?.tls ?? .system, on: Self.overlay(host, on: base)))
    }

    /// `top`'s settings over `base`'s: a certificate brings its own key (or none: it is then in
    /// the certificate's file); not checking the server, asked for anywhere, holds.
    package static func overlay(_ top: TLSOptions, on base: TLSOptions) -> TLSOptions {
        var result = base
        if let bundle = top.certificateAuthorities { result.certificateAuthorities = bundle }
        if let certificate = top.clientCertificate {
            result.clientCertificate = certificate
            result.clientKey = top.clientKey
        } else if let key = top.clientKey {
            result.clientKey = key
        }
        if !top.verifiesServer { result.verifiesServer = false }
        return result
    }

    /// The warning shown whenever a session starts, or switches to an environment, without
    /// checking the server's certificate.
    package static let insecureWarning = "warning: TLS certificate checks are off (--insecure): anyone on the network path can read and change these requests, credentials included\n"
}
