import Foundation
import HTTPTypes
import Synchronization
import TypedAPI

/// A streaming response between libcurl's callbacks, on the engine's thread, and its reader.
///
/// The head is handed over as soon as its last line has arrived. The body's chunks wait in a
/// buffer of at most ``highWater`` bytes; when it is full, the write callback pauses the transfer
/// (`CURL_WRITEFUNC_PAUSE`: libcurl keeps the chunk and stops reading the socket, so the server
/// is held back too), and the reader has the engine resume it once it has taken the buffer below
/// half. A reader that waits is resumed by the next chunk, by the end, or by its task's cancellation.
final class CurlStream: Sendable {
    /// The most bytes held for a reader that has not taken them.
    static let highWater = 1 << 20
    /// The most bytes handed to the reader at a time (more when one chunk is larger).
    static let takeLimit = 256 << 10

    private struct State {
        var head: Result<HTTPResponse, any Error>?
        var headWaiter: CheckedContinuation<HTTPResponse, any Error>?
        var chunks: [Data] = []
        var buffered = 0
        var paused = false
        /// Set when the transfer has ended: nil error for a clean end.
        var end: (any Error)??
        var chunkWaiter: CheckedContinuation<Data?, any Error>?
    }

    private let state = Mutex(State())

    /// The bytes the buffer holds in memory: what is buffered and not yet taken, nothing more.
    var heldBytes: Int { state.withLock { $0.chunks.reduce(0) { $0 + $1.count } } }

    // MARK: The engine's side

    /// The head has arrived.
    func deliverHead(_ head: HTTPResponse) {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            guard state.head == nil else { return nil }
            state.head = .success(head)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: head)
    }

    /// Takes a chunk; false when the buffer is full (the transfer pauses and the chunk comes again).
    func push(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Data?, any Error>?) in
            if let waiter = state.chunkWaiter {
                state.chunkWaiter = nil
                return (true, waiter)
            }
            guard state.buffered < Self.highWater else {
                state.paused = true
                return (false, nil)
            }
            state.chunks.append(Data(bytes))
            state.buffered += bytes.count
            return (true, nil)
        }
        waiter?.resume(returning: Data(bytes))
        return accepted
    }

    /// The transfer has ended, cleanly (nil) or with `error`; `head` is what libcurl had, for a
    /// response that ended before its head was handed over.
    func finish(_ error: (any Error)?, head: HTTPResponse?) {
        let (headWaiter, headResult, chunkWaiter) = state.withLock { state in
            if state.head == nil {
                state.head = head.map { .success($0) } ?? .failure(error ?? TransportFailure(.other, detail: "the response has no head"))
            }
            if state.end == nil { state.end = .some(error) }
            defer { state.headWaiter = nil; state.chunkWaiter = nil }
            return (state.headWaiter, state.head, state.chunkWaiter)
        }
        if let headWaiter, let headResult { headWaiter.resume(with: headResult) }
        if let error {
            chunkWaiter?.resume(throwing: error)
        } else {
            chunkWaiter?.resume(returning: nil)
        }
    }

    // MARK: The reader's side

    /// The head, once it has arrived.
    func head() async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<HTTPResponse, any Error>? in
                    if let head = state.head { return head }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
                defer { state.headWaiter = nil }
                return state.headWaiter
            }?.resume(throwing: CancellationError())
        }
    }

    /// The next chunk (what is buffered, up to ``takeLimit``), nil at the end; `resume` is called
    /// when the transfer was paused and the buffer is now below half (it must ask the engine to go on).
    func next(resume: () -> Void) async throws -> Data? {
        switch state.withLock({ Self.take(&$0) }) {
        case .chunk(let chunk, let shouldResume):
            if shouldResume { resume() }
            return chunk
        case .end(let error):
            if let error { throw error }
            return nil
        case .wait:
            break
        }
        // Nothing was buffered: the next chunk comes straight to the waiter.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                var shouldResume = false
                let ready = state.withLock { state -> Result<Data?, any Error>? in
                    switch Self.take(&state) {
                    case .chunk(let chunk, let resume):
                        shouldResume = resume
                        return .success(chunk)
                    case .end(let error): return error.map { .failure($0) } ?? .success(nil)
                    case .wait:
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.chunkWaiter = continuation
                        return nil
                    }
                }
                if shouldResume { resume() }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Data?, any Error>? in
                defer { state.chunkWaiter = nil }
                return state.chunkWaiter
            }?.resume(throwing: CancellationError())
        }
    }

    private enum Ready {
        case chunk(Data, resume: Bool)
        case end((any Error)?)
        case wait
    }

    /// What is buffered, up to ``takeLimit`` bytes, as one chunk, else the end, else nothing yet.
    ///
    /// Several chunks at once: a reader that has fallen behind (the usual case for a fast stream)
    /// takes one chunk per turn instead of one per 16 KB that libcurl wrote, and each turn has a
    /// fixed cost (a task, a hop or two). Not more than the limit: the reader's work on a chunk
    /// should stay within the processor's cache. The bytes taken go from the buffer at once: a
    /// reader that stays just behind a fast server must not keep every chunk it took in memory.
    private static func take(_ state: inout State) -> Ready {
        if !state.chunks.isEmpty {
            var taken = 1
            var size = state.chunks[0].count
            while taken < state.chunks.count, size + state.chunks[taken].count <= takeLimit {
                size += state.chunks[taken].count
                taken += 1
            }
            var chunk = state.chunks[0]
            if taken > 1 {
                chunk = Data(capacity: size)
                for part in state.chunks[..<taken] { chunk.append(part) }
            }
            state.chunks.removeFirst(taken)
            state.buffered -= size
            let resume = state.paused && state.buffered < highWater / 2
            if resume { state.paused = false }
            return .chunk(chunk, resume: resume)
        }
        if let end = state.end { return .end(end) }
        return .wait
    }
}
