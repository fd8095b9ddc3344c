import APIScript
import Foundation
import TypedAPI

extension Shell {
    /// The prompt's own commands (name, usage, summary), for `:help` and completion.
    public static var commands: [(name: String, usage: String, summary: String)] {
        MetaCommand.all.map { ($0.name, $0.usage, $0.summary) }
    }

    /// Runs a `:command`.
    func command(_ line: String) async -> Bool {
        let body = line.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let argument = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let command = MetaCommand.named(name) else {
            let suggestion = Suggestions.nearest(to: name, in: MetaCommand.all.map(\.name))
            fail("unknown command ':\(name)'" + (suggestion.map { "; did you mean ':\($0)'?" } ?? "") + " (:help lists them)")
            return false
        }
        return await command.run(self, argument)
    }

    func write(_ text: String) { output.standard(text.hasSuffix("\n") ? text : text + "\n") }

    /// Writes the shell's own text (a lesson, help): never masked, it holds no session data.
    func writeOwnText(_ text: String) { ownTextOutput.standard(text.hasSuffix("\n") ? text : text + "\n") }
    package func fail(_ text: String) { output.error(TerminalStyle(enabled: colors).error("error:") + " " + text + "\n") }
}
