/// The process exit statuses.
public enum ExitStatus {
    /// Everything held.
    public static let success: Int32 = 0
    /// A runtime error or a failed `expect`.
    public static let failure: Int32 = 1
    /// Wrong command-line usage.
    public static let usage: Int32 = 64
    /// Syntax or check errors in the script.
    public static let dataError: Int32 = 65
    /// A service could not be reached: an API document's URL refused, timed out or failed TLS.
    public static let unavailable: Int32 = 69
    /// The shell could not start: the host's registry failed, or its built-in service did.
    public static let software: Int32 = 70
    /// The output could not be written (a full disk, `/dev/full`).
    public static let cannotWrite: Int32 = 74
    /// Interrupted (Ctrl-C).
    public static let interrupted: Int32 = 130
    /// The output's reader went away (`| head -1`): the process ends by `SIGPIPE`, as a
    /// pipeline's writer does, which a shell reports as this.
    public static let closedPipe: Int32 = 141
    /// Ended by SIGTERM.
    public static let terminated: Int32 = 143
}
