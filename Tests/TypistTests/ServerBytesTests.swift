import FaultServer
import Foundation
import Testing
import Typist

/// Bytes from a server are data: nothing it sends drives the terminal or takes the session down.
@Suite("Server bytes in the shell")
struct ServerBytesTests {
    static let hostile = "\u{1B}]0;retitled\u{07}\u{1B}[2J\u{1B}[31mred\u{0}nul\u{9B}csi"

    @Test("Escape sequences and NUL in an error body, :last and printed values come out escaped")
    func controlCharactersEscaped() async throws {
        let server = try FaultServer { connection in
            try connection.respond(status: "404 Not Found", headers: ["Content-Type: text/plain"],
                                   body: Array(Self.hostile.utf8))
        }
        defer { server.stop() }
        try await withDemoShell { shell, output, _ in
            await shell.handle("baseURL = \"\(server.baseURL)\"")
            await shell.handle("post(id: 1)")
            await shell.handle(":last")
            await shell.handle("print(response!.body)")
            await shell.handle("response!.body")
            await shell.handle(":format json")
            await shell.handle("post(id: 1)")
            let all = output.all
            #expect(all.contains("404"))
            #expect(all.contains("\\u{1B}]0;retitled"), "\(all)")
            for control in ["\u{1B}", "\u{0}", "\u{07}", "\u{9B}"] {
                #expect(!all.contains(control), "a raw \(control.unicodeScalars.first!.value) reached the output")
            }
        }
    }

    @Test("JSON nested 100,000 deep is an error, in an endpoint's answer and in json(_:)")
    func deepJSON() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let server = try FaultServer { connection in try connection.respond(body: Array(deep.utf8)) }
        defer { server.stop() }
        try await withDemoShell { shell, output, _ in
            await shell.handle("baseURL = \"\(server.baseURL)\"")
            #expect(await shell.handle("posts()") == false)
            #expect(await shell.handle("json(String(repeating: \"[\", count: 100000))") == false)
            #expect(output.error.contains("error:"))
            #expect(await shell.handle("1 + 1"), "the session goes on")
        }
    }
}
