/// Text made safe to show on a terminal: control characters, which could move the cursor, clear
/// the screen or retitle the window, are written as escapes (`\u{1B}`) instead of sent raw.
///
/// Line breaks and tabs stay as they are. Everything a server sent, and everything a script
/// prints, passes through here on its way to the prompt.
package enum TerminalText {
    /// Whether a character is a control character: C0, DEL or C1 (U+009B is a one-character
    /// escape sequence on many terminals). The one rule every writer of text uses.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` may hold a control character (a quick look at its bytes: C1 controls start with 0xC2).
    @inline(__always)
    public static func mayHoldControl(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// `text` with every control character but `\n` and `\t` (C0, DEL and C1) escaped.
    public static func sanitized(_ text: String) -> String {
        guard mayHoldControl(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x09 || !isControl(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// A line of a script as a diagnostic shows it: ``sanitized(_:)``, and invisible characters
    /// (zero-width spaces, direction overrides: Unicode's format characters but the joiner
    /// emoji use) escaped too, so a line that reads like another shows where it differs.
    package static func sanitizedSource(_ text: String) -> String {
        let safe = sanitized(text)
        guard safe.utf8.contains(where: { $0 >= 0xC2 }) else { return safe }
        var result = ""
        for scalar in safe.unicodeScalars {
            if scalar.properties.generalCategory == .format, scalar.value != 0x200D {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
