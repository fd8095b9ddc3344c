import NIOSSL
import Synchronization
import TypedAPI

/// NIO's `TLSConfiguration` for each set of ``TLSOptions`` in use, made once: the client
/// certificate's file is read when its options are first used, and AsyncHTTPClient pools
/// connections by configuration, so equal options share connections.
final class TLSConfigurations: Sendable {
    static let shared = TLSConfigurations()

    private let made = Mutex<[TLSOptions: TLSConfiguration]>([:])

    func configuration(for options: TLSOptions) throws -> TLSConfiguration {
        if let known = made.withLock({ $0[options] }) { return known }
        try options.validate()
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let bundle = options.certificateAuthorities {
            configuration.trustRoots = .file(bundle)
        }
        if let certificate = options.clientCertificate {
            let chain: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificate)
            } catch {
                throw TransportFailure(.tls, detail: "the client certificate '\(certificate)' cannot be read (\(error))")
            }
            let keyFile = options.clientKey ?? certificate
            do {
                key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
            } catch {
                throw TransportFailure(.tls, detail: "the client key '\(keyFile)' cannot be read (\(error)); an encrypted key is not supported")
            }
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        if !options.verifiesServer {
            configuration.certificateVerification = .none
        }
        made.withLock { $0[options] = configuration }
        return configuration
    }
}
