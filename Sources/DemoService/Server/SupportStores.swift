import Foundation
import Synchronization

/// Issued tokens for the accounts family.
final class SessionStore: Sendable {
    private let tokens = Mutex<Set<String>>([])

    /// A new token for the demo account, or `nil` for wrong credentials.
    func login(_ credentials: Credentials) -> String? {
        guard credentials.user == "ada", credentials.password == "lovelace" else { return nil }
        let token = "demo-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        tokens.withLock { _ = $0.insert(token) }
        return token
    }

    func isValid(_ token: String) -> Bool {
        tokens.withLock { $0.contains(token) }
    }
}

/// The last `/big` body, so that repeated benchmark runs measure the client, not the generator.
final class BigPostsCache: Sendable {
    static let limit = 300_000
    private let last = Mutex<(count: Int, body: [UInt8])?>(nil)

    func body(count: Int) -> [UInt8] {
        if let cached = last.withLock({ $0 }), cached.count == count { return cached.body }
        let body = JSONBody.buffer((0..<count).map { DemoData.post($0 + 1) })
        last.withLock { $0 = (count, body) }
        return body
    }
}

/// A GitHub-style search query: words that must all match, and `language:NAME` filters.
struct RepositoryQuery {
    private var words: [String] = []
    private var languages: [String] = []

    init(_ query: String) {
        for term in query.lowercased().split(whereSeparator: { $0 == " " || $0 == "+" }) {
            if term.hasPrefix("language:") {
                languages.append(String(term.dropFirst("language:".count)))
            } else {
                words.append(String(term))
            }
        }
    }

    func filter(_ repositories: [Repository]) -> [Repository] {
        repositories.filter { repository in
            let language = repository.language?.lowercased() ?? ""
            guard languages.allSatisfy({ $0 == language }) else { return false }
            let text = [repository.fullName, repository.description ?? "", language].joined(separator: " ").lowercased()
            return words.allSatisfy { text.contains($0) }
        }
    }
}
