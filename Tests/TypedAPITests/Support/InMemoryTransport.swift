import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// Records requests and answers with canned responses. For unit tests of request building only.
final class InMemoryTransport: HTTPTransport {
    struct Sent: Sendable {
        var request: HTTPRequest
        var body: Data?
        var timeout: Duration

        var url: String { "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")" }
        var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { request.headerFields[$0] } }
    }

    typealias Answer = @Sendable (HTTPRequest) -> (status: Int, headers: HTTPFields, body: Data)

    private let sent = Mutex<[Sent]>([])
    private let answer: Answer

    init(answer: @escaping Answer = { _ in (200, [.contentType: "application/json"], Data("{}".utf8)) }) {
        self.answer = answer
    }

    /// Answers every request with one JSON body.
    convenience init(json: String, status: Int = 200, contentType: String = "application/json") {
        self.init { _ in (status, [.contentType: contentType], Data(json.utf8)) }
    }

    var requests: [Sent] { sent.withLock { $0 } }
    var last: Sent? { requests.last }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        sent.withLock { $0.append(Sent(request: request, body: body, timeout: timeout)) }
        let reply = answer(request)
        return (HTTPResponse(status: .init(code: reply.status), headerFields: reply.headers), reply.body)
    }
}
