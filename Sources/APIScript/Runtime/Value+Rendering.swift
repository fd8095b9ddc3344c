/// A value renders as the shell shows it, so that a host can quote one in its own messages.
extension Value: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as `print` shows it: a string bare, anything else in literal form (`[1, 2]`,
    /// `["a": true]`), a secret as `••••`.
    public var description: String { ValueFormatter.description(self) }

    /// The value as a script would write it: strings quoted and escaped (`"a\n"`), a secret as
    /// `••••`.
    public var literal: String { ValueFormatter.literal(self) }

    /// ``literal``, as `debugPrint` and `String(reflecting:)` show it.
    public var debugDescription: String { literal }
}
