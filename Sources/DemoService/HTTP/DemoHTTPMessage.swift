import Foundation
import HTTPTypes

/// A request as the demo's routes read it: method, path, query, headers, the whole body, and
/// the values of the route's `:name` segments.
struct DemoRequest: Sendable {
    var method: HTTPRequest.Method
    /// The path, percent-encoded as it came (`/posts/1`).
    var path: String
    /// The query's items in order, percent-decoded.
    var queryItems: [(name: String, value: String)]
    var headers: HTTPFields
    var body: [UInt8]
    /// The `Host` header: where the client sent it.
    var authority: String? { headers.first { $0.name.canonicalName == "host" }?.value }
    /// The route's parameters (`:id` in `/posts/:id`), percent-decoded; set by the router.
    var parameters = RouteParameters()

    /// The first value of a query item.
    func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}

/// The values of a route's `:name` segments.
struct RouteParameters: Sendable {
    var values: [String: String] = [:]

    func get(_ name: String) -> String? { values[name] }

    func get(_ name: String, as: Int.Type) -> Int? { values[name].flatMap { Int($0) } }
}

/// A response: status, headers, and a body that is whole or written as it is made.
struct DemoResponse: Sendable {
    /// A body.
    enum Body: Sendable {
        case bytes([UInt8])
        /// Written by `write`, chunked unless `length` is known; a `write` that throws ends the
        /// connection where it is (a truncated answer, a dropped stream).
        case stream(length: Int?, write: @Sendable (inout BodyWriter) async throws -> Void)
    }

    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Body

    init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Where a streamed body is written: each write goes to the connection as it is made (waiting
/// while the client has not read what was written before).
struct BodyWriter {
    let pipe: BodyPipe

    mutating func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await pipe.send(bytes)
    }

    mutating func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }
}

/// An error a route throws that is its own answer (a 400 with a JSON body).
protocol DemoHTTPError: Error {
    var response: DemoResponse { get }
}
