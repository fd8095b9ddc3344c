import APIScript
import Foundation

/// One successful input of a session, as `:save` replays it.
struct TranscriptEntry {
    /// The source text (a meta command is recorded as the statement it stands for).
    var text: String
    /// Whether its value became `last`.
    var producedResult: Bool
}

/// A session's inputs turned into a script that replays it with `typist run`:
///
/// - `last` and `_` become named variables (`result1`), bound where the value was made;
/// - a name declared again at the prompt gets a fresh name from there on (`post_2`), since a
///   script may declare a name once;
/// - every credential the session has seen is read from the environment (`env("TYPIST_TOKEN")!`)
///   instead of being written down or dropped.
struct SessionScript {
    let entries: [TranscriptEntry]
    let secrets: [Session.KnownSecret]

    private struct Edit {
        var span: TextSpan
        var replacement: String
    }

    /// The script's text.
    func render() -> String {
        var taken = Set(entries.flatMap { ScriptText.topLevelDeclarations(in: $0.text).map(\.name) })
        func fresh(_ base: String) -> String {
            var number = 1
            while taken.contains("\(base)\(number)") { number += 1 }
            taken.insert("\(base)\(number)")
            return "\(base)\(number)"
        }
        var edits = Array(repeating: [Edit](), count: entries.count)
        var declaredBefore: Set<String> = []
        var renamed: [String: String] = [:]
        var producer: (index: Int, name: String?)?
        for (index, entry) in entries.enumerated() {
            let text = entry.text
            // `last` and `_` name the previous result: bind it where it was made.
            let lastUses = ScriptText.uses(of: ["last", "_"], in: text)
            if !lastUses.isEmpty, let made = producer, let start = ScriptText.finalExpressionStart(in: entries[made.index].text) {
                let name = made.name ?? fresh("result")
                if made.name == nil {
                    edits[made.index].append(Edit(span: TextSpan(start: start, end: start), replacement: "let \(name) = "))
                    producer = (made.index, name)
                }
                for span in lastUses { edits[index].append(Edit(span: span, replacement: name)) }
            }
            // Names declared again get fresh names; uses follow whichever declaration they see.
            let declarations = ScriptText.topLevelDeclarations(in: text)
            let uses = ScriptText.uses(of: Set(declarations.map(\.name)).union(renamed.keys), in: text)
            var events: [(offset: Int, declaration: ScriptText.Declaration?, use: TextSpan?)] =
                declarations.map { ($0.span.start, $0, nil) } + uses.map { ($0.start, nil, $0) }
            events.sort { $0.offset < $1.offset }
            for event in events {
                if let declaration = event.declaration {
                    if declaredBefore.contains(declaration.name) {
                        let name = fresh(declaration.name + "_")
                        renamed[declaration.name] = name
                        edits[index].append(Edit(span: declaration.span, replacement: name))
                    } else {
                        declaredBefore.insert(declaration.name)
                    }
                } else if let use = event.use, let name = renamed[String(decoding: Array(text.utf8)[use.start..<use.end], as: UTF8.self)] {
                    edits[index].append(Edit(span: use, replacement: name))
                }
            }
            if entry.producedResult { producer = (index, nil) }
        }
        let bodies = entries.indices.map { withoutSecrets(applying(edits[$0], to: entries[$0].text)) }
        let variables = Set(secrets.map(\.variable)).union(Self.fallbacks.map(\.variable))
            .filter { variable in bodies.contains { $0.contains("env(\"\(variable)\")") } }.sorted()
        var header = "// Saved by typist. Replay it with: typist run FILE.api"
        if !variables.isEmpty { header += "\n// Credentials come from the environment: " + variables.joined(separator: ", ") }
        return header + "\n" + bodies.joined(separator: "\n") + "\n"
    }

    private func applying(_ edits: [Edit], to text: String) -> String {
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.span.start > $1.span.start }) {
            bytes.replaceSubrange(edit.span.start..<edit.span.end, with: Array(edit.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Assignments whose literal is a credential even when it is too short to be masked.
    private static let fallbacks: [(pattern: String, variable: String)] = [
        (#"(\btoken\s*=\s*)"(?:[^"\\]|\\.)*""#, "TYPIST_TOKEN"),
        (#"(\bapiKey\s*=\s*)"(?:[^"\\]|\\.)*""#, "TYPIST_API_KEY"),
        (#"(\bpassword\s*:\s*)"(?:[^"\\]|\\.)*""#, "TYPIST_PASSWORD"),
    ]

    /// Every known secret read from its environment variable; a literal that is just the secret
    /// becomes the read itself, one that holds it more interpolates it.
    private func withoutSecrets(_ text: String) -> String {
        var result = text
        for fallback in Self.fallbacks {
            result = result.replacingOccurrences(of: fallback.pattern, with: "$1env(\"\(fallback.variable)\")!",
                                                 options: .regularExpression)
        }
        for secret in secrets {
            let read = "env(\"\(secret.variable)\")!"
            result = result.replacingOccurrences(of: ValueFormatter.quoted(secret.value), with: read)
            result = result.replacingOccurrences(of: secret.value, with: "\\(\(read))")
        }
        return result
    }
}
