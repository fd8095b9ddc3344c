import APIScript
import ArgumentParser
import Foundation
import TypedAPI

struct PromptCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ShellCommandLine.hostName.withLock { $0 },
            abstract: "A typed API shell: call endpoints as functions, navigate results like Swift values.",
            discussion: "With no subcommand, opens the prompt. Tokens come from TYPIST_TOKEN or the session, never from arguments.",
            version: ShellCommandLine.hostVersion.withLock { $0 },
            subcommands: [RunCommand.self, CheckCommand.self, CassetteCommand.self] + ShellCommandLine.extensionSubcommands.withLock { $0 })
    }

    @OptionGroup var options: SessionOptions
}
