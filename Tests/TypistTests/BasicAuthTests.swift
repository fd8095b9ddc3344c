import APIScript
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// HTTP Basic endpoints take the session's `username` and `password`; the password and the
/// encoded pair are secrets like a token.
@Suite("Basic authentication in the session")
struct BasicAuthTests {
    @Test("Missing credentials stop the call before the network; with them a token is issued and kept")
    func credentials() async throws {
        try await withDemoShell { shell, output, _ in
            #expect(await shell.handle("issueToken()") == false)
            #expect(output.error.contains("issueToken() needs a user name and password: set `username = …` and `password = …`"),
                    "\(output.error)")
            #expect(try await shell.evaluate("response") == .null, "nothing was sent")
            _ = try await shell.evaluate("username = \"ada\"")
            _ = try await shell.evaluate("password = \"lovelace\"")
            _ = try await shell.evaluate("issueToken()")
            #expect(try await shell.evaluate("search(query: \"book\").total") == .int(5))
            output.clear()
            await shell.handle("password")
            await shell.handle(":last")
            _ = try await shell.evaluate("issueToken()")
            await shell.handle(":last")
            await shell.handle(":curl issueToken()")
            #expect(output.standard.hasPrefix("••••\n"), "\(output.standard)")
            // As curl users write Basic, the password from the variable `:save` writes.
            #expect(output.standard.contains("-u \"ada:${TYPIST_PASSWORD}\""), "\(output.standard)")
            let base64 = Data("ada:lovelace".utf8).base64EncodedString()
            #expect(!output.all.contains("lovelace") && !output.all.contains(base64))
        }
    }

    @Test(":save reads the password from the environment, and the saved script runs")
    func save() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-basic-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("basic.api").path
        try await withDemoShell { shell, _, _ in
            await shell.handle("username = \"ada\"")
            await shell.handle("password = \"lovelace\"")
            await shell.handle("let total = issueToken().expiresIn")
            await shell.handle(":save \(path)")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("password = env(\"TYPIST_PASSWORD\")!"), "\(text)")
        #expect(!text.contains("lovelace"))
        let run = try await Built.run("typist", ["run", path], environment: ["TYPIST_PASSWORD": "lovelace"])
        #expect(run.status == 0, "\(run.error)")
    }
}
