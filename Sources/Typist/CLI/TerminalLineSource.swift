import APIScript
import Foundation
import LineEditor

/// The prompt on a terminal: the readline editor, with completion from the shell's static types,
/// persistent history without secrets, Ctrl-C that cancels the running call, and an elapsed-time
/// indicator for slow calls.
public final class TerminalLineSource: LineSource, Sendable {
    private let editor: LineEditor
    private let progress: ProgressLine

    /// The history file: `$XDG_STATE_HOME/typist/history`, else `~/.local/state/typist/history`.
    public static func historyPath(name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return (state as NSString).appendingPathComponent("\(name)/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".local/state/\(name)/history")
    }

    /// Creates the source for a shell.
    init(shell: Shell, name: String, progress: ProgressLine) {
        self.progress = progress
        let completer: @Sendable (String) -> LineEditor.Completion = { [shell] before in
            Self.complete(before, shell: shell)
        }
        editor = LineEditor(name: name, historyPath: Self.historyPath(name: name), completer: completer)
    }

    public var isInteractive: Bool { true }

    public func readLine(prompt: String) async -> LineEvent {
        switch await editor.read(prompt: prompt) {
        case .line(let line): return .line(line)
        case .interrupted: return .interrupt
        case .endOfInput:
            editor.saveHistory()
            return .end
        }
    }

    public func remember(_ input: String) {
        editor.addHistory(input)
        editor.saveHistory()
    }

    public func forget(where shouldForget: @escaping @Sendable (String) -> Bool) {
        editor.removeHistory(where: shouldForget)
        editor.saveHistory()
    }

    public func historyEntries() -> [String] { editor.historyEntries() }

    /// Clears the screen and its scroll-back, as `clear` does.
    public func clearScreen() {
        StandardStream.output.write("\u{1B}[H\u{1B}[2J\u{1B}[3J")
    }

    public func readSecret(prompt: String) async -> String? {
        await editor.readSecret(prompt: prompt)
    }

    public func runInterruptible(_ operation: @escaping @Sendable () async -> Void) async {
        let progress = progress
        let ticker = Task {
            let started = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(300))
            while !Task.isCancelled {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                progress.show(String(format: "… %.1fs (Ctrl-C cancels)", seconds))
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        await editor.run(operation)
        ticker.cancel()
        _ = await ticker.result
        progress.clear()
    }

    /// What Tab offers for the text before the cursor: the core's completions, as readline takes them.
    static func complete(_ before: String, shell: Shell) -> LineEditor.Completion {
        let completion = shell.completions(before: before)
        return LineEditor.Completion(candidates: completion.candidates, appendsSpace: completion.appendsSpace)
    }
}
