import Foundation
import Testing
import Typist

/// The prompt's loop through a scripted line source: inputs in, the transcript out.
@Suite("Prompt transcripts")
struct TranscriptTests {
    private func transcript(_ lines: [String?]) async throws -> (output: String, source: ScriptedLineSource) {
        try await withDemoShell { shell, output, _ in
            let source = ScriptedLineSource(lines)
            _ = await shell.runPrompt(source)
            return (Built.normalized(output.standard + output.error), source)
        }
    }

    @Test("Results, a multi-line block, and an error, in order")
    func basic() async throws {
        let (output, source) = try await transcript([
            "post(id: 4).id", "for i in 0..<3 {", "  if i == 1 { continue }", "  print(i)", "}", "post(id: 4).titel",
        ])
        #expect(output == """
            4
            0
            2
            <input>:1:13: error: Post has no member 'titel'
                post(id: 4).titel
                            ^~~~~
            note: did you mean 'title'?

            """)
        #expect(source.prompts == ["typist> ", "typist> ", "   ...> ", "   ...> ", "   ...> ", "typist> ", "typist> "])
        #expect(source.history == ["post(id: 4).id", "for i in 0..<3 {\n  if i == 1 { continue }\n  print(i)\n}", "post(id: 4).titel"])
    }

    @Test("The prompt carries the host's name, continuation lines aligned under it")
    func hostName() async throws {
        try await withDemoShell { shell, _, _ in
            let source = ScriptedLineSource(["[1,", "2]", "1"])
            _ = await shell.runPrompt(source, name: "reading")
            #expect(source.prompts == ["reading> ", "    ...> ", "reading> ", "reading> "])
        }
    }

    @Test("Ctrl-C drops an unfinished block; secrets stay out of history")
    func interruptAndSecrets() async throws {
        let (output, source) = try await transcript([
            "let xs = [1,", nil, "token = \"abc\"", "token", "xs",
        ])
        #expect(output == """
            ••••
            <input>:1:1: error: cannot find 'xs' in scope
                xs
                ^~

            """)
        #expect(source.history == ["token", "xs"])
    }

    @Test("A string with a brace inside does not open a block; an open string does continue")
    func continuation() async throws {
        let (output, _) = try await transcript(["print(\"{\")", "print(\"a", "b\")"])
        #expect(output.hasPrefix("{\n<input>:1:7: error: unterminated string literal; use \"\"\" for text over several lines\n"))
        #expect(output.contains("<input>:2:2: error: unterminated string literal"))
    }
}
