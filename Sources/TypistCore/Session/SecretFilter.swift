import Foundation

/// Recognises inputs that set or carry a secret, so they stay out of the history (saved scripts
/// read such values from the environment instead; see `:save`).
public enum SecretFilter {
    /// Whether an input sets the token, API key or password, calls login with a password, or
    /// holds a URL with credentials — whatever the value's length (a short password is still one).
    public static func carriesSecret(_ input: String) -> Bool {
        let text = input.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix(":token") { return true }
        let patterns = [
            #"(^|[;\s{.])(token|apiKey|password)\s*=[^=]"#,
            #"password\s*:"#,
            #"(?i)(secret|api[_-]?key|authorization|cookie)"?\s*[=:]"#,
            // A URL with user information (`http://ada:pass@host/`), even one that is refused.
            #"://[^/\s"@]+@"#,
        ]
        return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }
}
