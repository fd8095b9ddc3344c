import APIScript
import Foundation

extension MetaCommand {
    /// What Tab offers after `:name `: by the kind of the command's argument.
    static func completion(after before: String, shell: Shell) -> PromptCompletion? {
        let trimmed = before.drop { $0 == " " }
        guard trimmed.hasPrefix(":") else { return nil }
        let body = trimmed.dropFirst()
        guard let space = body.firstIndex(of: " ") else {
            return .init(candidates: shell.commandTable.map(\.name), appendsSpace: true)
        }
        guard let command = named(String(body[..<space]), in: shell.commandTable) else { return .init(candidates: [], appendsSpace: false) }
        let argument = String(body[body.index(after: space)...].drop { $0 == " " })
        switch command.argument {
        case .none, .text:
            return .init(candidates: [], appendsSpace: false)
        case .topic:
            let names = shell.registry.endpoints.map(\.name) + shell.interpreter.recordTypes.keys
                + shell.commandTable.map(\.name) + BuiltinHelp.topics + ["language"]
            return .init(candidates: names, appendsSpace: false)
        case .endpointOrType:
            return .init(candidates: shell.registry.endpoints.map(\.name) + shell.interpreter.recordTypes.keys,
                         appendsSpace: false)
        case .expression:
            return shell.expressionCompletions(before: argument)
        case .environment:
            return .init(candidates: shell.environments.map(\.name), appendsSpace: false)
        case .choice(let words):
            return .init(candidates: words, appendsSpace: false)
        case .file(let extensions):
            return .init(candidates: pathCandidates(argument, extensions: extensions), appendsSpace: false)
        }
    }

    /// Files and directories that `path` (as typed so far) may continue into, each cut to what
    /// follows the word Tab replaces (the text after the last word-break character, as readline
    /// splits it: `Examples/smoke.a` completes the word `a` to `api`).
    static func pathCandidates(_ path: String, extensions: [String]) -> [String] {
        let expanded = path.hasPrefix("~") ? (path as NSString).expandingTildeInPath : path
        let directoryPart = expanded.hasSuffix("/") ? expanded : (expanded as NSString).deletingLastPathComponent
        let namePrefix = expanded.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        let directory = directoryPart.isEmpty ? "." : directoryPart
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let typedDirectory = path.hasSuffix("/") ? path : String(path.dropLast(namePrefix.count))
        let wordStart = path.lastIndex { PromptCompletion.wordBreakCharacters.contains($0) }.map { path.index(after: $0) }
            ?? path.startIndex
        let typedBeforeWord = path.distance(from: path.startIndex, to: wordStart)
        var candidates: [String] = []
        for name in names.sorted() where name.hasPrefix(namePrefix) && (!name.hasPrefix(".") || namePrefix.hasPrefix(".")) {
            var isDirectory: ObjCBool = false
            let full = (directory as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue, !extensions.isEmpty, !extensions.contains((name as NSString).pathExtension) { continue }
            let typed = typedDirectory + name + (isDirectory.boolValue ? "/" : "")
            candidates.append(String(typed.dropFirst(typedBeforeWord)))
        }
        return candidates
    }
}
