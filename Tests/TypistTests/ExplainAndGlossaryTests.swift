import APIScript
import DemoBindings
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import Typist
@testable import TypistCore
@testable import TypistWorkshop

/// `:explain` puts the last failed call in the pattern's terms; the glossary maps the write-ups'
/// names to TypedAPI's.
@Suite(":explain and the glossary")
struct ExplainAndGlossaryTests {
    @Test("Each kind of failure is explained by its APIError case, its check and the write-up that introduced it",
          arguments: [
              ("post(id: 999)", ["post(id:): APIError.unacceptableStatus (404)", "request: GET ", "/posts/999",
                                 "write-up 4's validateStatusCode", "server:  {}"]),
              ("search(query: \"mug\")", ["search(query:): a missing credential", "'AccessToken' and '()' must be equivalent"]),
              ("notJSON()", ["APIError.unexpectedContentType (expected application/json, found text/html", "validateContentType"]),
              ("wrongType()", ["APIError.decodingFailed (Post at id: expected Int", "write-up 0"]),
              ("status(code: 503)", ["APIError.unacceptableStatus (503)", "server:  its error model decoded as"]),
              ("redirectLoop()", ["APIError.tooManyRedirects (10)"]),
              // A limit of 2 s against an answer that takes a minute: a time-out however loaded the machine.
              ("timeout = 2; httpGet(\"/faults/slow\", query: [\"ms\": \"60000\"])", ["httpGet(_:): APIError.timedOut"]),
          ])
    func explains(input: String, expected: [String]) async throws {
        try await withDemoShell { shell, output, _ in
            Workshop.install(on: shell, lessons: nil)
            await shell.handle(":explain")
            #expect(output.standard.contains("no call has failed yet"))
            #expect(await shell.handle(input) == false)
            output.clear()
            await shell.handle(":explain")
            for piece in expected {
                #expect(output.standard.contains(piece), "\(piece)\n\(output.standard)")
            }
            // Every line of code the explanation suggests type-checks in this session (a `…` is a
            // value to fill in; `try?` alone is a keyword, not a line).
            for span in Self.suggestedCode(in: output.standard) {
                let diagnostics = shell.check(ScriptSource(name: "suggestion", text: span))
                #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "`\(span)`: \(diagnostics)")
            }
        }
    }

    @Test("A value a document's rule refuses is explained as the rule's, not as the type's")
    func ruleRefusal() async throws {
        try await withDemoShell(fromDocument: true) { shell, output, _ in
            Workshop.install(on: shell, lessons: nil)
            #expect(await shell.handle("let n = -1; bigPosts(count: n)") == false)
            output.clear()
            await shell.handle(":explain")
            #expect(output.standard.contains("bigPosts(count:): a value the document rules out (count must be at least 0 (the document's minimum), not -1."),
                    "\(output.standard)")
            #expect(output.standard.contains(":describe the function to see its rules") && !output.standard.contains("parameter type refused"))
        }
    }

    /// The code spans of an explanation or hint that are lines to type.
    static func suggestedCode(in text: String) -> [String] {
        text.matches(of: /`([^`\n]+)`/).map { String($0.1).replacingOccurrences(of: "…", with: "\"x\"") }
            .filter { $0 != "try?" && !$0.hasPrefix(":") }
    }

    @Test("The exercises' hints are code that type-checks")
    func exerciseHints() async throws {
        let lessons = try Lesson.load(from: DemoBindings.workshopDirectory)
        try await withDemoShell { shell, _, _ in
            Workshop.install(on: shell, lessons: nil)
            for lesson in lessons {
                let text = try String(contentsOf: lesson.directory.appendingPathComponent("exercise.api"), encoding: .utf8)
                // The hint of each expect: "name: code …".
                for hint in text.matches(of: /expect\(.*, "\w+: ([^"]+)"\)/) {
                    let code = hint.1.split(separator: " ").first.map(String.init) ?? ""
                    guard code.contains("(") || code.contains(".") else { continue }
                    let line = code.hasSuffix(":)") ? "" : code
                    if line.isEmpty { continue }
                    let diagnostics = shell.check(ScriptSource(name: "hint", text: "post(id: 1)\n" + line))
                    #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(lesson.title): `\(line)`: \(diagnostics)")
                }
            }
        }
    }

    @Test("A rolled-back input keeps its failure for :explain, and a token in the URL stays masked")
    func keptAndMasked() async throws {
        try await withDemoShell { shell, output, _ in
            Workshop.install(on: shell, lessons: nil)
            await shell.handle("token = \"s3cr3t-value\"")
            #expect(await shell.handle("let x = httpGet(\"/v1/search\", query: [\"q\": \"s3cr3t-value\"]).status; post(id: 999)") == false)
            output.clear()
            await shell.handle(":explain")
            #expect(output.standard.contains("unacceptableStatus (404)"), "\(output.standard)")
            #expect(!output.all.contains("s3cr3t-value"))
        }
    }

    @Test("The glossary: :help of a write-up's name answers with TypedAPI's, and :glossary lists them by write-up")
    func glossary() async throws {
        try await withDemoShell { shell, output, _ in
            Workshop.install(on: shell, lessons: nil)
            await shell.handle(":help Route")
            #expect(output.standard.contains("Route (write-up 0 · an endpoint coupled with its model) — in TypedAPI: Endpoint<Kind, Response>"),
                    "\(output.standard)")
            output.clear()
            await shell.handle(":help networkresponse")
            #expect(output.standard.contains("ResponseDecoding.json(envelope:)"), "\(output.standard)")
            output.clear()
            await shell.handle(":glossary")
            for term in ["Route", "Request", "HTTPError", "APIConfig", "NetworkResponse", "EndpointKind", "HTTPHeader"] {
                #expect(output.standard.contains("  \(term) "), "\(term)")
            }
            #expect(output.standard.split(separator: "\n").filter { $0.hasPrefix("Write-up ") }.count == 5)
        }
    }

    @Test(":help answers for every glossary term, every TypedAPI name the lessons use, and each `try:` it suggests runs")
    func helpForEveryName() async throws {
        let lessons = try Lesson.load(from: DemoBindings.workshopDirectory)
        var names = Set(Glossary.entries.map(\.term))
        // Capitalised names in the lessons' code spans: TypedAPI's types and the demo's models.
        let plainWords: Set = ["Content", "Type", "Workshop"]
        for lesson in lessons {
            let text = try String(contentsOf: lesson.directory.appendingPathComponent("lesson.md"), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("```") {
                for span in line.matches(of: /`([^`]+)`/) {
                    // Not the words inside string literals.
                    let code = span.1.replacing(/"[^"]*"/, with: "")
                    for word in code.matches(of: /\b[A-Z][A-Za-z0-9]+\b/) where !plainWords.contains(String(word.0)) {
                        names.insert(String(word.0))
                    }
                }
            }
        }
        #expect(names.isSuperset(of: ["Bearer", "Public", "APIError", "Endpoint", "EndpointKind", "HTTPMethod"]), "\(names.sorted())")
        try await withDemoShell { shell, output, _ in
            Workshop.install(on: shell, lessons: nil)
            for name in names.sorted() {
                output.clear()
                await shell.handle(":help \(name)")
                #expect(!output.standard.contains("no help on"), "\(name): \(output.standard)")
            }
            // What TypedAPI's entries suggest trying is real: it parses and checks (nothing is sent).
            for entry in TypedAPIHelp.entries where !entry.tryIt.hasPrefix(":") && !entry.tryIt.hasPrefix("typist") {
                let line = entry.tryIt.components(separatedBy: ", then")[0].replacingOccurrences(of: "; ", with: "\n")
                #expect(shell.check(ScriptSource(name: "try", text: line)).filter { $0.severity == .error }.isEmpty, "\(entry.name): \(line)")
            }
        }
    }

    @Test("A refusal whose body lists its problems: :explain names each, as the error's notes do")
    func refusalProblems() {
        let body = Data(#"{"detail":[{"loc":["body","name"],"msg":"must start with a capital letter","input":"solaris"}]}"#.utf8)
        let error = APIError.unacceptableStatus(RequestSummary(method: "POST", url: "http://127.0.0.1:9/items"),
                                                ResponseSummary(status: 422, reason: "", headers: [], body: body))
        let text = FailureExplanation.text(FailedCall(function: "createItem(name:)", error: error), scrub: { $0 })
        #expect(text.contains("\n  refused: body.name: must start with a capital letter (it got \"solaris\")\n"), "\(text)")
    }
}
