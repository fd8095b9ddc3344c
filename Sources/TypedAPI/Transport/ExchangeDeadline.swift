import Foundation
import Synchronization

/// A time limit on a whole exchange — connection, head and body — for transports whose own
/// limits stop at the head, or whose cancellation may be slow to take effect.
///
/// ``run(limit:_:)`` answers as soon as the limit passes or the caller is cancelled: it cancels
/// the operation and does not wait for it to notice, so a transfer stuck inside a library never
/// holds the caller (or a prompt) hostage.
public enum ExchangeDeadline {
    /// Runs `operation`, throwing ``TransportFailure/Kind/timedOut`` once `limit` has passed and
    /// `CancellationError` when the calling task is cancelled; either way the operation is cancelled.
    public static func run<Value: Sendable>(
        limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
                race.start(continuation)
                let work = Task {
                    do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                }
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    if !Task.isCancelled {
                        race.finish(.failure(TransportFailure(.timedOut, detail: "no complete response within the time limit")))
                    }
                }
                race.attach(work: work, timer: timer)
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// Whoever finishes first resumes the caller; the others find it done and cancel what is left.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: UnsafeContinuation<Value, any Error>?
            var early: Result<Value, any Error>?
            var work: Task<Void, Never>?
            var timer: Task<Void, Never>?
            var done = false
        }

        private let state = Mutex(State())

        func start(_ continuation: UnsafeContinuation<Value, any Error>) {
            let early = state.withLock { state -> Result<Value, any Error>? in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        func attach(work: Task<Void, Never>, timer: Task<Void, Never>) {
            let finished = state.withLock { state -> Bool in
                if state.done { return true }
                state.work = work
                state.timer = timer
                return false
            }
            if finished {
                work.cancel()
                timer.cancel()
            }
        }

        func finish(_ result: Result<Value, any Error>) {
            let (continuation, work, timer) = state.withLock { state -> (UnsafeContinuation<Value, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
                guard !state.done else { return (nil, nil, nil) }
                state.done = true
                if state.continuation == nil { state.early = result }
                defer { state.continuation = nil; state.work = nil; state.timer = nil }
                return (state.continuation, state.work, state.timer)
            }
            work?.cancel()
            timer?.cancel()
            continuation?.resume(with: result)
        }
    }
}
