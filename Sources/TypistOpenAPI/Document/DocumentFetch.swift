import Foundation
import Typist
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

    /// The document's bytes, at most `limit` of them.
    static func data(from url: URL, transport: any HTTPTransport, tls: TLSOptions, timeout: Duration, limit: Int) async throws -> Data {
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
        let client = APIClient(environment: environment, transport: transport, configuration: .init(timeout: timeout))
        let endpoint = Endpoint<Public, Data>(.get(query: queryItems), path: path.isEmpty ? "/" : path,
                                              headers: [.accept(["application/yaml", "application/json;q=0.9", "*/*;q=0.5"])])
        let data: Data
        do {
            data = try await client.send(endpoint)
        } catch {
            // `send` throws APIError alone (typed throws).
            throw failure(error, shown: shown)
        }
        guard data.count <= limit else {
            throw Failure(description: "\(shown) is larger than \(limit >> 20) MiB")
        }
        return data
    }

    /// One line for what went wrong, naming the URL.
    private static func failure(_ error: APIError, shown: String) -> any Error {
        switch error {
        case .transport(_, let failure) where failure.kind != .responseTooLarge && failure.kind != .cancelled:
            return DocumentUnreachable("cannot fetch \(shown): \(failure)")
        case .transport(_, let failure):
            return Failure(description: "cannot fetch \(shown): \(failure)")
        case .unacceptableStatus(_, let response):
            var text = "\(shown) answered \(response.status)\(response.reason.isEmpty ? "" : " \(response.reason)")"
            if let challenge = response.headers.first(where: { $0.name.lowercased() == "www-authenticate" })?.value {
                text += " (it asks for credentials: WWW-Authenticate: \(TerminalText.sanitized(challenge))); "
                    + "fetch the document yourself with them (curl -u …, -H 'Authorization: …') and pass the file"
            }
            return Failure(description: text)
        default:
            return Failure(description: "cannot fetch \(shown): \(error)")
        }
    }
}
