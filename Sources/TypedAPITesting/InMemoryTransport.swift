import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// Answers requests from a closure and records them, with no network: for a host's tests of its
/// endpoints and scripts, and for tests of request building.
public final class InMemoryTransport: HTTPTransport {
    /// One request as it was sent.
    public struct Sent: Sendable {
        /// The request head.
        public var request: HTTPRequest
        /// Its body.
        public var body: Data?
        /// The time limit it was sent with.
        public var timeout: Duration

        /// `scheme://authority/path?query`.
        public var url: String { "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")" }
        /// The body as UTF-8 text.
        public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
        /// A header's value.
        public func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { request.headerFields[$0] } }
    }

    /// The answer to a request: status, headers and body.
    public typealias Answer = @Sendable (HTTPRequest) -> (status: Int, headers: HTTPFields, body: Data)

    private let sent = Mutex<[Sent]>([])
    private let answer: Answer

    /// Answers each request with what `answer` returns (by default `200` and `{}`).
    public init(answer: @escaping Answer = { _ in (200, [.contentType: "application/json"], Data("{}".utf8)) }) {
        self.answer = answer
    }

    /// Answers every request with one body.
    public convenience init(json: String, status: Int = 200, contentType: String = "application/json") {
        self.init { _ in (status, [.contentType: contentType], Data(json.utf8)) }
    }

    /// Answers by path (`/posts/1`, without the query), `404` with `{}` for any other.
    public convenience init(routes: [String: String]) {
        self.init { request in
            let path = request.path.map { String($0.prefix { $0 != "?" }) } ?? ""
            guard let json = routes[path] else { return (404, [.contentType: "application/json"], Data("{}".utf8)) }
            return (200, [.contentType: "application/json"], Data(json.utf8))
        }
    }

    /// Every request so far, in order.
    public var requests: [Sent] { sent.withLock { $0 } }
    /// The last request.
    public var last: Sent? { requests.last }

    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        sent.withLock { $0.append(Sent(request: request, body: body, timeout: timeout)) }
        let reply = answer(request)
        return (HTTPResponse(status: .init(code: reply.status), headerFields: reply.headers), reply.body)
    }
}
