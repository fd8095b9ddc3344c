// An app's in-app API console, as a debug screen of an iOS or macOS app would hold it: the app's
// own endpoints, a session over them, and the lines to show — no terminal, no readline, no command
// line. It links TypistCore alone (Scripts/core-closure checks); a SwiftUI view binds to `lines`
// and sends what the user typed to `submit(_:)`.
import Foundation
import Synchronization
import TypedAPI
import TypistCore

/// The app's model of a post, as its screens use it.
public struct Post: Decodable, Sendable {
    public let id: Int
    public let title: String
    public let userId: Int
}

/// The console behind a debug screen: one session, its transcript as lines.
public final class APIConsole: Sendable {
    /// One line of the transcript.
    public struct Line: Sendable, Equatable {
        /// What kind of line it is.
        public enum Kind: Sendable, Equatable { case input, output, error }
        /// Its kind.
        public var kind: Kind
        /// Its text, without the line break.
        public var text: String

        /// Creates a line.
        public init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// The lines so far, written by the session's output as it comes.
    private final class Transcript: Sendable {
        let lines = Mutex<[Line]>([])
    }

    private let shell: Shell
    private let transcript = Transcript()

    /// A console on the app's endpoints at `baseURL`, through Foundation's URLSession.
    public init(baseURL: String, token: String? = nil) throws {
        let transcript = transcript
        func keep(_ kind: Line.Kind) -> @Sendable (String) -> Void {
            { text in
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
                transcript.lines.withLock { $0 += lines.map { Line(kind: kind, text: String($0)) } }
            }
        }
        let registry = try EndpointRegistry {
            Register("posts", summary: "Every post") { Endpoint<Public, [Post]>(path: "/posts") }
            Register("post", summary: "One post", Parameter<Int>("id")) { id in Endpoint<Public, Post>(path: "/posts/\(id)") }
        }
        shell = try Shell(registry: registry, environment: try ServerEnvironment(url: baseURL), transport: URLSessionTransport(),
                          output: ShellOutput(standard: keep(.output), error: keep(.error)))
    }

    /// What the screen shows, oldest first.
    public var lines: [Line] { transcript.lines.withLock { $0 } }

    /// Runs what the user typed (code or a `:command`); its result or error joins the lines.
    ///
    /// - Returns: Whether it succeeded.
    @discardableResult
    public func submit(_ input: String) async -> Bool {
        transcript.lines.withLock { $0.append(Line(kind: .input, text: input)) }
        return await shell.handle(input)
    }

    /// What the screen's completion bar offers for the text before the cursor.
    public func suggestions(before text: String) -> [String] {
        shell.completions(before: text).candidates
    }
}
