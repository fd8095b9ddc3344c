/// Text made safe to show on a terminal: control characters, which could move the cursor, clear
/// the screen or retitle the window, are written as escapes (`\u{1B}`) instead of sent raw.
///
/// Line breaks and tabs stay as they are. Everything a server sent, and everything a script
/// prints, passes through here on its way to the prompt.
public enum TerminalText {
    /// `text` with every control character but `\n` and `\t` (C0, DEL and C1) escaped.
    public static func sanitized(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x09 || !(value < 0x20 || (0x7F...0x9F).contains(value)) {
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
    static func sanitizedSource(_ text: String) -> String {
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
