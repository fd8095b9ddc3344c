import Foundation
import Testing
import TypistTesting
@testable import Typist
@testable import TypistCore

/// What people bring to a prompt: each mistake gets an answer that says what they did.
@Suite("Prompt habits")
struct PromptHabitsTests {
    @Test("A constant declared in an earlier input: the note quotes that input, not the line just typed")
    func letInAnEarlierInput() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("let answer = 41")
            output.clear()
            #expect(await shell.handle("answer = 42") == false)
            #expect(output.error.contains("'answer' was declared with 'let' in an earlier input (let answer = 41); declare it again with 'var' to change it"),
                    "\(output.error)")
            #expect(!output.error.contains("change 'let' to 'var'"), "no caret under the wrong line: \(output.error)")
            output.clear()
            #expect(await shell.handle("let fixed = 1; fixed = 2") == false)
            #expect(output.error.contains("note: change 'let' to 'var' to make it mutable"), "the same input: pointed at")
        }
    }

    @Test(":history lists the last inputs numbered from the oldest, as shells do; a count and `search word` narrow it")
    func history() async throws {
        try await withDemoShell { shell, output, _ in
            let source = ScriptedLineSource(["let a = 1", "post(id: 1).title", "posts().count", ":history", ":history 1",
                                      ":history search post", ":history search nothing-like-this", ":history seven"])
            _ = await shell.runPrompt(source)
            let text = output.standard
            #expect(text.contains("1  let a = 1\n2  post(id: 1).title\n3  posts().count\n"), "\(text)")
            #expect(text.contains("4  :history\n"), "the count picks the newest, and never this command")
            #expect(text.contains("2  post(id: 1).title\n3  posts().count\n"), "\(text)")
            #expect(text.contains("no input contains 'nothing-like-this'"))
            #expect(output.error.contains(":history takes a count or `search word`, not 'seven'"))
        }
    }

    @Test(":history with piped input says where history is kept")
    func historyWhenPiped() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":history")
            #expect(output.standard.contains("no history: it is kept at a terminal, not for piped input"), "\(output.standard)")
        }
    }
}
