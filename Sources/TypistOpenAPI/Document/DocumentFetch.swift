import Foundation
import TypistCore
import TypedAPI
import TypistText

/// Fetches a document from its `http(s)` URL the way the session sends its calls: through the
/// session's transport with its TLS options (`--cacert`, `--cert`/`--key`, `--insecure`,
/// `CURL_CA_BUNDLE`), within one time limit for the whole exchange (a server that trickles is cut
/// off), with the transport's bound on what it holds, redirects followed, bodies decompressed.
/// Whatever the server answers ends in the document or one error that names the URL.
enum DocumentFetch {
    /// Why a document that answered could not be used; where nothing answered the error is a
    /// ``Typist/DocumentUnreachable``.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The document's bytes, at most `limit` of them (counted as they arrive), fetched with
    /// `credential` when one is given.
    static func data(from url: URL, transport: any HTTPTransport, tls: TLSOptions, timeout: Duration, limit: Int,
                     credential: DocumentCredential? = nil) async throws -> Data {
        let shown = OpenAPIDocument.shown(url.absoluteString)
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
              let host = components.host, !host.isEmpty
        else { throw Failure(description: "\(shown) is not a URL Typist can fetch") }
        let queryItems = components.queryItems ?? []
        let path = components.percentEncodedPath
        components.query = nil
        components.fragment = nil
        var environment: ServerEnvironment
        do {
            let authority = components.port.map { "\(host.contains(":") ? "[\(host)]" : host):\($0)" } ?? (host.contains(":") ? "[\(host)]" : host)
            environment = try ServerEnvironment(url: "\(scheme)://\(authority)")
        } catch {
            throw Failure(description: "\(shown): \(error)")
        }
        environment.tls = tls
        let client = APIClient(environment: environment, transport: BoundedBodyTransport(base: transport, limit: limit),
                               configuration: .init(timeout: timeout))
        func endpoint<Kind: EndpointKind>(_: Kind.Type) -> Endpoint<Kind, Data> {
            Endpoint<Kind, Data>(.get(query: queryItems), path: path.isEmpty ? "/" : path,
                                 headers: [.accept(["application/yaml", "application/json;q=0.9", "*/*;q=0.5"])])
        }
        do {
            // The credential's kind sends it as every call sends one: masked, and not across origins.
            switch credential {
            case nil: return try await client.send(endpoint(Public.self))
            case .bearer(let token): return try await client.send(endpoint(Bearer.self), with: token)
            case .basic(let credentials): return try await client.send(endpoint(Basic.self), with: credentials)
            case .apiKey(let key): return try await client.send(endpoint(APIKey.self), with: key)
            }
        } catch {
            // `send` throws APIError alone (typed throws).
            throw failure(error, shown: shown, credential: credential)
        }
    }

    /// One line for what went wrong, naming the URL.
    private static func failure(_ error: APIError, shown: String, credential: DocumentCredential?) -> any Error {
        switch error {
        case .transport(_, let failure) where failure.kind == .responseTooLarge:
            return Failure(description: "\(shown) is larger than a document may be (\(failure.detail))")
        case .transport(_, let failure) where failure.kind != .cancelled:
            return DocumentUnreachable("cannot fetch \(shown): \(failure)")
        case .transport, .cancelled:
            // Ctrl-C at `:openapi`: said by whoever cancelled.
            return CancellationError()
        case .unacceptableStatus(_, let response):
            var text = "\(shown) answered \(response.status)\(response.reason.isEmpty ? "" : " \(response.reason)")"
            if let challenge = response.headers.first(where: { $0.isNamed("WWW-Authenticate") })?.value {
                text += " (it asks for credentials: WWW-Authenticate: \(TerminalText.sanitized(challenge))); "
                if let credential {
                    text += "the credential sent (\(credential)) was refused"
                } else {
                    let scheme = challenge.split(separator: " ").first?.lowercased()
                    let kind = scheme == "basic" ? "basic:USER with TYPIST_PASSWORD set"
                        : scheme == "bearer" ? "bearer with TYPIST_TOKEN set" : DocumentCredential.spellings
                    text += "send one with --openapi-auth \(kind) (at the prompt, :openapi … --auth \(scheme == "basic" ? "basic" : scheme == "bearer" ? "bearer" : "KIND"))"
                }
            }
            return Failure(description: text)
        case .timedOut(_, let limit):
            return DocumentUnreachable("cannot fetch \(shown): no complete answer within \(limit)")
        case .invalidRequest(_, let reason):
            return Failure(description: "cannot fetch \(shown): \(reason)")
        default:
            return Failure(description: "cannot fetch \(shown): \(error)")
        }
    }
}
