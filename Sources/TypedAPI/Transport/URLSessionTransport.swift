import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with `URLSession` (FoundationNetworking on Linux). Builds no NIO.
///
/// Redirects are not followed here: ``APIClient`` follows them itself, dropping credentials on
/// a redirect to another origin (Linux `URLSession` would copy every original header into the
/// redirected request).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: The session configuration; `.ephemeral` by default, so no
    ///   cookies or cache persist between runs.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends one request; see ``HTTPTransport/send(_:body:timeout:)``.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path,
            let url = URL(string: "\(scheme)://\(authority)\(path)")
        else {
            throw TransportFailure(.other, detail: "the request has no valid URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own limit is an idle timer with surprising reuse on Linux; the whole-exchange
        // limit is enforced below, and URLSession's is only a backstop.
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + 5
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await Self.withTimeLimit(timeout) { [session, urlRequest] in
                try await session.data(for: urlRequest)
            }
        } catch {
            throw Self.failure(from: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportFailure(.other, detail: "the response is not HTTP")
        }
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let status = HTTPResponse.Status(code: http.statusCode)
        return (HTTPResponse(status: status, headerFields: fields), data)
    }

    /// Runs `operation`, cancelling it and throwing a time-out when `limit` passes first.
    private static func withTimeLimit<Value: Sendable>(
        _ limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw TransportFailure(.timedOut, detail: "no complete response within the time limit")
            }
            return value
        }
    }

    private static func failure(from error: any Error) -> any Error {
        if error is CancellationError || error is TransportFailure { return error }
        guard let urlError = error as? URLError else {
            return TransportFailure(.other, detail: String(describing: error))
        }
        let detail = urlError.localizedDescription
        if ProcessInfo.processInfo.environment["TYPIST_DEBUG_TRANSPORT"] != nil {
            FileHandle.standardError.write(Data("transport error: URLError \(urlError.code.rawValue): \(detail)\n".utf8))
        }
        switch urlError.code {
        case .cancelled: return TransportFailure(.cancelled, detail: detail)
        case .timedOut: return TransportFailure(.timedOut, detail: detail)
        case .cannotConnectToHost: return TransportFailure(.connectionRefused, detail: detail)
        case .cannotFindHost, .dnsLookupFailed: return TransportFailure(.hostNotFound, detail: detail)
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse:
            return TransportFailure(.connectionClosed, detail: detail)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return TransportFailure(.tls, detail: detail)
        case .dataLengthExceedsMaximum: return TransportFailure(.responseTooLarge, detail: detail)
        default:
            // libcurl's own errors arrive as "unknown" with its message.
            let lowered = detail.lowercased()
            if lowered.contains("transfer closed") || lowered.contains("connection reset")
                || lowered.contains("empty reply")
            {
                return TransportFailure(.connectionClosed, detail: detail)
            }
            if lowered.contains("refused") { return TransportFailure(.connectionRefused, detail: detail) }
            if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("certificate") {
                return TransportFailure(.tls, detail: detail)
            }
            return TransportFailure(.other, detail: detail)
        }
    }
}

/// Refuses every redirect, so that the response comes back to ``APIClient`` as it is.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
