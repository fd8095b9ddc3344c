import Foundation
import Testing
import TypedAPI
@testable import TypistCore

/// A rate-limited call says how long to wait, from whichever header the service sent.
@Suite("Rate limits read")
struct RateLimitAdviceTests {
    /// 2026-11-27 14:30:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_789_800)

    @Test("Retry-After in seconds or as a date, RateLimit-Reset, X-RateLimit-Reset (GitHub's 403), or nothing said", arguments: [
        (429, [("Retry-After", "120")], "the service limits how often it is called: wait 2 min before calling again (Retry-After: 120)"),
        (503, [("retry-after", "Fri, 27 Nov 2026 14:34:10 GMT")],
         "the service is unavailable for now: wait until 14:34:10 UTC (4 min 10 s) before calling again (retry-after: Fri, 27 Nov 2026 14:34:10 GMT)"),
        (429, [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "45")], "the service limits how often it is called: its quota comes back in 45 s (RateLimit-Reset: 45)"),
        (403, [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1795793400")],
         "the service limits how often it is called: its quota comes back at 15:30:00 UTC (1 h) (x-ratelimit-reset: 1795793400)"),
        (429, [], "the service limits how often it is called, and says not when: wait before calling again"),
        (429, [("Retry-After", "soon\u{1B}[2J")], "the service limits how often it is called, and says not when: wait before calling again"),
        // Numbers no clock has are not read as times (and do not trap).
        (429, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1e308")], "the service limits how often it is called, and says not when: wait before calling again"),
        (429, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "inf")], "the service limits how often it is called, and says not when: wait before calling again"),
        (429, [("Retry-After", "99999999999999999999999")], "the service limits how often it is called, and says not when: wait before calling again"),
        (429, [("Retry-After", "Sat, 01 Jan 2000 00:00:00 GMT")],
         "the service limits how often it is called: wait until 00:00:00 UTC (0 s) before calling again (Retry-After: Sat, 01 Jan 2000 00:00:00 GMT)"),
    ])
    func advice(status: Int, headers: [(String, String)], expected: String) {
        #expect(RateLimitAdvice.advice(status: status, headers: headers.map { HTTPHeader(name: $0.0, value: $0.1) }, now: Self.now) == expected)
    }

    @Test("Not a rate limit: a 503 that says not when, a 403 with quota left, other statuses")
    func notLimits() {
        #expect(RateLimitAdvice.advice(status: 503, headers: [], now: Self.now) == nil)
        #expect(RateLimitAdvice.advice(status: 403, headers: [HTTPHeader(name: "x-ratelimit-remaining", value: "12")], now: Self.now) == nil)
        #expect(RateLimitAdvice.advice(status: 404, headers: [HTTPHeader(name: "Retry-After", value: "5")], now: Self.now) == nil)
        let request = RequestSummary(method: "GET", url: "http://127.0.0.1/x")
        #expect(RateLimitAdvice.note(for: APIError.cancelled(request)) == nil)
    }
}
