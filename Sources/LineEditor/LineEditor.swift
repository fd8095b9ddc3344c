import CReadline
import Dispatch
import Foundation
import Synchronization

/// A terminal line editor on GNU readline: editing, history, Tab completion, Ctrl-C and Ctrl-D.
///
/// Readline runs on one serial queue, in its callback mode, woken by `poll()` on standard input
/// and on a pipe that signals write to; the caller's task is never blocked while a person types.
/// Ctrl-C at the prompt clears the line; during ``run(_:)`` it cancels the running task.
public final class LineEditor: Sendable {
    /// What a read gives back.
    public enum Event: Sendable, Equatable {
        /// A line (without its line break).
        case line(String)
        /// Ctrl-C at the prompt.
        case interrupted
        /// Ctrl-D on an empty line.
        case endOfInput
    }

    /// The characters that end the word Tab completes: candidates replace what follows the last
    /// of them before the cursor.
    public static let wordBreakCharacters = " \t\n\"\\'`@><=;|&{}()[].,:+-*/%!?"

    /// What Tab offers: the candidates for the word before the cursor, and whether to add a space.
    public struct Completion: Sendable {
        /// Candidates that replace the word being completed.
        public var candidates: [String]
        /// Whether a space follows a single completed candidate (not after a member name).
        public var appendsSpace: Bool

        /// Creates a completion.
        public init(candidates: [String], appendsSpace: Bool) {
            self.candidates = candidates
            self.appendsSpace = appendsSpace
        }
    }

    /// Whether standard input and output are both terminals (otherwise use plain line reading).
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    private let queue = DispatchQueue(label: "typist.readline")
    private let historyPath: String?
    private let historyLimit: Int32
    private let signals: SignalRouter

    /// Creates the editor and reads the history file.
    ///
    /// - Parameters:
    ///   - name: The program name readline uses for `~/.inputrc` conditionals.
    ///   - historyPath: Where history is kept (created with mode 0600), or `nil` for none.
    ///   - historyLimit: How many entries are kept.
    ///   - completer: Given the text before the cursor, what Tab offers.
    public init(name: String, historyPath: String?, historyLimit: Int = 1000,
                completer: @escaping @Sendable (String) -> Completion) {
        self.historyPath = historyPath
        self.historyLimit = Int32(clamping: historyLimit)
        self.signals = SignalRouter.shared
        ReadlineState.completer.withLock { $0 = completer }
        queue.sync {
            rl_readline_name = UnsafePointer(strdup(name))
            rl_catch_signals = 0
            rl_catch_sigwinch = 0
            rl_initialize()
            rl_attempted_completion_function = readlineCompletion
            // The completer orders its candidates (a model's fields as declared): keep that order.
            rl_sort_completion_matches = 0
            rl_completer_word_break_characters = UnsafePointer(strdup(LineEditor.wordBreakCharacters))
            using_history()
            stifle_history(Int32(clamping: historyLimit))
            if let historyPath { _ = read_history(historyPath) }
        }
    }

    /// Reads one line with the prompt.
    public func read(prompt: String) async -> Event {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: ReadlineState.readInteractive(prompt: prompt, wake: self.signals.wakeReadEnd))
            }
        }
    }

    /// Adds an entry to the history (a multi-line input becomes one line).
    public func addHistory(_ entry: String) {
        let line = entry.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        guard !line.isEmpty else { return }
        queue.async { add_history(line) }
    }

    /// The history, oldest first (what Up and Ctrl-R go through, this session's lines included).
    public func historyEntries() -> [String] {
        queue.sync {
            var entries: [String] = []
            var index: Int32 = 0
            while index < history_length {
                if let entry = history_get(history_base + index), let line = entry.pointee.line {
                    entries.append(String(cString: line))
                }
                index += 1
            }
            return entries
        }
    }

    /// Removes every history entry `shouldRemove` picks (a line that held a value later used as a
    /// secret); ``saveHistory()`` then writes the file without them.
    public func removeHistory(where shouldRemove: @escaping @Sendable (String) -> Bool) {
        queue.sync {
            var index = history_length - 1
            while index >= 0 {
                if let entry = history_get(history_base + index), let line = entry.pointee.line,
                    shouldRemove(String(cString: line)), let removed = remove_history(index)
                {
                    free_history_entry(removed)
                }
                index -= 1
            }
        }
    }

    /// Writes the history file, mode 0600, capped at the limit.
    public func saveHistory() {
        guard let historyPath else { return }
        queue.sync {
            let directory = (historyPath as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            let previous = umask(0o077)
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, historyLimit)
            umask(previous)
            chmod(historyPath, 0o600)
        }
    }

    /// Reads a line without echo (for secrets); `nil` at the end of input or when Ctrl-C ends it.
    public func readSecret(prompt: String) async -> String? {
        let wake = signals.wakeReadEnd
        return await withCheckedContinuation { continuation in
            queue.async {
                echo(prompt)
                var settings = termios()
                let hasTerminal = tcgetattr(STDIN_FILENO, &settings) == 0
                var silent = settings
                silent.c_lflag &= ~tcflag_t(ECHO)
                if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) }
                let line = ReadlineState.readHiddenLine(wake: wake)
                if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) }
                echo(line == nil ? "^C\n" : "\n")
                continuation.resume(returning: line)
            }
        }
    }

    /// Runs an operation that Ctrl-C cancels (a call that takes a while).
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await operation() }
        signals.running.current = { task.cancel() }
        defer { signals.running.current = nil }
        return await task.value
    }
}

/// Routes SIGINT and SIGWINCH: to the running operation, or to readline through a pipe.
final class SignalRouter: Sendable {
    static let shared = SignalRouter()

    let running = CancelSlot()
    let wakeReadEnd: Int32
    private let wakeWriteEnd: Int32
    /// Kept alive for the process; set once in `init`.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    private init() {
        var ends: [Int32] = [0, 0]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wakeReadEnd = ends[0]
        wakeWriteEnd = ends[1]
        if wakeReadEnd >= 0 { _ = fcntl(wakeReadEnd, F_SETFL, fcntl(wakeReadEnd, F_GETFL) | O_NONBLOCK) }
        let queue = DispatchQueue(label: "typist.signals")
        let router = Router(wakeWriteEnd: wakeWriteEnd, running: running)
        sources = [SIGINT, SIGWINCH].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { router.handle(number) }
            source.resume()
            return source
        }
    }

    /// What a signal does: cancel the running operation, or wake readline.
    private struct Router: Sendable {
        let wakeWriteEnd: Int32
        let running: CancelSlot

        func handle(_ number: Int32) {
            if number == SIGWINCH {
                poke(UInt8(ascii: "W"))
            } else if let cancel = running.current {
                cancel()
            } else {
                poke(UInt8(ascii: "C"))
            }
        }

        private func poke(_ byte: UInt8) {
            var value = byte
            _ = write(wakeWriteEnd, &value, 1)
        }
    }
}

/// The cancel action of the operation under way, if any.
final class CancelSlot: Sendable {
    private let slot = Mutex<(@Sendable () -> Void)?>(nil)

    var current: (@Sendable () -> Void)? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}

/// Readline's callback state. Touched only on the editor's queue.
enum ReadlineState {
    static let completer = Mutex<(@Sendable (String) -> LineEditor.Completion)?>(nil)
    nonisolated(unsafe) static var pending: LineEditor.Event?
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0

    static func drain(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// Reads a line from standard input byte by byte (the terminal's echo is off), until a newline,
    /// the end of input, or a Ctrl-C from the wake pipe (then `nil`).
    static func readHiddenLine(wake: Int32) -> String? {
        var bytes: [UInt8] = []
        while true {
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if descriptors[1].revents != 0, drain(wake).contains(UInt8(ascii: "C")) { return nil }
            guard descriptors[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Reads one line. A Ctrl-C that came between two reads — after the last line was handed over,
    /// before this prompt showed (typed right after Enter on an unfinished line, or while a command
    /// ran) — is still in the wake pipe and ends this read: it was once drained here and lost.
    static func readInteractive(prompt: String, wake: Int32) -> LineEditor.Event {
        rl_reset_screen_size()
        pending = nil
        rl_callback_handler_install(prompt, lineHandler)
        while pending == nil {
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                rl_callback_handler_remove()
                return .endOfInput
            }
            if descriptors[1].revents != 0 {
                let bytes = drain(wake)
                if bytes.contains(UInt8(ascii: "W")) { rl_resize_terminal() }
                if bytes.contains(UInt8(ascii: "C")) {
                    rl_end_of_line(1, 0)
                    rl_redisplay()
                    rl_echo_signal_char(SIGINT)
                    rl_free_line_state()
                    rl_callback_sigcleanup()
                    rl_cleanup_after_signal()
                    rl_callback_handler_remove()
                    echo("\n")
                    return .interrupted
                }
            }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0, descriptors[0].revents & Int16(POLLIN) == 0 {
                rl_callback_handler_remove()
                return .endOfInput
            }
            if descriptors[0].revents != 0 { rl_callback_read_char() }
        }
        return pending ?? .endOfInput
    }
}

private func lineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    rl_callback_handler_remove()
    if let line {
        ReadlineState.pending = .line(String(cString: line))
        free(line)
        return
    }
    // Ctrl-D: readline 8.1+ prints the line break itself when bracketed paste is on.
    if let value = rl_variable_value("enable-bracketed-paste"), String(cString: value) != "on" {
        echo("\n")
    }
    ReadlineState.pending = .endOfInput
}

private func readlineCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
{
    rl_attempted_completion_over = 1  // never fall back to file names
    guard let text else { return nil }
    let prefix = String(cString: text)
    let before = rl_line_buffer.map { buffer in
        String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(max(0, end))), as: UTF8.self)
    } ?? prefix
    guard let completer = ReadlineState.completer.withLock({ $0 }) else { return nil }
    let completion = completer(before)
    ReadlineState.matches = completion.candidates.filter { $0.hasPrefix(prefix) }
    ReadlineState.matchIndex = 0
    if !completion.appendsSpace { rl_completion_append_character = 0 }
    guard !ReadlineState.matches.isEmpty else { return nil }
    return rl_completion_matches(text) { _, state in
        if state == 0 { ReadlineState.matchIndex = 0 }
        guard ReadlineState.matchIndex < ReadlineState.matches.count else { return nil }
        defer { ReadlineState.matchIndex += 1 }
        return strdup(ReadlineState.matches[ReadlineState.matchIndex])
    }
}

/// Writes to the terminal. A terminal that has gone away is not an error here: the next read sees
/// the end of input, and the session ends as on Ctrl-D.
private func echo(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
}
