import APIScript
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// `typist check` reports a call whose credential nothing provides, with nothing sent.
@Suite("Credentials at check time")
struct CredentialCheckTests {
    private func messages(_ shell: Shell, _ text: String) -> [String] {
        shell.check(ScriptSource(name: "c.api", text: text)).map(\.message)
    }

    @Test("A Bearer call with no token before it is an error at the call; a token set, a login, try? or the session's own token are not")
    func bearer() async throws {
        try await withDemoShell { shell, _, _ in
            #expect(messages(shell, #"print(search(query: "x").total)"#)
                    == ["search(query:) needs an access token (Bearer), and nothing sets it before this call"])
            #expect(messages(shell, "token = \"t\"\nprint(search(query: \"x\").total)").isEmpty)
            #expect(messages(shell, "session.token = \"t\"\nprint(search(query: \"x\").total)").isEmpty)
            #expect(messages(shell, "let s = login(user: \"ada\", password: \"lovelace\")\nprint(search(query: \"x\").total)").isEmpty)
            #expect(messages(shell, #"let r = try? search(query: "x")"#).isEmpty)
            // Set after the call: too late.
            #expect(messages(shell, "print(search(query: \"x\").total)\ntoken = \"t\"").count == 1)
            #expect(messages(shell, "issueToken()") == ["issueToken() needs a user name and password (Basic), and nothing sets it before this call"])
            #expect(messages(shell, "username = \"ada\"\npassword = \"lovelace\"\nissueToken()").isEmpty)
            shell.setToken("from-the-environment")
            #expect(messages(shell, #"print(search(query: "x").total)"#).isEmpty)
        }
    }
}
