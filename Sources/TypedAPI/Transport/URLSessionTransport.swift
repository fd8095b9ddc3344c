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
        urlRequest.timeoutInterval = Double(timeout.components.seconds)
            + Double(timeout.components.attoseconds) / 1e18
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
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

    private static func failure(from error: any Error) -> any Error {
        if error is CancellationError { return error }
        guard let urlError = error as? URLError else {
            return TransportFailure(.other, detail: String(describing: error))
        }
        let detail = urlError.localizedDescription
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
        default: return TransportFailure(.other, detail: detail)
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
