import ArgumentParser
import TypistCore

/// More for a host's command line: subcommands beside `run` and `check`, and what every session it
/// starts gets — how the workshop adds `lesson`, `swift-check` and the prompt's `:lesson` without
/// the `Typist` library linking it.
package struct CommandLineExtension: Sendable {
    /// What a parsed subcommand of the extension asks for.
    package enum Outcome {
        /// It ran by itself, with this exit status.
        case finished(Int32)
        /// A session with these options, run this way.
        case session(SessionOptions, ShellCommandLine.Mode)
    }

    /// The subcommands, for parsing and help.
    package var subcommands: [any ParsableCommand.Type]
    /// What a parsed command asks for; `nil` when it is not one of this extension's.
    package var outcome: @Sendable (any ParsableCommand, ShellOutput) -> Outcome?
    /// Sets up each session's shell (commands, help, observers) once it is made.
    package var prepare: @Sendable (Shell, ShellHost) -> Void

    package init(subcommands: [any ParsableCommand.Type],
                 outcome: @escaping @Sendable (any ParsableCommand, ShellOutput) -> Outcome?,
                 prepare: @escaping @Sendable (Shell, ShellHost) -> Void) {
        self.subcommands = subcommands
        self.outcome = outcome
        self.prepare = prepare
    }
}
