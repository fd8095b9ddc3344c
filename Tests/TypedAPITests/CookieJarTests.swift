import Foundation
import Testing
import TypedAPI
import TypistTesting

/// The jar's rules, RFC 6265's: a cookie goes back to its host (or its domain's hosts), under
/// its path, until it expires, over HTTPS when it says `Secure` — and nowhere else.
@Suite("Cookie jar")
struct CookieJarTests {
    let api = URL(string: "https://api.example.test/v1/items")!

    @Test("Host-only by default, sent under the default path and below it, not to other hosts")
    func hostAndPath() {
        let jar = CookieJar()
        jar.store(["sid=abc123; HttpOnly"], from: api)
        #expect(jar.header(for: URL(string: "https://api.example.test/v1/other")!) == "sid=abc123")
        #expect(jar.header(for: URL(string: "https://api.example.test/v2")!) == nil, "the default path is /v1")
        #expect(jar.header(for: URL(string: "https://www.example.test/v1/x")!) == nil)
        #expect(jar.header(for: URL(string: "https://evil.test/v1/x")!) == nil)
        #expect(jar.cookies().first?.httpOnly == true)
    }

    @Test("A Domain covers its hosts; a Domain that does not cover the setting host is refused")
    func domains() {
        let jar = CookieJar()
        jar.store(["shared=1; Domain=.example.test; Path=/", "stolen=1; Domain=other.test; Path=/"], from: api)
        #expect(jar.header(for: URL(string: "https://www.example.test/")!) == "shared=1")
        #expect(jar.header(for: URL(string: "https://other.test/")!) == nil)
        #expect(jar.header(for: URL(string: "https://notexample.test/")!) == nil)
    }

    @Test("RFC 6265's limits: 10,000 Set-Cookie headers keep 50 for the domain, the newest; a header stays under 8 KiB")
    func limits() async throws {
        try await offThePool { try Self.checkLimits() }
    }

    /// Seconds of work: run on a thread of its own, off the concurrency pool.
    private static func checkLimits() throws {
        let api = URL(string: "https://api.example.test/v1/items")!
        let jar = CookieJar()
        jar.store((0..<10_000).map { "c\($0)=\(String(repeating: "v", count: 40)); Path=/" }, from: api)
        let kept = jar.cookies()
        #expect(kept.count == 50)
        #expect(kept.first?.name == "c9950" && kept.last?.name == "c9999")
        let header = jar.header(for: api) ?? ""
        #expect(header.utf8.count <= 8192)
        #expect(header.hasPrefix("c9950="))
        // A cookie larger than 4096 bytes is ignored.
        let big = CookieJar()
        big.store(["huge=\(String(repeating: "x", count: 5000)); Path=/", "small=1; Path=/"], from: api)
        #expect(big.cookies().map(\.name) == ["small"])
        // Many domains: at most 3,000 in all, the oldest gone first.
        let wide = CookieJar()
        for index in 0..<3_100 {
            wide.store(["k=\(index)"], from: URL(string: "https://h\(index).example.test/")!)
        }
        #expect(wide.cookies().count == 3000)
        #expect(wide.cookies().first?.domain == "h100.example.test")
    }

    @Test("Domain= on a public suffix is refused, or host-only when it is the host itself")
    func publicSuffixes() {
        let jar = CookieJar()
        jar.store(["a=1; Domain=test; Path=/", "b=2; Domain=.co.uk; Path=/"], from: api)
        jar.store(["c=3; Domain=co.uk; Path=/"], from: URL(string: "https://shop.co.uk/")!)
        jar.store(["d=4; Domain=localhost; Path=/"], from: URL(string: "http://localhost/")!)
        #expect(jar.header(for: URL(string: "https://other.test/")!) == nil)
        #expect(jar.header(for: URL(string: "https://bank.co.uk/")!) == nil)
        #expect(jar.cookies().map(\.name) == ["d"])
        #expect(jar.cookies().first?.hostOnly == true)
    }

    @Test("Max-Age and Expires: a past date deletes, a future one keeps until then")
    func expiry() {
        let jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        jar.store(["a=1; Path=/; Max-Age=60", "b=2; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "c=3; Path=/"], from: api, now: now)
        #expect(jar.header(for: api, now: now) == "a=1; c=3")
        #expect(jar.header(for: api, now: now.addingTimeInterval(61)) == "c=3")
        jar.store(["c=; Path=/; Max-Age=0"], from: api, now: now)
        #expect(jar.header(for: api, now: now) == nil)
    }

    @Test("Secure cookies go over HTTPS only, and one set over plain HTTP is ignored")
    func secure() {
        let jar = CookieJar()
        jar.store(["s=1; Secure; Path=/"], from: api)
        #expect(jar.header(for: URL(string: "http://api.example.test/")!) == nil)
        #expect(jar.header(for: URL(string: "https://api.example.test/")!) == "s=1")
        jar.store(["plain=1; Secure; Path=/"], from: URL(string: "http://api.example.test/")!)
        #expect(jar.cookies().map(\.name) == ["s"])
    }

    @Test("Longer paths come first; the same name, domain and path replaces")
    func orderAndReplacement() {
        let jar = CookieJar()
        jar.store(["x=root; Path=/", "x=deep; Path=/v1/items", "y=1; Path=/v1"], from: api)
        #expect(jar.header(for: api) == "x=deep; y=1; x=root")
        jar.store(["x=new; Path=/"], from: api)
        #expect(jar.header(for: api) == "x=deep; y=1; x=new")
        jar.removeAll()
        #expect(jar.header(for: api) == nil)
    }
}
