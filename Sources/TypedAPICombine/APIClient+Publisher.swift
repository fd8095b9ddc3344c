#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
import Foundation
import Synchronization
import TypedAPI

#if canImport(Combine) || canImport(OpenCombine)

extension APIClient {
    /// A publisher of the endpoint's decoded response: write-up 1's `publisher(for:)`, for
    /// `Endpoint<Kind, Response>`. The request is sent when the subscriber first asks for a value;
    /// cancelling the subscription cancels the call. It fails with the call's `APIError`.
    ///
    /// ```swift
    /// let cancellable = client.publisher(for: .searchRepositories(query: "Swift"))
    ///     .map(\.items)
    ///     .replaceError(with: [])
    ///     .sink { print($0) }
    /// ```
    public func publisher<Kind, Response: Sendable>(for endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData)
        -> AnyPublisher<Response, any Error> where Kind.RequestData: Sendable
    {
        ItemPublisher { [self] in
            let once = Once()
            return AsyncThrowingStream(unfolding: {
                guard once.take() else { return nil }
                return try await self.send(endpoint, with: data)
            })
        }.eraseToAnyPublisher()
    }

    /// ``publisher(for:with:)`` for an endpoint whose kind needs no request data.
    public func publisher<Kind, Response: Sendable>(for endpoint: Endpoint<Kind, Response>) -> AnyPublisher<Response, any Error>
        where Kind.RequestData == Void
    {
        publisher(for: endpoint, with: ())
    }

    /// A publisher of a streaming endpoint's items (server-sent events or JSON Lines), each decoded
    /// into the endpoint's item type, as `APIClient.stream(_:with:)` reads them. The subscriber's
    /// demand is the back-pressure: the next item is read only when one is asked for, so a
    /// subscriber that asks for one at a time holds the server back. Cancelling the subscription
    /// closes the connection.
    public func publisher<Kind, Item: Decodable & Sendable>(streaming endpoint: Endpoint<Kind, Item>, with data: Kind.RequestData)
        -> AnyPublisher<Item, any Error> where Kind.RequestData: Sendable
    {
        ItemPublisher { [self] in stream(endpoint, with: data).asyncThrowingStream() }.eraseToAnyPublisher()
    }

    /// ``publisher(streaming:with:)`` for an endpoint whose kind needs no request data.
    public func publisher<Kind, Item: Decodable & Sendable>(streaming endpoint: Endpoint<Kind, Item>) -> AnyPublisher<Item, any Error>
        where Kind.RequestData == Void
    {
        publisher(streaming: endpoint, with: ())
    }
}

/// True once, then false: the single value of a call's stream.
private final class Once: Sendable {
    private let done = Mutex(false)

    func take() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// A publisher of the items of an async sequence made for each subscription.
struct ItemPublisher<Output: Sendable>: Publisher {
    typealias Failure = any Error

    let items: @Sendable () -> AsyncThrowingStream<Output, any Error>

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
        subscriber.receive(subscription: ItemSubscription(subscriber: AnySubscriber(subscriber), items: items))
    }
}

/// One subscription: a task reads an item whenever there is demand and hands it to the subscriber,
/// one call at a time, then the completion. Cancelling ends the task, and with it the sequence.
///
/// Invariant (why `@unchecked Sendable`): the subscriber (which Combine does not make `Sendable`)
/// is called by one task at a time, and the state is read and written only under `lock`. Tested
/// by `PublisherTests` (demand holds the stream back; cancelling closes the connection).
private final class ItemSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var subscriber: AnySubscriber<Output, any Error>?
    private var demand = Subscribers.Demand.none
    private var waiting: CheckedContinuation<Bool, Never>?
    private var task: Task<Void, Never>?
    private var started = false
    private let items: @Sendable () -> AsyncThrowingStream<Output, any Error>

    init(subscriber: AnySubscriber<Output, any Error>, items: @escaping @Sendable () -> AsyncThrowingStream<Output, any Error>) {
        self.subscriber = subscriber
        self.items = items
    }

    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        let (resume, start): (CheckedContinuation<Bool, Never>?, Bool) = lock.withLock {
            guard subscriber != nil else { return (nil, false) }
            demand += more
            var resume: CheckedContinuation<Bool, Never>?
            if let waiter = waiting {
                // The reader waiting for demand takes one now.
                demand -= 1
                waiting = nil
                resume = waiter
            }
            defer { started = true }
            return (resume, !started)
        }
        resume?.resume(returning: true)
        if start {
            let task = Task { await self.run() }
            let cancelled = lock.withLock {
                self.task = task
                return subscriber == nil
            }
            if cancelled { task.cancel() }
        }
    }

    func cancel() {
        let (task, waiter) = lock.withLock {
            subscriber = nil
            defer { waiting = nil }
            return (self.task, waiting)
        }
        waiter?.resume(returning: false)
        task?.cancel()
    }

    private func run() async {
        var iterator = items().makeAsyncIterator()
        do {
            while await takeDemand() {
                guard let item = try await iterator.next() else {
                    finish(.finished)
                    return
                }
                guard let subscriber = lock.withLock({ self.subscriber }) else { return }
                let more = subscriber.receive(item)
                if more > .none { request(more) }
            }
        } catch {
            // A cancelled subscription hears nothing more, not even its cancellation.
            finish(.failure(error))
        }
    }

    /// Waits for demand and takes one: `true`; `false` once the subscription is cancelled.
    private func takeDemand() async -> Bool {
        await withCheckedContinuation { continuation in
            lock.withLock {
                if subscriber == nil {
                    continuation.resume(returning: false)
                } else if demand > .none {
                    demand -= 1
                    continuation.resume(returning: true)
                } else {
                    waiting = continuation
                }
            }
        }
    }

    private func finish(_ completion: Subscribers.Completion<any Error>) {
        let subscriber = lock.withLock {
            defer { self.subscriber = nil }
            return self.subscriber
        }
        subscriber?.receive(completion: completion)
    }
}

#endif
