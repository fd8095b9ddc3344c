import APIScript
import ArgumentParser
import Foundation
import TypedAPI

/// The command line's root: the prompt when no subcommand is named, else `run`, `check`,
/// `cassette` and the extensions' subcommands. It takes no options of its own, so that each
/// subcommand sees, and accepts, only its own (`generate --cassette x.har` is an error, not a
/// cassette the prompt would have written).
struct RootCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ShellCommandLine.hostName.withLock { $0 },
            abstract: PromptCommand.abstract,
            discussion: PromptCommand.discussion,
            version: ShellCommandLine.hostVersion.withLock { $0 },
            subcommands: [PromptCommand.self, RunCommand.self, CheckCommand.self, CassetteCommand.self]
                + ShellCommandLine.extensionSubcommands.withLock { $0 },
            defaultSubcommand: PromptCommand.self)
    }
}

extension RootCommand {
    /// `typist --help`: the prompt's options, as `typist [<options>]`, then the subcommands.
    static func promptHelp() -> String {
        let name = configuration.commandName ?? "typist"
        var text = promptSpelled(helpMessage(for: PromptCommand.self))
            .replacingOccurrences(of: "USAGE: \(name) [<options>]", with: "USAGE: \(name) [<options>]\n       \(name) <subcommand> [<options>]")
        let root = helpMessage()
        if let start = root.range(of: "SUBCOMMANDS:") {
            text += "\n\n" + root[start.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }
}

extension RootCommand {
    /// ArgumentParser's text about the prompt as a person types it: `typist [<options>]`, not the
    /// hidden `typist prompt <options>`.
    static func promptSpelled(_ text: String) -> String {
        let name = configuration.commandName ?? "typist"
        return text.replacingOccurrences(of: "\(name) prompt <options>", with: "\(name) [<options>]")
            .replacingOccurrences(of: "'\(name) prompt --help'", with: "'\(name) --help'")
    }

    /// The prompt's flags: the words before a subcommand that take no value.
    static let promptFlags: Set<String> = ["--validate", "--no-color", "-k", "--insecure"]

    /// The arguments with the subcommand's name first: `typist --format json run x.api`, which
    /// worked when the root shared the session's options, is `typist run --format json x.api`.
    /// The name is the first word that is neither an option nor an option's value.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        let names = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return arguments }
            if word.hasPrefix("-") {
                // An option's value follows it unless it is a flag or says `--name=value`.
                index += promptFlags.contains(word) || word.contains("=") ? 1 : 2
                continue
            }
            guard names.contains(word), index > arguments.startIndex else { return arguments }
            var moved = arguments
            moved.remove(at: index)
            return [word] + moved
        }
        return arguments
    }
}

/// The prompt: what the root runs when no subcommand is named, with the session's options.
struct PromptCommand: ParsableCommand {
    static let abstract = "A typed API shell: call endpoints as functions, navigate results like Swift values."
    static let discussion = "With no subcommand, opens the prompt. Tokens come from TYPIST_TOKEN or the session, never from arguments."

    static let configuration = CommandConfiguration(
        commandName: "prompt", abstract: abstract, discussion: discussion, shouldDisplay: false)

    @OptionGroup var options: SessionOptions
}
