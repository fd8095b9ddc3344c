import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl

/// The real transports a shell test runs through, each in turn.
enum ShellTransport: String, CaseIterable, Sendable {
    case curl, asyncHTTPClient, urlSession

    /// A transport of this kind.
    func make() -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .urlSession: URLSessionTransport()
        }
    }
}
