import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// One naming of credential variables in `:curl`, `:save` and `:secrets`, and files written safely.
@Suite("Credentials for curl and saved files")
struct CredentialExportTests {
    @Test(":curl of a Basic endpoint reads TYPIST_PASSWORD, the variable :save writes")
    func basicNaming() async throws {
        try await withTemporaryFolder("typist-basic") { folder in
            try await withDemoShell { shell, output, _ in
                await shell.handle(#"username = "ada"; password = "lovelace""#)
                await shell.handle("issueToken().expiresIn")
                await shell.handle(":curl issueToken()")
                await shell.handle(":save \(folder.appendingPathComponent("s.api").path)")
                #expect(output.standard.contains(#"-u "ada:${TYPIST_PASSWORD}""#), "\(output.standard)")
                #expect(!output.standard.contains("TYPIST_HEADER_AUTHORIZATION"))
                let saved = try String(contentsOf: folder.appendingPathComponent("s.api"), encoding: .utf8)
                #expect(saved.contains(#"env("TYPIST_PASSWORD")"#), "\(saved)")
            }
        }
    }

    @Test(":secrets writes export lines, mode 0600, and prints no value; sourcing it makes :curl's line work")
    func secretsFile() async throws {
        try await withTemporaryFolder("typist-secrets") { folder in
            let file = folder.appendingPathComponent("secrets.sh")
            try await withDemoShell { shell, output, _ in
                await shell.handle(#"let session = login(user: "ada", password: "lovelace")"#)
                await shell.handle(":secrets \(file.path)")
                guard case .secret(let token)? = try? await shell.evaluate("token") else {
                    Issue.record("no token")
                    return
                }
                #expect(!output.all.contains(token))
                #expect(output.standard.contains("TYPIST_TOKEN"), "\(output.all)")
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                #expect((attributes[.posixPermissions] as? Int) == 0o600)
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(text.contains("export TYPIST_TOKEN='\(token)'"))
                // The file is for a shell: sourcing it sets the variable to the token.
                let sourced = try await ProcessResult.run(["bash", "-c", "source '\(file.path)' && printf %s \"$TYPIST_TOKEN\""])
                #expect(sourced.output == token)
            }
        }
    }

    @Test(":save refuses what is not a regular file and says why in words")
    func saveRefusesDevicesAndFolders() async throws {
        let before = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int
        try await withTemporaryFolder("typist-save") { folder in
            try await withDemoShell { shell, output, _ in
                await shell.handle("posts().count")
                await shell.handle(":save /dev/null")
                await shell.handle(":save \(folder.path)")
                await shell.handle(":save \(folder.path)/missing/s.api")
                #expect(output.error.contains("cannot write '/dev/null': it is not a regular file"), "\(output.error)")
                #expect(output.error.contains("it is not a regular file"))
                #expect(output.error.contains("No such file or directory"), "\(output.error)")
                #expect(!output.error.contains("Error Domain"))
            }
        }
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int == before)
    }

    @Test(":save onto a file another user owns (group-writable) refuses, its content and owner kept; root makes the other user's file, others skip",
          .enabled(if: geteuid() == 0, "needs root to make a file another user owns"))
    func saveRefusesAnotherUsersFile() async throws {
        try await withTemporaryFolder("typist-save-other") { folder in
            let file = folder.appendingPathComponent("theirs.api")
            try "their work\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(chown(file.path, 65534, 65534) == 0 && chmod(file.path, 0o664) == 0)
            try await withDemoShell { shell, output, _ in
                await shell.handle("posts().count")
                await shell.handle(":save \(file.path)")
                #expect(output.error.contains("it belongs to another user (uid 65534)"), "\(output.error)")
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "their work\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect(attributes[.ownerAccountID] as? Int == 65534)
            #expect(attributes[.posixPermissions] as? Int == 0o664)
        }
    }

    @Test(":load of a FIFO nobody writes to says so at once rather than waiting for a writer")
    func loadFIFOWithoutWriter() async throws {
        try await withTemporaryFolder("typist-load-fifo") { folder in
            let fifo = folder.appendingPathComponent("nobody.api")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            try await withDemoShell { shell, output, _ in
                // Without the change this waits in open(2) for a writer that never comes.
                #expect(await shell.handle(":load \(fifo.path)") == false)
                #expect(output.error.contains("nothing is writing to it"), "\(output.error)")
                #expect((try? await shell.evaluate("1 + 1")) == .int(2))
            }
        }
    }

    @Test(":save over an existing file replaces it whole, keeps it 0600, and leaves no temporary file")
    func saveReplaces() async throws {
        try await withTemporaryFolder("typist-save-over") { folder in
            let file = folder.appendingPathComponent("s.api")
            try "old text\n".write(to: file, atomically: true, encoding: .utf8)
            try await withDemoShell { shell, _, _ in
                await shell.handle("posts().count")
                await shell.handle(":save \(file.path)")
            }
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("posts().count") && !text.contains("old text"))
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.api"])
        }
    }
}
