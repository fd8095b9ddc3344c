import Foundation
import HTTPTypes
import TypedAPI

/// A transport that takes at most `limit` bytes of a body, counted as they arrive where the
/// transport hands a body over in chunks (curl, AsyncHTTPClient, URLSession): a document far
/// larger than the limit is refused once `limit` bytes have come, not after all of it is held,
/// and within the exchange's one time limit. A transport that answers whole bodies only (a
/// cassette's replay is one chunk) is checked against the limit when it has answered.
struct BoundedBodyTransport: HTTPTransport {
    let base: any HTTPTransport
    let limit: Int

    var appliesTLSOptions: Bool { base.appliesTLSOptions }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        let limit = limit
        let base = base
        return try await ExchangeDeadline.run(limit: timeout) {
            let streamed = TransportRequest(head: request, body: body, timeout: timeout, tls: tls, delivery: .streamed)
            let answer: TransportResponse
            do {
                answer = try await base.exchange(streamed, context: CallContext())
            } catch is StreamingUnsupported {
                answer = try await base.exchange(TransportRequest(head: request, body: body, timeout: timeout, tls: tls), context: CallContext())
            }
            var data = Data()
            for try await chunk in answer.chunks {
                guard data.count + chunk.count <= limit else { throw Self.tooLarge(limit) }
                data.append(chunk)
            }
            return (answer.head, data)
        }
    }

    private static func tooLarge(_ limit: Int) -> TransportFailure {
        TransportFailure(.responseTooLarge, detail: "more than \(limit >> 20) MiB")
    }
}
