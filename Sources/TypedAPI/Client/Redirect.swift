import Foundation

/// How a redirect changes a request.
enum Redirect {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after a redirect to `location`.
    ///
    /// Credentials (`Authorization`, `Proxy-Authorization`, `Cookie` and every header marked
    /// sensitive) are dropped when the new URL's origin — scheme, host and port — differs.
    /// A 303, and a 301 or 302 answering anything but `GET` or `HEAD`, turns into a `GET` without
    /// a body, as browsers do.
    static func follow(_ request: PreparedRequest, to location: String, status: Int) throws(APIError)
        -> PreparedRequest
    {
        guard let base = URL(string: request.url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else {
            throw APIError.invalidURL(location, reason: "the server redirected to a URL that cannot be followed")
        }
        var environment: ServerEnvironment
        do {
            environment = try ServerEnvironment(name: request.environment.name, scheme: scheme, host: host,
                                                port: components.port, pathPrefix: "")
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.invalidURL(location, reason: String(describing: error))
        }
        // The same trust on every hop; the client certificate, a credential, only on the origin's.
        environment.tls = sameOrigin(request.environment, environment) ? request.environment.tls : request.environment.tls.forOtherOrigin
        var next = request
        next.environment = environment
        next.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        next.replaceQueryItems(components.queryItems ?? [])
        if !sameOrigin(request.environment, environment) {
            for header in request.headers where request.isSensitive(header: header.name) {
                next.removeHeader(named: header.name)
            }
        }
        if status == 303 || ((status == 301 || status == 302) && request.method != "GET" && request.method != "HEAD") {
            next.method = "GET"
            next.body = nil
            next.removeHeader(named: "Content-Type")
        }
        return next
    }

    static func sameOrigin(_ a: ServerEnvironment, _ b: ServerEnvironment) -> Bool { a.hasSameOrigin(as: b) }
}

extension ServerEnvironment {
    /// Whether `other` is the same origin — scheme, host and port (80 or 443 when unwritten) —
    /// the one rule for where credentials may go.
    public func hasSameOrigin(as other: ServerEnvironment) -> Bool {
        func port(_ environment: ServerEnvironment) -> Int { environment.port ?? (environment.scheme == "https" ? 443 : 80) }
        return scheme.lowercased() == other.scheme.lowercased() && host.lowercased() == other.host.lowercased()
            && port(self) == port(other)
    }
}
