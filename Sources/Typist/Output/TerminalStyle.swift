import Foundation

/// ANSI styling, on only when writing to a terminal and `NO_COLOR` is unset.
struct TerminalStyle: Sendable {
    var enabled: Bool

    /// Whether colour suits a file descriptor: a terminal, and no `NO_COLOR`.
    static func colorsEnabled(for descriptor: Int32) -> Bool {
        isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func type(_ text: String) -> String { paint(text, "1;36") }
    func string(_ text: String) -> String { paint(text, "32") }
    func number(_ text: String) -> String { paint(text, "33") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func bold(_ text: String) -> String { paint(text, "1") }
    func error(_ text: String) -> String { paint(text, "1;31") }
}

extension Shell {
    /// A value as the current format shows it.
    func render(_ value: Value, type: ScriptType?) -> String {
        ValueRenderer(format: format, style: TerminalStyle(enabled: colors)).render(value, type: type)
    }
}

import APIScript
