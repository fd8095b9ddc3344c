import APIScript
import Foundation
import Testing
import Typist

/// A known token appears in no output, no `:curl`, no `:last`, no error, no saved transcript.
@Suite("Secrets stay secret")
struct RedactionTests {
    static let secret = "sk-live-0123456789-SECRET"

    @Test("The token never reaches any output stream")
    func everywhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-redaction-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withDemoShell { shell, output, _ in
            let inputs = [
                "token = \"\(Self.secret)\"",
                "token", "print(token)", "print(\"\\(token)\")", "[\"t\": token]", "String(describing: token)",
                "search(query: \"swift\")", ":curl search(query: \"swift\")", ":last", ":swift search(query: \"a\")",
                ":format json", "token", "[token]", ":format pretty",
                "echoHeaders()", "search(query: \"x\").query", ":vars", ":token",
                "let t = token", "t", "response", "expect(token == nil, \"token is set\")",
                ":save \(directory.appendingPathComponent("s.api").path)",
            ]
            for input in inputs { await shell.handle(input) }
            #expect(output.all.contains("••••"))
            #expect(!output.all.contains(Self.secret))
            #expect(!output.all.contains("0123456789"))
            let saved = try String(contentsOf: directory.appendingPathComponent("s.api"), encoding: .utf8)
            #expect(!saved.contains(Self.secret))
        }
    }

    @Test("A token from login is never shown: not the result, not :last, not response, not errors")
    func loginToken() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("let session = login(user: \"ada\", password: \"lovelace\")")
            guard case .secret(let issued)? = try? await shell.evaluate("token") else {
                Issue.record("login stored no token")
                return
            }
            #expect(issued.hasPrefix("demo-"))
            for input in ["session", "login(user: \"ada\", password: \"lovelace\")", ":last", "response", "response!.body",
                          "print(session.token)", "\"\\(session)\"", ":format json", "session", "type(of: session.token)"] {
                await shell.handle(input)
            }
            #expect(output.all.contains("••••"))
            #expect(!output.all.contains("demo-"), "\(output.all)")
            #expect(output.standard.contains("Secret"))
        }
    }

    @Test("Inputs that carry secrets are recognised for history and transcripts", arguments: [
        ("token = \"abc\"", true), (":token abc", true), ("login(user: \"ada\", password: \"x\")", true),
        ("apiKey = \"k\"", true), ("headers = [\"Authorization\": \"Bearer x\"]", true),
        // A password of any length, as the variable or the session's property.
        ("password = \"abc\"", true), ("session.password = \"a\"", true), ("username = \"ada\"; password = \"xyz\"", true),
        ("password == \"abc\"", false),
        ("posts().count", false), ("let tokens = 3", false), ("print(token == nil)", false),
        (#"baseURL = "http://ada:pass@127.0.0.1/""#, true), (#"httpGet("/a@b")"#, false), (#"baseURL = "http://127.0.0.1/""#, false),
    ])
    func filter(input: String, carries: Bool) {
        #expect(SecretFilter.carriesSecret(input) == carries)
    }
}
