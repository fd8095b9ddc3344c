/// Where the shell writes.
public struct ShellOutput: Sendable {
    /// Results and `print` output.
    public var standard: @Sendable (String) -> Void
    /// Diagnostics and notes.
    public var error: @Sendable (String) -> Void

    /// Creates an output.
    public init(standard: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.standard = standard
        self.error = error
    }

    /// The process's standard output and standard error, written through one path: a closed
    /// pipe ends the program quietly, a full disk with one line and status 74.
    public static let process = ShellOutput(standard: StandardStream.output.write, error: StandardStream.error.write)
}
