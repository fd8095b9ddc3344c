import CCurl
import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// One exchange asked of ``CurlEngine``: what to send, and where the answer goes.
///
/// `Sendable` as the compiler checks it: the request is immutable, `cancelled` is atomic, and the
/// caller's continuation is handed over through a lock. What libcurl fills in as the exchange
/// runs is a ``CurlExchange``, which only the engine's thread touches.
final class CurlTransfer: Sendable {
    let url: String
    let method: String
    let headerLines: [String]
    let body: Data?
    let timeoutMilliseconds: Int
    let maximumResponseSize: Int
    let tls: TLSOptions
    /// Set by a cancelled caller; the engine aborts the exchange when it sees it.
    let cancelled = Atomic<Bool>(false)
    /// Where a streaming response goes as it arrives; nil for a response read whole.
    let stream: CurlStream?
    /// The caller waiting for a response read whole: resumed exactly once, on the engine's thread.
    private let waiter = Mutex<UnsafeContinuation<(HTTPResponse, Data), any Error>?>(nil)

    init(url: String, method: String, headerLines: [String], body: Data?, timeoutMilliseconds: Int,
         maximumResponseSize: Int, tls: TLSOptions = .system, stream: CurlStream? = nil) {
        self.tls = tls
        self.stream = stream
        self.url = url
        self.method = method
        self.headerLines = headerLines
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sets who waits for the response; before the transfer is submitted.
    func waits(_ continuation: UnsafeContinuation<(HTTPResponse, Data), any Error>) {
        waiter.withLock { $0 = continuation }
    }

    /// Resumes the caller (or ends the stream); later calls do nothing.
    func finish(_ result: Result<(HTTPResponse, Data), any Error>) {
        if let stream {
            switch result {
            case .success(let (head, _)): stream.finish(nil, head: head)
            case .failure(let error): stream.finish(error, head: nil)
            }
            return
        }
        let continuation = waiter.withLock { waiter in
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(with: result)
    }
}
