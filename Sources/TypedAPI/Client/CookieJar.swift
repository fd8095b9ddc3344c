import Foundation
import Synchronization

/// A cookie as a server set it (RFC 6265): where it may go and until when.
public struct Cookie: Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// Its value. Read it only to send it.
    public var value: String
    /// The host it belongs to, or the domain whose hosts share it.
    public var domain: String
    /// Whether only ``domain`` itself gets it (no `Domain` attribute was set).
    public var hostOnly: Bool
    /// The path it is sent under.
    public var path: String
    /// When it expires; `nil` for one that lasts the session.
    public var expires: Date?
    /// Whether it goes over HTTPS only.
    public var secure: Bool
    /// Whether the server marked it `HttpOnly` (kept for completeness: a client has no scripts).
    public var httpOnly: Bool
}

/// The cookies a client has been given, sent back to where they belong and nowhere else.
///
/// An ``APIClient`` with a jar (``APIClient/Configuration/cookies``) stores every `Set-Cookie`
/// of every response — redirects included — and adds the matching ones to each request: by
/// host (or domain), path, expiry and `Secure`, as RFC 6265 says. A cookie never goes to another
/// host unless its `Domain` covers it.
public final class CookieJar: Sendable {
    private let stored = Mutex<[Cookie]>([])

    /// Creates an empty jar.
    public init() {}

    /// The cookies that have not expired, in the order they were set.
    public func cookies(now: Date = Date()) -> [Cookie] {
        stored.withLock { cookies in
            cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
            return cookies
        }
    }

    /// Whether the jar holds no cookie (expired ones included): a call then parses no URL for it.
    public var isEmpty: Bool { stored.withLock { $0.isEmpty } }

    /// Forgets every cookie.
    public func removeAll() {
        stored.withLock { $0.removeAll() }
    }

    /// The `Cookie` header for a request to `url`, or `nil` when no cookie matches: longer paths
    /// first, then in the order they were set.
    public func header(for url: URL, now: Date = Date()) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let matching = cookies(now: now).enumerated().filter { _, cookie in
            (cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
                && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
        }
        guard !matching.isEmpty else { return nil }
        // In order of precedence, as many as fit a header servers accept (8 KiB is a common limit).
        var pairs: [String] = []
        var size = 0
        for (_, cookie) in matching.sorted(by: { ($0.element.path.count, -$0.offset) > ($1.element.path.count, -$1.offset) }) {
            let pair = "\(cookie.name)=\(cookie.value)"
            guard size + pair.utf8.count + 2 <= Self.maximumHeaderBytes else { break }
            size += pair.utf8.count + 2
            pairs.append(pair)
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// RFC 6265 §6.1's limits, as browsers apply them: a cookie's name and value together at most
    /// 4096 bytes (a larger one is ignored), 50 cookies a domain and 3,000 in all (the oldest go
    /// first), and a `Cookie` header of at most 8 KiB.
    static let maximumCookieBytes = 4096
    static let maximumPerDomain = 50
    static let maximumCookies = 3000
    static let maximumHeaderBytes = 8192

    /// Stores the `Set-Cookie` header values of a response to `url`; a cookie whose `Domain` does
    /// not cover the host, or a `Secure` one set over plain HTTP, is ignored.
    public func store(_ setCookies: [String], from url: URL, now: Date = Date()) {
        guard let host = url.host?.lowercased() else { return }
        let secureChannel = url.scheme?.lowercased() == "https"
        for header in setCookies {
            guard let cookie = Self.parse(header, host: host, requestPath: url.path, now: now),
                !cookie.secure || secureChannel, cookie.name.utf8.count + cookie.value.utf8.count <= Self.maximumCookieBytes
            else { continue }
            stored.withLock { cookies in
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                // An expiry in the past deletes (RFC 6265 §5.3 step 11).
                guard cookie.expires.map({ $0 > now }) ?? true else { return }
                cookies.append(cookie)
                if cookies.count(where: { $0.domain == cookie.domain }) > Self.maximumPerDomain,
                   let oldest = cookies.firstIndex(where: { $0.domain == cookie.domain }) {
                    cookies.remove(at: oldest)
                }
                if cookies.count > Self.maximumCookies { cookies.removeFirst() }
            }
        }
    }

    static func parse(_ header: String, host: String, requestPath: String, now: Date) -> Cookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, hostOnly: true, path: defaultPath(requestPath),
                            expires: nil, secure: false, httpOnly: false)
        var maxAge: Int?
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            switch key {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A domain that does not cover the host would send the cookie elsewhere: refused.
                guard domainMatches(host, domain) else { return nil }
                // A public suffix (`com`, `co.uk`) would share it with every site under it: for the
                // host itself it stays host-only, for another it is refused (RFC 6265 §5.3 step 5).
                if isPublicSuffix(domain) {
                    guard domain == host else { return nil }
                    continue
                }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                if argument.hasPrefix("/") { cookie.path = argument }
            case "expires":
                if maxAge == nil, let date = HTTPDate.parse(argument) { cookie.expires = date }
            case "max-age":
                if let seconds = Int(argument) {
                    maxAge = seconds
                    cookie.expires = seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(seconds))
                }
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: break
            }
        }
        return cookie
    }

    /// Whether a `Domain` is a registry under which unrelated sites live. Without the whole Public
    /// Suffix List: any single label (`com`, `localhost`), and the multi-label registries most often
    /// met (`co.uk`, `com.au`, `github.io` …).
    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") || commonPublicSuffixes.contains(domain)
    }

    static let commonPublicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "com.au", "net.au", "org.au", "co.nz", "co.jp", "ne.jp",
        "or.jp", "com.br", "com.cn", "com.mx", "co.in", "co.za", "com.tr", "com.sg", "co.kr", "com.tw",
        "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "azurewebsites.net", "cloudfront.net",
        "vercel.app", "netlify.app", "pages.dev", "workers.dev", "blogspot.com", "s3.amazonaws.com",
    ]

    /// RFC 6265 §5.1.3: the host is the domain, or ends with `.domain` (and is not an IP address).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":")
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// RFC 6265 §5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4: the request path up to its last `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

/// The date formats HTTP dates come in (`Expires`, `Retry-After`): RFC 9110's preferred
/// `Sun, 06 Nov 1994 08:49:37 GMT` and the obsolete forms.
package enum HTTPDate {
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
                                  "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm:ss Z"]

    /// The date `text` names, or nil when it is in none of the forms.
    package static func parse(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
