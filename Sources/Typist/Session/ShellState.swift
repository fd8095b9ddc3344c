import APIScript
import Foundation
import Synchronization
import TypedAPI

/// The session's mutable state, shared by the shell, its host functions and the client delegate.
final class ShellState: Sendable {
    struct Contents {
        var credentials = SessionCredentials()
        var last: Value = .null
        var lastExchange: Exchange?
        var dryRun: [PreparedRequest]?
        var environmentName: String?
        var userHeaders: [String: String] = [:]
    }

    private let contents = Mutex(Contents())

    func read<T>(_ body: (Contents) -> T) -> T { contents.withLock { body($0) } }
    func update(_ body: (inout Contents) -> Void) { contents.withLock { body(&$0) } }

    var credentials: SessionCredentials { read(\.credentials) }

    /// Takes back every change made by `body` when it fails (a failed call leaves the session as it was).
    func transaction<T>(_ body: () async throws -> T) async throws -> T {
        let saved = read { $0 }
        do {
            return try await body()
        } catch {
            update { $0 = saved }
            throw error
        }
    }
}

/// Records every exchange for `:last` and `response`.
struct ExchangeRecorder: APIClientDelegate {
    let state: ShellState

    func client(_ client: APIClient, didReceive exchange: Exchange) {
        state.update { $0.lastExchange = exchange }
    }
}
