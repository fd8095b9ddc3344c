import Synchronization
import TypistCore

/// What a console shows: the text a shell wrote, results and errors kept apart as an app would
/// keep them (for tests that use the core alone, without TypistTesting's front-end helpers).
final class Screen: Sendable {
    private let text = Mutex<(results: String, errors: String)>(("", ""))
    var output: ShellOutput {
        ShellOutput(standard: { line in self.text.withLock { $0.results += line } },
                    error: { line in self.text.withLock { $0.errors += line } })
    }
    var results: String { text.withLock { $0.results } }
    var errors: String { text.withLock { $0.errors } }
    func clear() { text.withLock { $0 = ("", "") } }
}
