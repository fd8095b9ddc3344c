#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPICombine
import TypedAPICurl

/// Write-up 1's publishers: a call's decoded value and a stream's items, over the real demo
/// service and a fault server.
@Suite("Publishers", .timeLimit(.minutes(5)))
struct PublisherTests {
    /// What a subscriber was given: values, then how it ended.
    final class Received<Value: Sendable>: @unchecked Sendable {
        let lock = NSLock()
        var values: [Value] = []
        var completion: Subscribers.Completion<any Error>?
        var subscription: (any Subscription)?
        var ended: CheckedContinuation<Void, Never>?
    }

    /// What a subscriber that asks for items a few at a time has been given, and a wait for more.
    final class DemandState: @unchecked Sendable {
        let lock = NSLock()
        var asked = 2
        var given: [Int] = []
        var over: [String] = []
        var subscription: (any Subscription)?
        var waiter: CheckedContinuation<Void, Never>?
        var waitFor = 0

        /// Returns once `count` items have been given.
        func wait(for count: Int) async {
            await withCheckedContinuation { continuation in
                let ready = lock.withLock {
                    if given.count >= count { return true }
                    waiter = continuation
                    waitFor = count
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Subscribes to `publisher` asking for `initial` values, and for `more` after each; returns
    /// once it completes (or, with `stopAfter`, cancels after that many and returns).
    private static func collect<Value: Sendable>(_ publisher: AnyPublisher<Value, any Error>, initial: Subscribers.Demand = .unlimited,
                                                 more: Subscribers.Demand = .none, stopAfter: Int? = nil,
                                                 check: @escaping @Sendable (Int, Subscribers.Demand) -> Void = { _, _ in }) async -> Received<Value> {
        let received = Received<Value>()
        let demanded = Mutex(initial)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            received.ended = continuation
            publisher.subscribe(AnySubscriber<Value, any Error>(
                receiveSubscription: { subscription in
                    received.lock.withLock { received.subscription = subscription }
                    subscription.request(initial)
                },
                receiveValue: { value in
                    let (count, stop) = received.lock.withLock {
                        received.values.append(value)
                        return (received.values.count, received.values.count == stopAfter)
                    }
                    check(count, demanded.withLock { $0 })
                    if stop {
                        let (subscription, ended) = received.lock.withLock { (received.subscription, received.ended) }
                        subscription?.cancel()
                        ended?.resume()
                        return .none
                    }
                    demanded.withLock { $0 += more }
                    return more
                },
                receiveCompletion: { completion in
                    let ended = received.lock.withLock {
                        received.completion = completion
                        return received.ended
                    }
                    ended?.resume()
                }))
        }
        return received
    }

    @Test("Write-up 1's code as written: publisher(for:), map, replaceError, sink — the endpoint's own response type")
    func writeUpCode() async throws {
        try await withDemoServer(.curl) { client, _ in
            let direct = try await client.send(.searchRepositories(query: "Swift")).items
            var cancellable: AnyCancellable?
            let items: [Repository] = await withCheckedContinuation { continuation in
                cancellable = client.publisher(for: .searchRepositories(query: "Swift"))
                    .map(\.items)
                    .replaceError(with: [])
                    .sink { continuation.resume(returning: $0) }
            }
            withExtendedLifetime(cancellable) {}
            #expect(!direct.isEmpty)
            #expect(items == direct)
        }
    }

    @Test("A failed call fails the publisher with the client's APIError")
    func failure() async throws {
        try await withDemoServer(.curl) { client, _ in
            let received = await Self.collect(client.publisher(for: .post(id: 987_654)))
            #expect(received.values.isEmpty)
            guard case .failure(let error)? = received.completion, case .unacceptableStatus(_, let response)? = error as? APIError else {
                Issue.record("not a status failure: \(String(describing: received.completion))")
                return
            }
            #expect(response.status == 404)
        }
    }

    @Test("A stream's items, decoded, then the end; never more items than were asked for",
          arguments: StreamingTransport.allCases)
    func streamItems(_ transport: StreamingTransport) async throws {
        let server = try await DemoServer.start()
        do {
            try await Self.streamItems(transport, server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private static func streamItems(_ transport: StreamingTransport, _ server: DemoServer) async throws {
        try await transport.withClient(server.baseURL) { client in
            let events = Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "6")]), path: "/events")
            let all = await collect(client.publisher(streaming: events))
            #expect(all.values == (1...6).map(BuildEvent.number))
            guard case .finished? = all.completion else {
                Issue.record("not finished: \(String(describing: all.completion))")
                return
            }
            // One at a time: each value comes only after the one before asked for it.
            let paced = await collect(client.publisher(streaming: events), initial: .max(1), more: .max(1)) { count, demanded in
                #expect(demanded.max.map { count <= $0 } ?? true, "item \(count) with \(demanded) asked for")
            }
            #expect(paced.values.map(\.n) == Array(1...6))
        }
    }

    @Test("The subscriber's demand holds the stream back: five events ready, two asked for, two given until one more is asked for",
          arguments: StreamingTransport.allCases)
    func demand(_ transport: StreamingTransport) async throws {
        // Five events written at once, then the server waits for the client to close.
        let server = try FaultServer(FaultStreams.stall(after: 5))
        defer { server.stop() }
        try await transport.withClient(server.baseURL) { client in
            let state = DemandState()
            let publisher = client.publisher(streaming: Endpoint<Public, BuildEvent>(path: "/events"))
            publisher.subscribe(AnySubscriber<BuildEvent, any Error>(
                receiveSubscription: { subscription in
                    state.lock.withLock { state.subscription = subscription }
                    subscription.request(.max(2))
                },
                receiveValue: { event in
                    let waiter = state.lock.withLock { () -> CheckedContinuation<Void, Never>? in
                        state.given.append(event.n)
                        if state.given.count > state.asked { state.over.append("event \(event.n) with \(state.asked) asked for") }
                        guard state.given.count >= state.waitFor, let waiter = state.waiter else { return nil }
                        state.waiter = nil
                        return waiter
                    }
                    waiter?.resume()
                    return .none
                },
                receiveCompletion: { _ in }))
            await state.wait(for: 2)
            let subscription = state.lock.withLock {
                state.asked = 3
                return state.subscription
            }
            subscription?.request(.max(1))
            await state.wait(for: 3)
            subscription?.cancel()
            #expect(state.lock.withLock { state.over } == [])
            #expect(state.lock.withLock { state.given } == [1, 2, 3])
        }
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("Cancelling a stream's subscription closes its connection", arguments: StreamingTransport.allCases)
    func cancellation(_ transport: StreamingTransport) async throws {
        let server = try FaultServer(FaultStreams.stall(after: 5))
        defer { server.stop() }
        try await transport.withClient(server.baseURL) { client in
            let received = await Self.collect(client.publisher(streaming: Endpoint<Public, BuildEvent>(path: "/events")), stopAfter: 3)
            #expect(received.values.map(\.n) == [1, 2, 3])
            #expect(received.completion == nil)
        }
        // The handler waits for the client to close: it ends only because the cancel closed it.
        while server.finishedHandlers == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }
}
