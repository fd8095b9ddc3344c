import FaultServer
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// Credentials as people paste them (a trailing newline) and script files of any size.
@Suite("Pasted credentials and script files")
struct PastedCredentialTests {
    @Test("A token with white space around it is sent trimmed and masked as sent", arguments: [
        "pasted-token-4242\r\n", "pasted-token-4242 ", "\tpasted-token-4242\n",
    ])
    func pastedToken(token: String) async throws {
        let echo = try FaultServer { connection in
            try connection.respond(status: "401 Unauthorized", body: Array(connection.requestHead.utf8))
        }
        defer { echo.stop() }
        try await withDemoShell { shell, output, _ in
            shell.setToken(token)
            await shell.handle("baseURL = \"\(echo.baseURL)\"")
            await shell.handle("search(query: \"x\")")
            #expect(output.error.contains("Bearer ••••"), "\(output.error)")
            #expect(!output.all.contains("pasted-token-4242"), "\(output.all)")
        }
    }

    @Test("typist run refuses a script that is not a regular file or is too large, in words")
    func scriptFileLimits() async throws {
        try await withTemporaryFolder("typist-big-script") { folder in
            let big = folder.appendingPathComponent("big.api")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: UInt64(ScriptFile.maximumSize + 1))
            try handle.close()
            let result = try await Built.run("typist", ["run", big.path])
            #expect(result.status != 0)
            #expect(result.error.contains("a script may be at most 16 MiB"), "\(result.error)")
            let device = try await Built.run("typist", ["run", "/dev/zero"])
            #expect(device.error.contains("cannot read '/dev/zero': it is not a regular file"), "\(device.error)")
            let folderRun = try await Built.run("typist", ["run", folder.path])
            #expect(folderRun.error.contains("it is a folder"), "\(folderRun.error)")
        }
    }
}

/// Credentials in a base URL are refused, and never repeated.
@Suite("Credentials in URLs")
struct URLCredentialTests {
    @Test("A base URL with a password is refused without repeating the password, at the prompt and on the command line")
    func userinfoMasked() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(#"baseURL = "http://ada:s3cretpass@127.0.0.1:1/""#)
            #expect(output.error.contains("http://ada:••••@127.0.0.1:1/"), "\(output.error)")
            #expect(!output.all.contains("s3cretpass"))
        }
        let result = try await Built.run("typist", ["run", "Examples/smoke.api", "--base-url", "http://ada:s3cretpass@127.0.0.1:1/"])
        #expect(result.status != 0)
        #expect(result.error.contains("http://ada:••••@127.0.0.1:1/"), "\(result.error)")
        #expect(!result.error.contains("s3cretpass"))
    }

    @Test("A refused line with credentials in a URL stays out of the history")
    func refusedLineLeavesHistory() async throws {
        try await withDemoShell { shell, _, _ in
            let source = ScriptedLineSource([#"baseURL = "http://ada:s3cretpass@127.0.0.1:1/""#, "posts().count"])
            _ = await shell.runPrompt(source)
            #expect(source.history == ["posts().count"])
        }
    }
}
