import APIScript

/// What a GraphQL scalar is in scripts.
enum GraphQLScalars {
    /// Custom scalars that services send as strings, by their usual names.
    static let textual: Set<String> = [
        "ID", "String", "DateTime", "Date", "Time", "URI", "URL", "Url", "HTML", "GitObjectID", "GitTimestamp", "GitSSHRemote",
        "GitRefname", "PreciseDateTime", "UUID", "Email", "EmailAddress", "X509Certificate", "Base64String", "Markdown", "Upload",
    ]

    /// `Int` is `Int`, `Float` `Double`, `Boolean` `Bool`; `ID`, `String` and the custom scalars
    /// sent as text (`DateTime`, `URI`, …) `String`; any other custom scalar (`JSON`, a
    /// service's own) `Any`: its value is shown as the service sent it.
    static func scriptType(_ name: String) -> ScriptType {
        switch name {
        case "Int": .int
        case "Float": .double
        case "Boolean": .bool
        default: textual.contains(name) ? .string : .any
        }
    }
}
