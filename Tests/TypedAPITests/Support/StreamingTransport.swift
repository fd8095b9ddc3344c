import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl

/// The transports that stream.
enum StreamingTransport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case curl
    case asyncHTTPClient
    case urlSession

    /// Runs `body` with a client of this transport for `url`.
    func withClient<T>(_ url: String, configuration: APIClient.Configuration = APIClient.Configuration(),
                       _ body: (APIClient) async throws -> T) async throws -> T {
        switch self {
        case .curl:
            return try await CurlTransport.withOwnEngine { curl, _ in
                try await body(APIClient(environment: try ServerEnvironment(url: url), transport: curl, configuration: configuration))
            }
        case .asyncHTTPClient:
            return try await body(APIClient(environment: try ServerEnvironment(url: url), transport: AsyncHTTPClientTransport(),
                                            configuration: configuration))
        case .urlSession:
            return try await body(APIClient(environment: try ServerEnvironment(url: url), transport: URLSessionTransport(),
                                            configuration: configuration))
        }
    }

    var testDescription: String { rawValue }
}
