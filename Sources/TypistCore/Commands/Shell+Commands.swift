import APIScript
import Foundation
import TypedAPI

extension Shell {
    /// The core's own commands (name, usage, summary); a session may have more (``commandList``).
    public static var commands: [(name: String, usage: String, summary: String)] {
        MetaCommand.all.map { ($0.name, $0.usage, $0.summary) }
    }

    /// This session's commands (name, usage, summary), as `:help` lists them: the core's and
    /// those a module added (the workshop's `:lesson`).
    public var commandList: [(name: String, usage: String, summary: String)] {
        commandTable.map { ($0.name, $0.usage, $0.summary) }
    }

    /// The command a `:name …` line names.
    func commandNamed(in line: String) -> MetaCommand? {
        MetaCommand.named(String(line.dropFirst().prefix { !$0.isWhitespace }), in: commandTable)
    }

    /// Adds commands, listed after the command named `predecessor` (at the end when there is none).
    package func add(commands: [MetaCommand], after predecessor: String) {
        let index = commandTable.firstIndex { $0.name == predecessor }.map { $0 + 1 } ?? commandTable.endIndex
        commandTable.insert(contentsOf: commands, at: index)
    }

    /// Adds something that follows the prompt's inputs.
    package func add(observer: any InputObserver) { inputObservers.append(observer) }

    /// Adds help on more topics, asked after the core's own.
    package func add(helpProvider: @escaping @Sendable (String) -> String?) { helpProviders.append(helpProvider) }

    /// The last failed call (for `:explain`).
    package var lastFailedCall: FailedCall? { session.read(\.lastFailure) }

    /// `text` with the session's secrets masked, as its output shows them.
    package func masked(_ text: String) -> String { session.scrub(text) }

    /// Runs a `:command`.
    func command(_ line: String) async -> Bool {
        let body = line.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let argument = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let command = MetaCommand.named(name, in: commandTable) else {
            let suggestion = Suggestions.nearest(to: name, in: commandTable.map(\.name))
            fail("unknown command ':\(name)'" + (suggestion.map { "; did you mean ':\($0)'?" } ?? "") + " (:help lists them)")
            return false
        }
        return await command.run(self, argument)
    }

    package func write(_ text: String) { output.standard(text.hasSuffix("\n") ? text : text + "\n") }

    /// Writes the shell's own text (a lesson, help): never masked, it holds no session data.
    package func writeOwnText(_ text: String) { ownTextOutput.standard(text.hasSuffix("\n") ? text : text + "\n") }
    package func fail(_ text: String) { output.error(TerminalStyle(enabled: colors).error("error:") + " " + text + "\n") }
}
