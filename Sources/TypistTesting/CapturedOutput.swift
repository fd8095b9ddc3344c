import Synchronization
import TypistCore

/// What a shell wrote, by stream.
public final class CapturedOutput: Sendable {
    private let streams = Mutex<(standard: String, error: String)>(("", ""))

    /// Creates an empty capture.
    public init() {}

    /// What went to standard output.
    public var standard: String { streams.withLock { $0.standard } }
    /// What went to standard error.
    public var error: String { streams.withLock { $0.error } }
    /// Both, standard output first.
    public var all: String { streams.withLock { $0.standard + $0.error } }

    /// The output to give a `Shell`.
    public var shellOutput: ShellOutput {
        ShellOutput(standard: { text in self.streams.withLock { $0.standard += text } },
                    error: { text in self.streams.withLock { $0.error += text } })
    }

    /// Forgets what was written so far.
    public func clear() { streams.withLock { $0 = ("", "") } }
}
