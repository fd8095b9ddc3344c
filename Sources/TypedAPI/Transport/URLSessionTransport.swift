import Foundation
import HTTPTypes
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with `URLSession` (FoundationNetworking on Linux). Builds no NIO.
///
/// Redirects are not followed here: ``APIClient`` follows them itself, dropping credentials on
/// a redirect to another origin (Linux `URLSession` would copy every original header into the
/// redirected request).
public final class URLSessionTransport: HTTPTransport {
    let session: URLSession
    let transfers: TransferTable
    /// The session streams go through: its delegate does not ask about each response's head
    /// (see ``StreamTable``).
    let streamSession: URLSession
    let streamTransfers: StreamTable
    private let maximumResponseSize: Int

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; `.ephemeral` by default, so no cookies or
    ///     cache persist between runs.
    ///   - maximumResponseSize: The largest body accepted, in bytes, counted as it arrives after
    ///     URLSession has decompressed it (256 MiB by default).
    public init(configuration: URLSessionConfiguration = .ephemeral, maximumResponseSize: Int = 256 << 20) {
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        transfers = TransferTable()
        self.maximumResponseSize = maximumResponseSize
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        streamTransfers = StreamTable()
        streamSession = URLSession(configuration: configuration, delegate: streamTransfers, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
        streamSession.finishTasksAndInvalidate()
    }

    /// Sends one request with the system's TLS options; any others are refused.
    ///
    /// URLSession offers no CA bundle, client certificate or unchecked server for a session: on
    /// Linux FoundationNetworking reads its trust store from libcurl's defaults and asks no delegate
    /// about server trust, and on Apple platforms it takes them only from a delegate handling
    /// authentication challenges, which this transport does not implement. Use `CurlTransport` (or
    /// AsyncHTTPClient's transport) for such a service.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        guard tls.isSystemDefault else { throw Self.refusal(of: tls) }
        return try await send(request, body: body, timeout: timeout)
    }

    /// Why these TLS options cannot be used here: for a caller that checks before sending (the
    /// command line refuses them at start).
    /// `false`: URLSession keeps the system's trust store and takes no client certificate here.
    public var appliesTLSOptions: Bool { false }

    public static func refusal(of tls: TLSOptions) -> TransportFailure {
        TransportFailure(.tls, detail: "the urlsession transport cannot use TLS options (\(tls)): URLSession takes no CA bundle, client certificate or --insecure here; use --transport curl")
    }

    /// Sends one request; see ``HTTPTransport/send(_:body:timeout:)``.
    ///
    /// The body is collected by the session's delegate, which refuses it as soon as it grows past
    /// the limit; the time limit covers the whole exchange, and on a time-out or cancellation the
    /// caller is answered at once, whatever URLSession's own threads are still doing.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        let urlRequest = try Self.urlRequest(request, body: body, timeout: timeout)
        let (session, transfers, limit, outgoing) = (session, transfers, maximumResponseSize, urlRequest)
        let data: Data
        let response: URLResponse
        do {
            (response, data) = try await ExchangeDeadline.run(limit: timeout) {
                let transfer = Transfer(limit: limit)
                return try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation { continuation in
                        transfer.begin(continuation)
                        let task = session.dataTask(with: outgoing)
                        transfers.add(transfer, for: task)
                        task.resume()
                    }
                } onCancel: {
                    transfer.finish(.failure(CancellationError()))
                }
            }
        } catch {
            throw Self.failure(from: error)
        }
        return (try Self.head(of: response), data)
    }

    /// The request as URLSession takes it.
    static func urlRequest(_ request: HTTPRequest, body: Data?, timeout: Duration) throws -> URLRequest {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path,
            let url = URL(string: "\(scheme)://\(authority)\(path)")
        else {
            throw TransportFailure(.other, detail: "the request has no valid URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own limit is an idle timer with surprising reuse on Linux; the whole-exchange
        // limit is enforced by the caller, and URLSession's is only a backstop.
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + 5
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = body
        return urlRequest
    }

    /// A response's head as HTTPTypes has it.
    static func head(of response: URLResponse) throws -> HTTPResponse {
        guard let http = response as? HTTPURLResponse else {
            throw TransportFailure(.other, detail: "the response is not HTTP")
        }
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            // Foundation joins repeated headers with ", ": `Set-Cookie` is taken apart again, or
            // two cookies would become one, with the other's attributes.
            if name == .setCookie {
                for cookie in Self.separateSetCookies(value) { fields.append(HTTPField(name: name, value: cookie)) }
            } else {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        guard (0...999).contains(http.statusCode) else {
            throw TransportFailure(.other, detail: "the response's status \(http.statusCode) is not a valid HTTP status")
        }
        let status = HTTPResponse.Status(code: http.statusCode)
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// `Set-Cookie` values that Foundation joined with commas, apart again: a comma starts a new
    /// cookie only where `name=` follows it, not inside an `Expires` date (`Wed, 21 Oct 2015 …`).
    static func separateSetCookies(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        var rest = joined[...]
        while let comma = rest.firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...].drop { $0 == " " }
            let head = after.prefix { $0 != ";" && $0 != "," }
            if let equals = head.firstIndex(of: "="), !head[..<equals].isEmpty, !head[..<equals].contains(" ") {
                current += rest[..<comma]
                cookies.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                rest = after
            } else {
                current += rest[...comma]
                rest = rest[rest.index(after: comma)...]
            }
        }
        current += rest
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { cookies.append(current.trimmingCharacters(in: .whitespaces)) }
        return cookies
    }

    static func failure(from error: any Error) -> any Error {
        if error is CancellationError || error is TransportFailure { return error }
        guard let urlError = error as? URLError else {
            return TransportFailure(.other, detail: String(describing: error))
        }
        var detail = urlError.localizedDescription
        if detail == "Out of memory" {
            // FoundationNetworking's libcurl word for a header past its 100 KB limit.
            detail = "the response's headers are larger than libcurl takes (100 KB for one header), or memory ran out"
        }
        if detail == "Failed writing header" {
            // FoundationNetworking (URLSession on Linux) refuses header bytes that are not UTF-8.
            detail = "a response header has bytes that are not UTF-8 (RFC 9110 allows them), which URLSession on "
                + "Linux cannot read; the libcurl transport (the default) reads them"
        }
        if ProcessInfo.processInfo.environment["TYPIST_DEBUG_TRANSPORT"] != nil {
            try? FileHandle.standardError.write(contentsOf: Data("transport error: URLError \(urlError.code.rawValue): \(detail)\n".utf8))
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

/// What the session's delegate tells one task's exchange.
protocol TaskEvents: AnyObject, Sendable {
    /// The task the events are for, once it exists.
    func attach(_ task: URLSessionTask)
    /// The head arrived; `false` refuses the body.
    func receive(_ response: URLResponse) -> Bool
    /// More of the body (already decompressed).
    func receive(_ data: Data)
    /// Foundation raised an authentication challenge for this response and will cancel the task.
    func challenged(_ response: URLResponse?)
    /// The task ended, with an error or none.
    func complete(_ error: (any Error)?)
}

/// One exchange's body and its single answer.
private final class Transfer: TaskEvents {
    private struct State {
        var continuation: UnsafeContinuation<(URLResponse, Data), any Error>?
        var early: Result<(URLResponse, Data), any Error>?
        var response: URLResponse?
        var body = Data()
        var task: URLSessionTask?
        var done = false
        /// The response of an authentication challenge that was declined.
        var challengeResponse: URLResponse?
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func begin(_ continuation: UnsafeContinuation<(URLResponse, Data), any Error>) {
        let early = state.withLock { state -> Result<(URLResponse, Data), any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func attach(_ task: URLSessionTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.done
        }
        if cancelled { Self.cancelLater(task) }
    }

    /// The head arrived: refuses a body announced larger than the limit.
    func receive(_ response: URLResponse) -> Bool {
        if response.expectedContentLength > Int64(limit) {
            finish(.failure(TransportFailure(.responseTooLarge, detail: "Content-Length \(response.expectedContentLength) is over the limit of \(limit) bytes")))
            return false
        }
        state.withLock { $0.response = response }
        return true
    }

    /// More of the body (already decompressed): refused once the total passes the limit.
    func receive(_ data: Data) {
        let over = state.withLock { state -> Bool in
            guard !state.done else { return false }
            if state.body.count + data.count > limit { return true }
            state.body.append(data)
            return false
        }
        if over {
            finish(.failure(TransportFailure(.responseTooLarge, detail: "the body grew past the limit of \(limit) bytes")))
        }
    }

    /// Foundation raised an authentication challenge for this response (a 401 with
    /// `WWW-Authenticate`) and will cancel the task: the response is the answer.
    func challenged(_ response: URLResponse?) {
        state.withLock { $0.challengeResponse = response }
    }

    func complete(_ error: (any Error)?) {
        if let error {
            let challenged = state.withLock { state in state.challengeResponse.map { ($0, state.body) } }
            finish(challenged.map { .success($0) } ?? .failure(error))
            return
        }
        let result: Result<(URLResponse, Data), any Error> = state.withLock { state in
            guard let response = state.response else {
                return .failure(TransportFailure(.connectionClosed, detail: "no response head arrived"))
            }
            return .success((response, state.body))
        }
        finish(result)
    }

    /// Answers the caller once; a transfer ended early (limit, cancellation) is cancelled on
    /// another thread, so no lock of URLSession's is ever waited on from here.
    func finish(_ result: Result<(URLResponse, Data), any Error>) {
        let (continuation, task) = state.withLock { state -> (UnsafeContinuation<(URLResponse, Data), any Error>?, URLSessionTask?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil; state.body = Data() }
            return (state.continuation, state.task)
        }
        continuation?.resume(with: result)
        if case .failure = result, let task { Self.cancelLater(task) }
    }

    private static func cancelLater(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}

/// The session's delegate: routes each task's events to its transfer, and refuses every redirect
/// so that the response comes back to ``APIClient`` as it is.
final class TransferTable: NSObject, URLSessionDataDelegate, DecliningTaskDelegate, Sendable {
    private let transfers = Mutex<[Int: any TaskEvents]>([:])

    func add(_ transfer: any TaskEvents, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
        transfer.attach(task)
    }

    func transfer(for task: URLSessionTask) -> (any TaskEvents)? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let accepted = transfer(for: dataTask)?.receive(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error)
    }
}

/// What both sessions' delegates do alike: a redirect comes back to ``APIClient`` as it is, and
/// an authentication challenge is declined.
protocol DecliningTaskDelegate: URLSessionTaskDelegate {
    /// The exchange a task's events go to.
    func transfer(for task: URLSessionTask) -> (any TaskEvents)?
}

extension DecliningTaskDelegate {
    /// A 401 with `WWW-Authenticate` is an answer, not a question: credentials travel in the
    /// request's own headers (the endpoint's kind sets them), so the challenge is declined and the
    /// 401 comes back as the response. Left to Foundation on Linux, the task waited until its time
    /// limit; declined, Foundation cancels the task, so the transfer keeps the challenge's response
    /// and answers with it when the cancellation arrives.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        transfer(for: task)?.challenged(challenge.failureResponse ?? task.response)
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
