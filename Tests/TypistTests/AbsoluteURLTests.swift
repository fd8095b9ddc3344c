import APIScript
import FaultServer
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// Absolute URLs in untyped calls: the session's origin as a path under baseURL, credentials
/// included; another origin only with `crossOrigin: true`, and then without any credential.
@Suite("Untyped calls to absolute URLs")
struct AbsoluteURLTests {
    @Test("A URL on the session's own origin works like its path, with the session's token")
    func sameOrigin() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle(#"token = "same-origin-token-77""#)
            await shell.handle(#"httpGet("\#(server.baseURL)/debug/headers").json"#)
            #expect(output.error.isEmpty, "\(output.error)")
            #expect(output.standard.contains("Bearer ••••"), "\(output.standard)")
            let title = try await shell.evaluate(#"httpGet("\#(server.baseURL)/posts/1?x=1").json["id"]"#)
            #expect(title == .int(1))
        }
    }

    @Test("Another origin is refused without crossOrigin: true, and with it gets no credential, cookie or secret header")
    func otherOrigin() async throws {
        let echo = try FaultServer { connection in
            let head = connection.requestHead
            let body = "{\"head\": \(ValueFormatterProbe.quoted(head))}"
            try connection.respond(body: Array(body.utf8))
        }
        defer { echo.stop() }
        try await withDemoShell { shell, output, _ in
            await shell.handle(#"token = "never-cross-origin-55""#)
            await shell.handle(#"headers = ["X-Api-Key": "secret-header-66", "X-Trace": "visible-trace"]"#)
            await shell.handle(#"httpGet("/v1/visits")"#)
            await shell.handle(#"httpGet("\#(echo.baseURL)/other")"#)
            #expect(output.error.contains("is on another origin than baseURL"), "\(output.error)")
            #expect(output.error.contains("crossOrigin: true"))
            let head = try await shell.evaluate(#"httpGet("\#(echo.baseURL)/other?q=1", crossOrigin: true).json["head"]"#)
            guard case .string(let text) = head else {
                Issue.record("no head: \(head)")
                return
            }
            #expect(text.hasPrefix("GET /other?q=1 "), "\(text)")
            #expect(!text.lowercased().contains("authorization"))
            #expect(!text.lowercased().contains("cookie"))
            #expect(!text.contains("secret-header-66") && !text.contains("never-cross-origin-55"))
            #expect(text.lowercased().contains("user-agent: typist/"))
        }
    }

    @Test("A next_url under baseURL's path (Datasette's pagination) is that path; one outside it says how to reach it")
    func pathPrefix() throws {
        let base = try TypedAPI.ServerEnvironment(url: "http://127.0.0.1:8001/library")
        let (path, origin) = try UntypedRequest.target("http://127.0.0.1:8001/library/books.json?_next=100", base: base, crossOrigin: false)
        #expect(path == "/books.json?_next=100" && origin == nil)
        #expect(throws: ArgumentError.self) {
            try UntypedRequest.target("http://127.0.0.1:8001/other/x", base: base, crossOrigin: false)
        }
        #expect(throws: ArgumentError.self) {
            try UntypedRequest.target("http://ada:pw@127.0.0.1:8001/library/x", base: base, crossOrigin: false)
        }
    }
}

/// JSON string quoting for the echo server's body.
enum ValueFormatterProbe {
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
