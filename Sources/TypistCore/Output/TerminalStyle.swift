import APIScript
import Foundation

/// ANSI styling, on only when writing to a terminal and `NO_COLOR` is unset.
package struct TerminalStyle: Sendable {
    package var enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Whether colour suits a file descriptor: a terminal, and no `NO_COLOR`.
    package static func colorsEnabled(for descriptor: Int32) -> Bool {
        isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func type(_ text: String) -> String { paint(text, "1;36") }
    package func string(_ text: String) -> String { paint(text, "32") }
    package func number(_ text: String) -> String { paint(text, "33") }
    package func dim(_ text: String) -> String { paint(text, "2") }
    package func bold(_ text: String) -> String { paint(text, "1") }
    package func error(_ text: String) -> String { paint(text, "1;31") }

    /// How many characters of `text` show: its length without the colour codes this adds.
    package static func visibleCount(_ text: String) -> Int {
        guard text.utf8.contains(0x1B) else { return text.count }
        var count = 0
        var inCode = false
        for character in text {
            if inCode {
                if character == "m" { inCode = false }
            } else if character == "\u{1B}" {
                inCode = true
            } else {
                count += 1
            }
        }
        return count
    }
}


