import Foundation

/// A guided walk at the prompt, read from a lesson's Markdown (`lesson.md`).
///
/// The file's `# ` line is the title; `key: value` lines before the first step are settings (such
/// as `misuse:`, the diagnostic the lesson's misuse file must produce), except `quote:` lines, each
/// a line of the write-up the lesson's claims rest on, quoted as written; each `## ` section is a
/// step: its prose, the line to type in a fenced code block whose info string is `typist`, and an optional
/// `check: expression` that is true once the student has done the step (without one, typing the
/// line itself is the check), an optional `expected: words` saying what the check looks for
/// (shown when an attempt does not pass, without the answer), or `refused: text` for a step whose
/// line is meant to fail: it is done when the line is refused with an error containing `text`.
public struct Lesson: Sendable {
    /// One step of the walk.
    public struct Step: Sendable {
        /// The step's heading.
        public var title: String
        /// Its prose, as Markdown.
        public var text: String
        /// The line to type, if the step has one.
        public var input: String?
        /// An expression that is true once the step is done.
        public var check: String?
        /// What the check looks for, in words, for an attempt that does not pass it.
        public var expected: String?
        /// For a step whose line is meant to fail: text the error must contain.
        public var refused: String?
    }

    /// The lesson's number (its folder, `lesson-N`).
    public var number: Int
    /// Its title.
    public var title: String
    /// The text before the first step.
    public var introduction: String
    /// Settings from `key: value` lines before the first step.
    public var settings: [String: String]
    /// Lines of the write-up the lesson's claims about it rest on, as written there (its `quote:`
    /// lines), so that each claim can be traced to the article.
    public var quotes: [String]
    /// The steps, in order.
    public var steps: [Step]
    /// The folder the lesson lives in, with its exercises.
    public var directory: URL

    /// The write-up the lesson follows and the idea it teaches, in a sentence (its `reading:` setting).
    public var reading: String? { settings["reading"] }

    /// Parses a lesson's Markdown.
    public init(number: Int, markdown: String, directory: URL) {
        self.number = number
        self.directory = directory
        title = "Lesson \(number)"
        var introduction: [String] = []
        var settings: [String: String] = [:]
        var quotes: [String] = []
        var steps: [Step] = []
        // nil outside a fence; true inside a ```typist fence (the line to type), false inside another.
        var fence: Bool?
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.hasPrefix("```") {
                if let typed = fence {
                    fence = nil
                    if !typed { append(line) }
                } else {
                    fence = line.hasPrefix("```typist") && !steps.isEmpty
                    if fence == false { append(line) }
                }
                continue
            }
            if fence == true {
                let typed = line.hasPrefix("typist> ") ? String(line.dropFirst(8)) : line
                if !typed.trimmingCharacters(in: .whitespaces).isEmpty {
                    steps[steps.count - 1].input = (steps[steps.count - 1].input.map { $0 + "\n" } ?? "") + typed
                }
                continue
            }
            if fence == false {
                append(line)
                continue
            }
            if line.hasPrefix("# "), steps.isEmpty {
                title = String(line.dropFirst(2))
            } else if line.hasPrefix("## ") {
                steps.append(Step(title: String(line.dropFirst(3)), text: "", input: nil, check: nil))
            } else if line.hasPrefix("check: "), !steps.isEmpty {
                steps[steps.count - 1].check = String(line.dropFirst(7))
            } else if line.hasPrefix("expected: "), !steps.isEmpty {
                steps[steps.count - 1].expected = String(line.dropFirst(10))
            } else if line.hasPrefix("refused: "), !steps.isEmpty {
                steps[steps.count - 1].refused = String(line.dropFirst(9))
            } else if steps.isEmpty, let match = line.wholeMatch(of: /([a-z][a-z-]*): (.+)/) {
                if match.1 == "quote" { quotes.append(String(match.2)) } else { settings[String(match.1)] = String(match.2) }
            } else {
                append(line)
            }
        }
        func append(_ line: String) {
            if steps.isEmpty {
                introduction.append(line)
            } else {
                steps[steps.count - 1].text += (steps[steps.count - 1].text.isEmpty ? "" : "\n") + line
            }
        }
        self.introduction = introduction.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        self.settings = settings
        self.quotes = quotes
        self.steps = steps.map { step in
            var step = step
            step.text = step.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return step
        }
    }

    /// Every lesson in a workshop folder (`lesson-0`, `lesson-1`, … each with a `lesson.md`), in order.
    public static func load(from directory: URL) throws -> [Lesson] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("lesson-"), let number = Int(name.dropFirst("lesson-".count)),
                FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).appendingPathComponent("lesson.md").path)
            else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
        return try numbered.map { number, name in
            let folder = directory.appendingPathComponent(name)
            let text = try String(contentsOf: folder.appendingPathComponent("lesson.md"), encoding: .utf8)
            return Lesson(number: number, markdown: text, directory: folder)
        }
    }
}
