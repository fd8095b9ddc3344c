import Foundation
import Synchronization
import APIScript
import TypistText

/// What a line source gives the prompt.
public enum LineEvent: Sendable, Equatable {
    /// A line the user entered (without its line break).
    case line(String)
    /// Ctrl-C at the prompt: drop the unfinished input.
    case interrupt
    /// Ctrl-D, or the end of the input.
    case end
}

/// Where the prompt's lines come from: a terminal editor, plain standard input, or a script (tests).
public protocol LineSource: AnyObject {
    /// Reads one line, showing `prompt` where that makes sense.
    func readLine(prompt: String) async -> LineEvent
    /// Remembers an input for history (a multi-line input is one entry); secrets are filtered first.
    func remember(_ input: String)
    /// Drops remembered inputs that `shouldForget` picks: lines that held a value the session has
    /// since learned is a secret (`let t = "…"`, then `token = t`).
    func forget(where shouldForget: @escaping @Sendable (String) -> Bool)
    /// Reads a secret without echo, or returns `nil` when that is not possible.
    func readSecret(prompt: String) async -> String?
    /// Whether a person is typing (prompts and banners are shown only then).
    var isInteractive: Bool { get }
    /// Runs one input's evaluation so that Ctrl-C cancels it.
    func runInterruptible(_ operation: @escaping @Sendable () async -> Void) async
    /// The remembered inputs, oldest first, for `:history` (none by default).
    func historyEntries() -> [String]
    /// Clears the screen, for `:clear`; does nothing by default (no screen).
    func clearScreen()
}

extension LineSource {
    public func historyEntries() -> [String] { [] }
    public func clearScreen() {}
    public func remember(_ input: String) {}
    public func forget(where shouldForget: @escaping @Sendable (String) -> Bool) {}
    public func readSecret(prompt: String) async -> String? { nil }
    public func runInterruptible(_ operation: @escaping @Sendable () async -> Void) async { await operation() }
}

/// Reads standard input line by line, without prompts or escape codes (for pipes and files).
public final class PlainLineSource: LineSource, Sendable {
    private let queue = DispatchQueue(label: "typist.plain-input")

    /// Creates a source on standard input.
    public init() {}

    public var isInteractive: Bool { false }

    public func readLine(prompt: String) async -> LineEvent {
        await withCheckedContinuation { continuation in
            queue.async {
                let line = Swift.readLine(strippingNewline: true)
                continuation.resume(returning: line.map(LineEvent.line) ?? .end)
            }
        }
    }
}

/// Standard input read as it arrives, for piped scripts (`typist < file.api`); see
/// `Shell.runPiped(_:name:)`.
public final class PipedInput: Sendable {
    private let queue = DispatchQueue(label: "typist.piped-input")
    private let descriptor: Int32
    /// The start of a character a read ended inside of, kept for the next read (at most 3 bytes).
    private let carried = Mutex<[UInt8]>([])

    /// Reads a file descriptor (standard input by default).
    public init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// The next piece of input, and whether more is already waiting; `nil` at the end.
    ///
    /// A piece never ends inside a UTF-8 character: a read that does keeps the character's first
    /// bytes for the next piece.
    public func next() async -> (text: String, moreWaiting: Bool)? {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            queue.async { [self] in
                var buffer = carried.withLock { held in
                    defer { held = [] }
                    return held
                }
                let start = buffer.count
                buffer += repeatElement(0, count: 64 << 10)
                var count = 0
                repeat {
                    count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress.map { $0 + start }, $0.count - start) }
                } while count < 0 && errno == EINTR
                guard count > 0 else {
                    // The end: a character left unfinished is shown as the replacement character.
                    continuation.resume(returning: start > 0 ? (String(decoding: buffer[..<start], as: UTF8.self), false) : nil)
                    return
                }
                let end = start + count
                let complete = UTF8Boundary.end(ofCompleteCharactersIn: buffer[..<end])
                carried.withLock { $0 = Array(buffer[complete..<end]) }
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let more = poll(&waiting, 1, 0) > 0 && waiting.revents & Int16(POLLIN) != 0
                continuation.resume(returning: (String(decoding: buffer[..<complete], as: UTF8.self), more))
            }
        }
    }
}
