import Synchronization
import TypistCore

/// Lines given in advance, as a person would type them: each `nil` stands for Ctrl-C. Records the
/// prompts shown and the history kept.
public final class ScriptedLineSource: LineSource, Sendable {
    private struct State {
        var lines: [String?]
        var prompts: [String] = []
        var history: [String] = []
    }

    private let state: Mutex<State>

    /// Creates a source.
    public init(_ lines: [String?]) { state = Mutex(State(lines: lines)) }

    /// The prompts shown, in order.
    public var prompts: [String] { state.withLock { $0.prompts } }
    /// The inputs remembered for history.
    public var history: [String] { state.withLock { $0.history } }

    public var isInteractive: Bool { false }

    public func readLine(prompt: String) async -> LineEvent {
        state.withLock { state in
            state.prompts.append(prompt)
            guard !state.lines.isEmpty else { return .end }
            return state.lines.removeFirst().map(LineEvent.line) ?? .interrupt
        }
    }

    public func remember(_ input: String) { state.withLock { $0.history.append(input) } }

    /// The inputs remembered, oldest first, as `:history` reads them.
    public func historyEntries() -> [String] { history }

    public func forget(where shouldForget: @escaping @Sendable (String) -> Bool) {
        state.withLock { $0.history.removeAll(where: shouldForget) }
    }
}
