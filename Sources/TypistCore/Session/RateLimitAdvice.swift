import Foundation
import TypedAPI
import TypistText

/// A call the service refused for calling too often — `429 Too Many Requests`, a `503` that says
/// when to come back, or a used-up quota (`x-ratelimit-remaining: 0`, as GitHub answers with a
/// `403`) — with how long to wait, read from `Retry-After` (seconds or a date), `RateLimit-Reset`
/// (seconds) or `X-RateLimit-Reset` (a Unix time). The status alone says none of that, and calling
/// again at once is refused again.
enum RateLimitAdvice {
    /// The note for `error` when it is a rate-limit refusal; nil otherwise.
    ///
    /// - Parameter now: The time to count a wait from (the clock, but in tests).
    static func note(for error: any Error, now: Date = Date()) -> String? {
        guard case .unacceptableStatus(_, let response)? = error as? APIError else { return nil }
        return advice(status: response.status, headers: response.headers, now: now)
    }

    /// The advice for an answer with `status` and `headers`, or nil when it is not a rate limit.
    static func advice(status: Int, headers: [HTTPHeader], now: Date) -> String? {
        // Each header's value trimmed, control characters escaped.
        func header(_ name: String) -> (name: String, value: String)? {
            headers.first { $0.isNamed(name) }.map { ($0.name, TerminalText.sanitized($0.value).trimmingCharacters(in: .whitespaces)) }
        }
        let exhausted = header("x-ratelimit-remaining")?.value == "0" || header("ratelimit-remaining")?.value == "0"
        let retryAfter = header("retry-after")
        guard status == 429 || (status == 503 && retryAfter != nil) || ([403, 429].contains(status) && exhausted) else { return nil }
        let opening = status == 503 ? "the service is unavailable for now" : "the service limits how often it is called"
        if let retryAfter {
            let (name, value) = retryAfter
            if let seconds = Int(value), seconds >= 0 {
                return "\(opening): wait \(Self.duration(seconds)) before calling again (\(name): \(value))"
            }
            if let date = HTTPDate.parse(value) {
                return "\(opening): wait until \(Self.clock(date)) (\(Self.duration(until: date, from: now))) before calling again (\(name): \(value))"
            }
        }
        if let reset = header("ratelimit-reset"), let seconds = Int(reset.value), seconds >= 0 {
            return "\(opening): its quota comes back in \(Self.duration(seconds)) (\(reset.name): \(reset.value))"
        }
        if let reset = header("x-ratelimit-reset"), let epoch = Double(reset.value),
           epoch > 0, epoch < 1e11 {
            let date = Date(timeIntervalSince1970: epoch)
            return "\(opening): its quota comes back at \(Self.clock(date)) (\(Self.duration(until: date, from: now))) (\(reset.name): \(reset.value))"
        }
        return "\(opening), and says not when: wait before calling again"
    }

    /// The wait from `now` until `date`, in words (``duration(_:)``).
    private static func duration(until date: Date, from now: Date) -> String {
        // Both dates are a service's: bounded before they become an Int.
        let seconds = min(max(date.timeIntervalSince(now).rounded(.up), 0), 1e9)
        return duration(Int(seconds))
    }

    /// `45 s`, `4 min 10 s`, `2 h 5 min`; a time already past is `0 s`.
    static func duration(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s") }
        return "\(seconds / 3600) h" + (seconds % 3600 / 60 == 0 ? "" : " \(seconds % 3600 / 60) min")
    }

    /// `14:32:05 UTC`.
    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
