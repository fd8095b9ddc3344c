import Foundation

/// Recognises inputs that set or carry a secret, so they stay out of saved scripts and history.
public enum SecretFilter {
    /// Whether an input sets the token or API key, or calls login with a password.
    public static func carriesSecret(_ input: String) -> Bool {
        let text = input.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix(":token") { return true }
        let patterns = [
            #"(^|[;\s{])(token|apiKey)\s*=[^=]"#,
            #"password\s*:"#,
            #"(?i)(secret|api[_-]?key|authorization|cookie)"?\s*[=:]"#,
        ]
        return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    /// The input as it may be saved: a line that carries a secret becomes a comment saying so.
    public static func redactedForSaving(_ input: String) -> String {
        input.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            carriesSecret(String(line)) ? "// (a line that set a secret was left out)" : String(line)
        }.joined(separator: "\n")
    }
}
