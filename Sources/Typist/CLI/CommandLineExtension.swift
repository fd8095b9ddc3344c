import ArgumentParser
import TypistCore

/// The command line's part of a host extension (``TypistCore/HostExtension/frontEnd``): its
/// subcommands beside `run` and `check`, and what a parsed one asks for — how the workshop adds
/// `lesson` and `swift-check` without the `Typist` library linking it.
package struct CommandLineExtension: Sendable {
    /// What a parsed subcommand of the extension asks for.
    package enum Outcome {
        /// It ran by itself, with this exit status.
        case finished(Int32)
        /// It runs by itself, asynchronously (it reads a file or a URL), ending with an exit status.
        case running(@Sendable () async -> Int32)
        /// A session with these options, run this way.
        case session(SessionOptions, ShellCommandLine.Mode)
    }

    /// The subcommands, for parsing and help.
    package var subcommands: [any ParsableCommand.Type]
    /// What a parsed command asks for; `nil` when it is not one of this extension's.
    package var outcome: @Sendable (any ParsableCommand, ShellHost, ShellOutput) -> Outcome?

    package init(subcommands: [any ParsableCommand.Type],
                 outcome: @escaping @Sendable (any ParsableCommand, ShellHost, ShellOutput) -> Outcome?) {
        self.subcommands = subcommands
        self.outcome = outcome
    }
}

extension HostExtension {
    /// An extension whose command line adds `commandLine`'s subcommands.
    package init(commandLine: CommandLineExtension, prepare: @escaping @Sendable (Shell, ShellHost) -> Void) {
        self.init(prepare: prepare)
        frontEnd = commandLine
    }

    /// Its command line's part, if it has one.
    var commandLine: CommandLineExtension? { frontEnd as? CommandLineExtension }
}
