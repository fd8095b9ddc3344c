/// What a name in a script may be: one rule for the interpreter's registrations, a host's
/// endpoint registry and the shell's variables.
package enum ScriptNames {
    /// The language's keywords, which name nothing.
    public static var keywords: [String] { Keyword.allCases.map(\.rawValue) }
    /// The built-in functions (`print`, `expect`, `json` …), which a host may not shadow.
    public static var builtinFunctions: [String] { BuiltinFunction.allCases.map(\.rawValue) }

    /// Why `name` cannot name a host's function, or `nil` when it can: a built-in's name is
    /// allowed (the host's function wins; the built-in stays reachable as `Swift.name`).
    public static func problem(withHostName name: String) -> String? {
        guard let first = name.utf8.first, first.isIdentifierStart, name.utf8.allSatisfy(\.isIdentifierContinue) else {
            return "a name is a letter or '_' followed by letters, digits or '_'"
        }
        if Keyword(rawValue: name) != nil { return "'\(name)' is a keyword of the language" }
        if name == "_" { return "'_' is the prompt's last result" }
        return nil
    }

    /// Why `name` cannot name a host's variable or a shell variable, or `nil` when it can.
    public static func problem(with name: String) -> String? {
        guard let first = name.utf8.first, first.isIdentifierStart, name.utf8.allSatisfy(\.isIdentifierContinue) else {
            return "a name is a letter or '_' followed by letters, digits or '_'"
        }
        if Keyword(rawValue: name) != nil { return "'\(name)' is a keyword of the language" }
        if BuiltinFunction(rawValue: name) != nil { return "'\(name)' is a built-in function" }
        return nil
    }
}
