import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
@testable import Typist
@testable import TypistCore

/// The session keeps the cookies servers set and sends them back to their origin; their values
/// are secrets everywhere.
@Suite("Cookies in the session")
struct SessionCookieTests {
    struct Pong: Codable, Sendable { var ok: Bool }

    /// A shell whose one endpoint, `ping()`, is answered by a server that sets `cookie` every time.
    private func withCookieShell(
        setting cookie: String, _ body: (Shell, CapturedOutput, FaultServer) async throws -> Void
    ) async throws {
        let server = try FaultServer { connection in
            try connection.respond(headers: ["Content-Type: application/json", "Set-Cookie: \(cookie)"],
                                   body: Array(#"{"ok":true}"#.utf8))
        }
        defer { server.stop() }
        let registry = try EndpointRegistry { Register("ping") { Endpoint<Public, Pong>(path: "/ping") } }
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: server.baseURL),
                              transport: CurlTransport(), output: output.shellOutput)
        try await body(shell, output, server)
    }

    @Test("A cookie set by a response goes back on the next call; :cookies and cookies mask it; cookies = [:] clears it")
    func sessionCookies() async throws {
        let value = "s3cr3t-cookie-value"
        try await withCookieShell(setting: "session=\(value); Path=/; HttpOnly") { shell, output, server in
            _ = try await shell.evaluate("ping()")
            _ = try await shell.evaluate("ping()")
            let heads = server.requestHeads.map { $0.lowercased() }
            #expect(heads.count == 2 && !heads[0].contains("cookie:") && heads[1].contains("cookie: session=\(value)"), "\(heads)")
            await shell.handle(":cookies")
            await shell.handle("cookies")
            await shell.handle(":last")
            #expect(output.standard.hasPrefix("session  ••••  127.0.0.1/  HttpOnly\n[\"session\": ••••]\n"), "\(output.standard)")
            #expect(output.standard.contains("Cookie: ••••"))
            #expect(!output.all.contains(value))
            #expect(await shell.handle("cookies = [\"x\": \"y\"]") == false)
            #expect(output.error.contains("cookies can only be cleared (cookies = [:]); servers set them"))
            _ = try await shell.evaluate("cookies = [:]")
            output.clear()
            await shell.handle(":cookies")
            #expect(output.standard == "no cookies\n")
        }
    }

    @Test("A cookie's value, typed back at the prompt, stays out of the history and is saved as env(…)")
    func historyAndSave() async throws {
        let value = "c00kie-v4lue-from-server"
        try await withCookieShell(setting: "sid=\(value); Path=/") { shell, _, _ in
            try await withTemporaryFolder("typist-cookie") { folder in
                _ = try await shell.evaluate("ping()")
                let typed = "let copied = \"\(value)\""
                // The line source asks this before it writes a line to the history file.
                #expect(shell.session.containsSecret(typed))
                #expect(await shell.handle(typed))
                let path = folder.appendingPathComponent("cookie.api").path
                #expect(await shell.handle(":save \(path)"))
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(text.contains("env(\"TYPIST_COOKIE_SID\")"), "\(text)")
                #expect(!text.contains(value))
            }
        }
    }
}
