import Foundation
import HTTPTypes
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets, for the demo service alone: a thread waits for
/// connections, each connection is served on a thread of its own (its requests answered by the
/// router in tasks), and stopping wakes them all. It needs no event-loop library, so `typist`
/// builds without SwiftNIO.
///
/// What it does not do, the demo's clients do not need: TLS, HTTP/2, pipelined requests answered
/// out of order, bodies over 32 MiB.
final class DemoHTTPServer: Sendable {
    let port: Int
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let router: DemoRouter
    private let onRequest: @Sendable (DemoRequest, HTTPResponse.Status) -> Void

    private struct State {
        var connections: [ObjectIdentifier: DemoHTTPConnection] = [:]
        var stopping = false
        var accepting = true
        /// Waiting for every connection to end and the listener to close.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Listens on `host` and `port` (0 for a free one) and starts taking connections.
    init(host: String, port: Int, router: DemoRouter,
         onRequest: @escaping @Sendable (DemoRequest, HTTPResponse.Status) -> Void) throws {
        let (listener, actualPort) = try Socket.listen(host: host, port: port)
        do {
            wake = try Socket.wakePipe()
        } catch {
            Socket.close(listener)
            throw error
        }
        self.listener = listener
        self.port = actualPort
        self.router = router
        self.onRequest = onRequest
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "DemoService accept"
        thread.start()
    }

    private func acceptConnections() {
        while let descriptor = Socket.waitForConnection(on: listener, wake: wake.read) {
            let connection = DemoHTTPConnection(descriptor: descriptor, router: router,
                                                isStopping: { [self] in state.withLock { $0.stopping } }, onRequest: onRequest)
            let taken = state.withLock { state in
                guard !state.stopping else { return false }
                state.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard taken else {
                Socket.close(descriptor)
                break
            }
            let thread = Thread { [self] in
                connection.run()
                ended(connection)
            }
            thread.name = "DemoService connection"
            thread.start()
        }
        Socket.close(listener)
        let waiters = state.withLock { state in
            state.accepting = false
            return takeWaitersIfDone(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func ended(_ connection: DemoHTTPConnection) {
        let waiters = state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = nil
            return takeWaitersIfDone(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func takeWaitersIfDone(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard state.stopping, !state.accepting, state.connections.isEmpty else { return [] }
        defer { state.waiters = [] }
        return state.waiters
    }

    /// Stops taking connections and ends idle ones; requests under way get `grace` to finish,
    /// then are cancelled. Returns when every connection is closed.
    func stop(grace: Duration) async {
        let (connections, first) = state.withLock { state in
            defer { state.stopping = true }
            return (Array(state.connections.values), !state.stopping)
        }
        guard first else {
            await waitUntilStopped()
            return
        }
        Socket.wakeUp(wake.write)
        let busy = connections.filter { !$0.endIfIdle() }
        // Requests under way get `grace`, then are cut short.
        let forced = busy.isEmpty ? nil : Task {
            try? await Task.sleep(for: grace)
            for connection in busy { connection.end() }
        }
        await waitUntilStopped()
        forced?.cancel()
        // The accept thread has ended (``waitUntilStopped()`` waits for it): nothing polls these.
        Socket.close(wake.read)
        Socket.close(wake.write)
    }

    /// Waits until the server has stopped: ``stop(grace:)`` called and every connection closed.
    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.stopping, !state.accepting, state.connections.isEmpty { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
