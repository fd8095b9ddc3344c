import Foundation
import HTTPTypes
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport: StreamingHTTPTransport {
    /// Sends a request and hands its body over as URLSession's delegate receives it.
    ///
    /// URLSession pushes a body as it arrives and has no way to hold a server back (on Linux,
    /// FoundationNetworking queues what libcurl reads for the delegate, and a task suspended or
    /// cancelled mid-body reads on for a while). So chunks wait here until the reader asks for
    /// them, and a reader that falls further behind than ``maximumStreamLag`` ends the stream with
    /// `responseTooLarge` rather than let memory grow; what arrives after the end is dropped.
    /// Dropping the chunks before their end cancels the task. For back-pressure, use
    /// `CurlTransport` (or AsyncHTTPClient's transport).
    public func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        guard tls.isSystemDefault else { throw Self.refusal(of: tls) }
        let urlRequest = try Self.urlRequest(request, body: body, timeout: idleTimeout)
        let transfer = StreamTransfer(maximumLag: Self.maximumStreamLag)
        let task = streamSession.dataTask(with: urlRequest)
        streamTransfers.add(transfer, for: task)
        task.resume()
        let handle = StreamHandle(transfer)
        let response: URLResponse
        do {
            response = try await withTaskCancellationHandler {
                try await transfer.head()
            } onCancel: {
                transfer.cancel()
            }
        } catch {
            transfer.cancel()
            throw Self.failure(from: error)
        }
        let head = try Self.head(of: response)
        return (head, HTTPBodyChunks {
            do {
                return try await withTaskCancellationHandler {
                    try await handle.transfer.next()
                } onCancel: {
                    handle.transfer.cancel()
                }
            } catch {
                throw Self.failure(from: error)
            }
        })
    }
}

extension URLSessionTransport {
    /// The most a stream's chunks may wait for their reader before the stream is an error: 64 MiB.
    public static var maximumStreamLag: Int { 64 << 20 }
}

/// The stream session's delegate: routes each task's body and end to its transfer, and refuses
/// redirects.
///
/// Streams have a session of their own, whose delegate asks nothing about a response's head (a
/// stream takes any size): the head is taken from the task when the first bytes come, or when it
/// ends. (With the whole-body session's delegate, a stream that paused right after its first
/// events more often showed none of them in our tests; FoundationNetworking still does so at
/// times under load, see the README.)
final class StreamTable: NSObject, URLSessionDataDelegate, DecliningTaskDelegate, Sendable {
    private let transfers = Mutex<[Int: StreamTransfer]>([:])

    func add(_ transfer: StreamTransfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
        transfer.attach(task)
    }

    func transfer(for task: URLSessionTask) -> (any TaskEvents)? { stream(for: task) }

    private func stream(for task: URLSessionTask) -> StreamTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = stream(for: dataTask) else { return }
        if let response = dataTask.response { transfer.arrived(response) }
        transfer.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if error == nil, let response = task.response { transfer?.arrived(response) }
        transfer?.complete(error)
    }
}

/// Cancels its stream's task when the last reference to the chunks goes.
private final class StreamHandle: Sendable {
    let transfer: StreamTransfer
    init(_ transfer: StreamTransfer) { self.transfer = transfer }
    deinit { transfer.cancel() }
}

/// One streaming exchange: its head, then its body's chunks as they arrive, waiting for a reader.
final class StreamTransfer: TaskEvents {
    /// The most bytes that may wait for the reader.
    let maximumLag: Int

    init(maximumLag: Int) { self.maximumLag = maximumLag }

    private struct State {
        var head: UnsafeContinuation<URLResponse, any Error>?
        var response: URLResponse?
        var chunks: [Data] = []
        var chunkStart = 0
        var waiting = 0
        var reader: UnsafeContinuation<Data?, any Error>?
        /// How the body ended: `nil` while it goes on, `.success` at its end.
        var end: Result<Void, any Error>?
        var task: URLSessionTask?
        var challengeResponse: URLResponse?
    }

    private let state = Mutex(State())

    func attach(_ task: URLSessionTask) {
        let ended = state.withLock { state -> Bool in
            state.task = task
            return state.end != nil
        }
        if ended { Self.later { task.cancel() } }
    }

    /// The response's head, once it has come.
    func head() async throws -> URLResponse {
        try await withUnsafeThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<URLResponse, any Error>? in
                if let response = state.response { return .success(response) }
                if case .failure(let error)? = state.end { return .failure(error) }
                if state.end != nil { return .failure(TransportFailure(.connectionClosed, detail: "no response head arrived")) }
                state.head = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The next chunk, `nil` at the end.
    func next() async throws -> Data? {
        try await withUnsafeThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Data?, any Error>? in
                if state.chunkStart < state.chunks.count {
                    let chunk = state.chunks[state.chunkStart]
                    state.chunkStart += 1
                    if state.chunkStart == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.chunkStart = 0
                    }
                    state.waiting -= chunk.count
                    return .success(chunk)
                }
                switch state.end {
                case .success?: return .success(nil)
                case .failure(let error)?: return .failure(error)
                case nil:
                    state.reader = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func receive(_ response: URLResponse) -> Bool {
        arrived(response)
        return true
    }

    /// The head, the first time it is seen.
    func arrived(_ response: URLResponse) {
        let head = state.withLock { state -> UnsafeContinuation<URLResponse, any Error>? in
            guard state.response == nil else { return nil }
            state.response = response
            defer { state.head = nil }
            return state.head
        }
        head?.resume(returning: response)
    }

    func receive(_ data: Data) {
        var stale: URLSessionTask?
        var tooFar = false
        let reader = state.withLock { state -> UnsafeContinuation<Data?, any Error>? in
            guard state.end == nil else {
                // Read after the end (FoundationNetworking reads on after a cancel): dropped.
                stale = state.task
                return nil
            }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            if state.waiting + data.count > maximumLag {
                tooFar = true
                return nil
            }
            state.chunks.append(data)
            state.waiting += data.count
            return nil
        }
        reader?.resume(returning: data)
        if tooFar {
            end(.failure(TransportFailure(.responseTooLarge, detail: "the reader fell more than \(maximumLag >= 1 << 20 ? "\(maximumLag >> 20) MiB" : "\(maximumLag) bytes") behind the stream, and URLSession cannot hold a server back; CurlTransport can")))
        }
        if let stale, stale.state == .running { stale.cancel() }
    }

    func challenged(_ response: URLResponse?) {
        state.withLock { $0.challengeResponse = response }
    }

    func complete(_ error: (any Error)?) {
        // A declined authentication challenge: its response is the answer, with no body.
        let challenge = error == nil ? nil : state.withLock { $0.challengeResponse }
        if let challenge { _ = receive(challenge) }
        end(challenge != nil || error == nil ? .success(()) : .failure(error ?? CancellationError()))
    }

    /// Ends the body now (the reader has gone, or was cancelled): the task is cancelled.
    func cancel() {
        end(.failure(CancellationError()))
    }

    private func end(_ result: Result<Void, any Error>) {
        let (head, reader, task) = state.withLock { state -> (UnsafeContinuation<URLResponse, any Error>?, UnsafeContinuation<Data?, any Error>?, URLSessionTask?) in
            guard state.end == nil else { return (nil, nil, nil) }
            state.end = result
            defer {
                state.head = nil
                state.reader = nil
            }
            // Chunks not yet read stay for the reader after a clean end; after a failure they go.
            if case .failure = result {
                state.chunks = []
                state.chunkStart = 0
                state.waiting = 0
            }
            return (state.head, state.reader, state.task)
        }
        switch result {
        case .success:
            head?.resume(throwing: TransportFailure(.connectionClosed, detail: "no response head arrived"))
            reader?.resume(returning: nil)
        case .failure(let error):
            head?.resume(throwing: error)
            reader?.resume(throwing: error)
            // Cancelled on another thread, so no lock of URLSession's is waited on from here.
            if let task { Self.later { task.cancel() } }
        }
    }

    private static func later(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: work)
    }
}
