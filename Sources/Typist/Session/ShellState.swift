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
        /// Every token and key this session has held, to scrub from anything written.
        var knownSecrets: Set<String> = []
    }

    private let contents = Mutex(Contents())

    func read<T>(_ body: (Contents) -> T) -> T { contents.withLock { body($0) } }
    func update(_ body: (inout Contents) -> Void) { contents.withLock { body(&$0) } }

    var credentials: SessionCredentials { read(\.credentials) }

    /// Replaces every secret the session has held with `••••`.
    func scrub(_ text: String) -> String {
        let secrets = read { contents in
            contents.knownSecrets.union([contents.credentials.token, contents.credentials.apiKey].compactMap { $0 })
        }
        var result = text
        for secret in secrets where secret.count >= 4 && result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "••••")
        }
        return result
    }

    /// Remembers a secret so it is scrubbed from output even after it is replaced.
    func remember(secret: String?) {
        guard let secret, !secret.isEmpty else { return }
        update { $0.knownSecrets.insert(secret) }
    }

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
