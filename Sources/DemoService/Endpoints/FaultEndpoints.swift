import Foundation
import TypedAPI

// Faults: each answers in a way that makes one APIError happen.

extension Endpoint where Kind == Public, Response == StatusReport {
    /// `GET /faults/status/{code}`: answers with that status and a JSON body.
    public static func status(code: Int) -> Self {
        Endpoint(path: "/faults/status/\(code)").decodingErrors(as: StatusReport.self)
    }
}

extension StatusReport: Error {}

extension Endpoint where Kind == Public, Response == SlowReport {
    /// `GET /faults/slow?ms=`: answers after `ms` milliseconds.
    public static func slow(ms: Int) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "ms", value: String(ms))]), path: "/faults/slow")
    }
}

extension Endpoint where Kind == Public, Response == Post {
    /// `GET /faults/malformed`: `application/json` that is not JSON.
    public static var malformed: Self { Endpoint(path: "/faults/malformed") }
    /// `GET /faults/wrong-type`: a post whose `id` is a string.
    public static var wrongType: Self { Endpoint(path: "/faults/wrong-type") }
    /// `GET /faults/html`: an HTML page where JSON was asked for.
    public static var notJSON: Self { Endpoint(path: "/faults/html") }
    /// `GET /faults/truncated`: promises more bytes than it sends, then closes.
    public static var truncated: Self { Endpoint(path: "/faults/truncated") }
}

extension Endpoint where Kind == Public, Response == HeaderEcho {
    /// `GET /faults/redirect?to=`: a 302 to `to`, typically another server's `/debug/headers`.
    public static func redirect(to target: String) -> Self {
        Endpoint(.get(query: [URLQueryItem(name: "to", value: target)]), path: "/faults/redirect")
    }

    /// `GET /faults/loop`: a redirect to itself, for ever.
    public static var redirectLoop: Self { Endpoint(path: "/faults/loop") }

    /// `GET /debug/headers`: the headers the request arrived with.
    public static var echoHeaders: Self { Endpoint(path: "/debug/headers") }
}
