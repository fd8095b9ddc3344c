import APIScript
import FaultServer
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// Looking at the session never changes it; a failed input leaves it as it was; secrets stay
/// masked whatever path they take; `:save` writes a script that replays the session.
@Suite("Session integrity")
struct SessionIntegrityTests {
    /// The value of an expression in the session, or `nil` when it fails.
    private func value(_ shell: Shell, _ text: String) async -> Value? {
        try? await shell.evaluate(text)
    }

    @Test("Previews (:curl, :swift, :type) have no effect on the session or its variables")
    func previewsChangeNothing() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle("var k = 1")
            for preview in [":curl k = 5", ":swift k = 6", ":curl baseURL = \"http://127.0.0.1:1\"",
                            ":swift token = \"abcdefgh-preview\"", ":swift let pp = post(id: 1)", ":curl let qq = posts()",
                            ":curl headers = [\"X-Trace\": \"on\"]", ":curl timeout = 2", ":type k"] {
                await shell.handle(preview)
            }
            #expect(await value(shell, "k") == .int(1))
            #expect(await value(shell, "baseURL") == .string(server.baseURL))
            #expect(await value(shell, "token == nil") == .bool(true))
            #expect(await value(shell, "headers.isEmpty") == .bool(true))
            #expect(await value(shell, "timeout") == .double(30))
            for name in ["pp", "qq"] {
                await #expect(throws: EvaluationError.self) { try await shell.evaluate(name) }
            }
            #expect(!output.all.contains("abcdefgh-preview"))
        }
    }

    @Test("A failed input puts back the variables it assigned and the session properties it set")
    func failureRollsBackEverything() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle("var a = 1")
            await shell.handle("var list = [1]")
            let handled = await shell.handle("""
                a = 2
                list.append(2)
                token = "rolled-back-token-1"
                baseURL = "http://127.0.0.1:1"
                timeout = 3
                headers = ["X-Trace": "on"]
                let c = 3
                post(id: 424242)
                """)
            #expect(handled == false)
            #expect(output.error.contains("connection refused"), "the base URL it set was in force until the failure")
            #expect(await value(shell, "a") == .int(1))
            #expect(await value(shell, "list") == .array([.int(1)]))
            #expect(await value(shell, "token == nil") == .bool(true))
            #expect(await value(shell, "baseURL") == .string(server.baseURL))
            #expect(await value(shell, "timeout") == .double(30))
            #expect(await value(shell, "headers.isEmpty") == .bool(true))
            await #expect(throws: EvaluationError.self) { try await shell.evaluate("c") }
            #expect(!output.all.contains("rolled-back-token-1"))
        }
    }

    @Test("A token set by an input that fails stays masked in the error, also as JSON",
          arguments: [OutputFormat.pretty, .json])
    func rolledBackTokenStaysMasked(format: OutputFormat) async throws {
        // A server that echoes the request, Authorization included, in a 401's body.
        let echo = try FaultServer { connection in
            try connection.respond(status: "401 Unauthorized", body: Array(connection.requestHead.utf8))
        }
        defer { echo.stop() }
        try await withDemoShell { shell, output, _ in
            shell.format = format
            let handled = await shell.handle("baseURL = \"\(echo.baseURL)\"\ntoken = \"echoed-token-98765\"\nsearch(query: \"x\")")
            #expect(handled == false)
            #expect(output.error.contains("401"))
            #expect(output.error.contains("Bearer ••••"), "\(output.error)")
            #expect(!output.all.contains("echoed-token-98765"), "\(output.all)")
        }
    }

    @Test("Secrets in session headers and login passwords are masked; a value in another letter case is other data")
    func secretsEverywhere() async throws {
        try await withDemoShell { shell, output, _ in
            let inputs = [
                "headers = [\"X-Api-Key\": \"header-key-4242\", \"Authorization\": \"Bearer header-bearer-7777\", \"X-Trace\": \"visible-trace\"]",
                "headers", "echoHeaders()", ":last", "response!.body",
                ":curl login(user: \"ada\", password: \"pass-word-5151\")",
                "login(user: \"ada\", password: \"pass-word-5151\").expiresIn", ":last", "response",
                "let t = \"mixedCaseToken42\"", "token = t", "t.uppercased()", "t.lowercased()", "[t]",
            ]
            for input in inputs { await shell.handle(input) }
            for secret in ["header-key-4242", "header-bearer-7777", "pass-word-5151", "mixedCaseToken42"] {
                #expect(!output.all.contains(secret), "\(secret) leaked")
            }
            // Masking matches a secret's own letter case only: it must never change other data.
            #expect(output.all.contains("MIXEDCASETOKEN42"))
            #expect(output.all.contains("visible-trace"), "ordinary headers stay visible")
        }
    }

    @Test("A line whose value later becomes the token leaves the history")
    func historyForgetsLaterSecrets() async throws {
        try await withDemoShell { shell, _, _ in
            let source = ScriptedLineSource(["let t2 = \"TOKEN-zyxw-9876\"", "posts().count", "token = t2", "let n = 1"])
            _ = await shell.runPrompt(source)
            #expect(source.history == ["posts().count", "let n = 1"])
        }
    }

    @Test("last: a check error before any result; typed from each result after")
    func lastIsTyped() async throws {
        try await withDemoShell { shell, output, _ in
            #expect(await shell.handle("last + 1") == false)
            #expect(output.error.contains("'last' is the prompt's last result, and there is none yet"))
            await shell.handle("posts().count")
            #expect(await value(shell, "last + 1") == .int(101))
            await shell.handle("\"text\"")
            output.clear()
            #expect(await shell.handle("_ + 1") == false)
            #expect(output.error.contains("'+' cannot be applied to operands of type 'String' and 'Int'"))
        }
    }

    @Test(":save writes a 0600 script that typist check and typist run replay, credentials from the environment")
    func saveReplays() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-save-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.api")
        try "old".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o644)
        try await withDemoShell { shell, output, _ in
            for input in [
                "token = \"replay-token-123456\"", "posts().count", "print(last + 1)",
                "let p = post(id: 1)", "let p = post(id: 2)", "print(p.id)", "post(id: 3).title", "print(_.count > 0)",
                "login(user: \"ada\", password: \"lovelace\").expiresIn", "print(search(query: \"mug\").total)",
                "headers = [\"X-Api-Key\": \"saved-key-8080\"]", "print(echoHeaders().headers[\"x-api-key\"] != nil)",
                "post(id: 424242)",  // fails: not saved
                ":save \(file.path)",
            ] {
                await shell.handle(input)
            }
            #expect(output.standard.contains("saved "))
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["replay-token-123456", "lovelace", "saved-key-8080"] { #expect(!text.contains(secret), "\(secret) in:\n\(text)") }
        #expect(text.contains("token = env(\"TYPIST_TOKEN\")!"))
        #expect(text.contains("password: env(\"TYPIST_PASSWORD\")!"))
        #expect(text.contains("env(\"TYPIST_HEADER_X_API_KEY\")!"))
        #expect(!text.contains("424242"))
        for line in ["let result1 = posts().count", "print(result1 + 1)", "let p_1 = post(id: 2)", "print(p_1.id)",
                     "let result2 = post(id: 3).title", "print(result2.count > 0)"] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let check = try await Built.run("typist", ["check", file.path])
        #expect(check.status == 0, "\(check.error)\n\(text)")
        let environment = ["TYPIST_TOKEN": "another-token-0000", "TYPIST_PASSWORD": "lovelace", "TYPIST_HEADER_X_API_KEY": "k-1"]
        let run = try await Built.run("typist", ["run", file.path], environment: environment)
        #expect(run.status == 0, "\(run.error)\n\(text)")
        #expect(run.standard == "101\n2\ntrue\n1\ntrue\n", "\(text)")
    }
}
