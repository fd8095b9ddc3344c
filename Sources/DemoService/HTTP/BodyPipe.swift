import Dispatch
import Synchronization

/// Carries a streamed body from the route that makes it (a task) to the connection's thread that
/// sends it, holding at most ``limit`` bytes: the route waits while the client has not read.
///
/// The route's side is async and never blocks a thread; the connection's side is its thread,
/// which takes chunks (``poll()``) between running the route's jobs and sends them, blocking only
/// itself while a slow client reads.
final class BodyPipe: Sendable {
    /// What ``poll()`` gives.
    enum Next {
        case chunk([UInt8])
        /// The route finished; `failed` when it threw (the connection ends where it is).
        case end(failed: Bool)
    }

    private struct State {
        var chunks: [[UInt8]] = []
        var held = 0
        var end: Bool?
        var cancelled = false
        var waitingSender: CheckedContinuation<Void, any Error>?
    }

    /// The bytes held before the route waits.
    static let limit = 256 << 10
    private let state = Mutex(State())
    /// Signalled when a chunk arrives or the route ends: the connection's executor's, which the
    /// connection's thread waits on for both.
    private let arrived: DispatchSemaphore

    init(arrived: DispatchSemaphore) {
        self.arrived = arrived
    }

    /// Hands `bytes` to the connection; waits while the pipe is full.
    ///
    /// - Throws: `CancellationError` once the connection is gone.
    func send(_ bytes: [UInt8]) async throws {
        while true {
            let full: Bool = try state.withLock { state in
                if state.cancelled { throw CancellationError() }
                guard state.held < Self.limit else { return true }
                state.chunks.append(bytes)
                state.held += bytes.count
                return false
            }
            if !full {
                arrived.signal()
                return
            }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if state.cancelled { return .some(CancellationError()) }
                    if state.held < Self.limit { return .some(nil) }
                    state.waitingSender = continuation
                    return nil
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        }
    }

    /// The route is done (`failed` when it threw).
    func finish(failed: Bool) {
        state.withLock { state in
            if state.end == nil { state.end = failed }
        }
        arrived.signal()
    }

    /// The connection is gone: the route's next ``send(_:)`` throws.
    func cancel() {
        let waiting = state.withLock { state in
            state.cancelled = true
            defer { state.waitingSender = nil }
            return state.waitingSender
        }
        waiting?.resume(throwing: CancellationError())
    }

    /// The next chunk, or how the route ended; nil when neither has come yet.
    func poll() -> Next? {
        let (next, waiting): (Next?, CheckedContinuation<Void, any Error>?) = state.withLock { state in
            if !state.chunks.isEmpty {
                let chunk = state.chunks.removeFirst()
                state.held -= chunk.count
                let waiting = state.held < Self.limit ? state.waitingSender : nil
                if waiting != nil { state.waitingSender = nil }
                return (.chunk(chunk), waiting)
            }
            if let failed = state.end { return (.end(failed: failed), nil) }
            return (nil, nil)
        }
        waiting?.resume()
        return next
    }
}
