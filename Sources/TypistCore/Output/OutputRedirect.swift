import Synchronization

/// A destination that replaces the host's output for a while.
package final class OutputRedirect: Sendable {
    private let storage = Mutex<ShellOutput?>(nil)
    package var current: ShellOutput? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Text collected from a shell's output, for a lesson's transcript.
package final class CapturedText: Sendable {
    private let storage = Mutex("")
    package init() {}
    package var text: String { storage.withLock { $0 } }
    package func append(_ piece: String) { storage.withLock { $0 += piece } }
}
