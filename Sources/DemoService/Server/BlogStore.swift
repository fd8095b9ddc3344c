import Foundation
import Synchronization

/// The blog's posts, writable in memory, with each post's JSON kept ready to send.
final class BlogStore: Sendable {
    private struct State {
        var posts: [Int: Post]
        var encoded: [Int: [UInt8]]
        var list: [UInt8]?
        var nextID: Int
    }

    private let state: Mutex<State>

    init() {
        let posts = DemoData.shared.posts
        state = Mutex(State(posts: Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) }), encoded: [:],
                            list: nil, nextID: (posts.map(\.id).max() ?? 0) + 1))
    }

    func encodedPost(_ id: Int) -> [UInt8]? {
        state.withLock { state in
            if let cached = state.encoded[id] { return cached }
            guard let post = state.posts[id] else { return nil }
            let buffer = JSONBody.buffer(post)
            state.encoded[id] = buffer
            return buffer
        }
    }

    func encodedList() -> [UInt8] {
        state.withLock { state in
            if let list = state.list { return list }
            let buffer = JSONBody.buffer(state.posts.values.sorted { $0.id < $1.id })
            state.list = buffer
            return buffer
        }
    }

    func create(_ draft: PostDraft) -> Post {
        state.withLock { state in
            let post = Post(userId: draft.userId, id: state.nextID, title: draft.title, body: draft.body)
            state.nextID += 1
            state.posts[post.id] = post
            state.list = nil
            return post
        }
    }

    /// Replaces or patches a post; `nil` when there is none with that id.
    func update(_ id: Int, _ change: (inout Post) -> Void) -> Post? {
        state.withLock { state in
            guard var post = state.posts[id] else { return nil }
            change(&post)
            state.posts[id] = post
            state.encoded[id] = nil
            state.list = nil
            return post
        }
    }

    func delete(_ id: Int) -> Bool {
        state.withLock { state in
            guard state.posts.removeValue(forKey: id) != nil else { return false }
            state.encoded[id] = nil
            state.list = nil
            return true
        }
    }
}

/// JSON bodies for responses.
enum JSONBody {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static let snakeCaseEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    static func data(_ value: some Encodable, snakeCase: Bool = false) -> Data {
        // Encoding the service's own models cannot fail; an empty object is a safe fallback.
        (try? (snakeCase ? snakeCaseEncoder : encoder).encode(value)) ?? Data("{}".utf8)
    }

    static func buffer(_ value: some Encodable, snakeCase: Bool = false) -> [UInt8] {
        Array(data(value, snakeCase: snakeCase))
    }
}
