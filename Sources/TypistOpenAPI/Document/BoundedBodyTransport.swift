import Foundation
import HTTPTypes
import TypedAPI

/// A transport that takes at most `limit` bytes of a body, counted as they arrive where the
/// transport hands a body over in chunks (curl, AsyncHTTPClient, URLSession): a document far
/// larger than the limit is refused once `limit` bytes have come, not after all of it is held,
/// and within the exchange's one time limit.
///
/// A cassette answers from a file it has already read whole, and records what its own transport
/// fetched: it is asked for the whole body, checked against the limit after.
struct BoundedBodyTransport: HTTPTransport {
    let base: any HTTPTransport
    let limit: Int

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        let limit = limit
        guard let streaming = base as? any StreamingHTTPTransport, !(base is CassetteTransport) else {
            let (head, data) = try await base.send(request, body: body, timeout: timeout, tls: tls)
            guard data.count <= limit else { throw Self.tooLarge(limit) }
            return (head, data)
        }
        return try await ExchangeDeadline.run(limit: timeout) {
            let (head, chunks) = try await streaming.stream(request, body: body, idleTimeout: timeout, tls: tls)
            var data = Data()
            for try await chunk in chunks {
                guard data.count + chunk.count <= limit else { throw Self.tooLarge(limit) }
                data.append(chunk)
            }
            return (head, data)
        }
    }

    private static func tooLarge(_ limit: Int) -> TransportFailure {
        TransportFailure(.responseTooLarge, detail: "more than \(limit >> 20) MiB")
    }
}
