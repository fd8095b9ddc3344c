import Foundation
import HTTPTypes

/// The demo's routes by method and path pattern (`/posts/:id`: a `:name` segment takes any one
/// segment, its value in ``DemoRequest/parameters``), first added first matched. A path no route
/// has — or has for another method — is a 404 with no body.
struct DemoRouter: Sendable {
    typealias Handler = @Sendable (DemoRequest) async throws -> DemoResponse

    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [(method: HTTPRequest.Method, segments: [Segment], handler: Handler)] = []

    mutating func get(_ path: String, _ handler: @escaping Handler) { add(.get, path, handler) }
    mutating func post(_ path: String, _ handler: @escaping Handler) { add(.post, path, handler) }
    mutating func put(_ path: String, _ handler: @escaping Handler) { add(.put, path, handler) }
    mutating func patch(_ path: String, _ handler: @escaping Handler) { add(.patch, path, handler) }
    mutating func delete(_ path: String, _ handler: @escaping Handler) { add(.delete, path, handler) }

    private mutating func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        let segments = path.split(separator: "/").map { part in
            part.hasPrefix(":") ? Segment.parameter(String(part.dropFirst())) : .literal(String(part))
        }
        routes.append((method, segments, handler))
    }

    /// The answer to `request`: its route's, the answer an error a route throws carries (a
    /// ``DemoHTTPError``), or a 500 for any other error.
    func respond(to request: DemoRequest) async -> DemoResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for route in routes where route.method == request.method && route.segments.count == parts.count {
            var values: [String: String] = [:]
            let matches = zip(route.segments, parts).allSatisfy { segment, part in
                switch segment {
                case .literal(let text): return text == part
                case .parameter(let name):
                    values[name] = part.removingPercentEncoding ?? part
                    return true
                }
            }
            guard matches else { continue }
            var routed = request
            routed.parameters = RouteParameters(values: values)
            do {
                return try await route.handler(routed)
            } catch let error as any DemoHTTPError {
                return error.response
            } catch {
                return DemoResponse(status: .internalServerError)
            }
        }
        return DemoResponse(status: .notFound)
    }
}
