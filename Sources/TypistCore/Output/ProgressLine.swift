import Foundation
import Synchronization

/// The "… 1.2s" line shown on a terminal while a call takes a while; any output clears it first.
package final class ProgressLine: Sendable {
    private let shown = Mutex(false)

    package init() {}

    /// Draws the line (on standard error).
    package func show(_ text: String) {
        shown.withLock { shown in
            StandardStream.error.write("\r\u{1B}[2K\u{1B}[2m\(text)\u{1B}[0m")
            shown = true
        }
    }

    /// Removes the line, if it is there.
    package func clear() {
        shown.withLock { shown in
            guard shown else { return }
            StandardStream.error.write("\r\u{1B}[2K")
            shown = false
        }
    }

    /// Standard output and error that clear the line before writing.
    package var output: ShellOutput {
        ShellOutput(standard: { text in
            self.clear()
            StandardStream.output.write(text)
        }, error: { text in
            self.clear()
            StandardStream.error.write(text)
        })
    }
}
