import DemoBindings
import Foundation
import Synchronization
import TypedAPI
import LineEditor
import Testing
@testable import Typist
@testable import TypistCore

/// The meta commands come from one table: dispatch, aliases, `:help`, the "did you mean"
/// suggestion and Tab completion of each command's argument all read it.
@Suite("Meta command table")
struct MetaCommandTableTests {
    @Test("Every command and alias in the table runs, and :help of each shows its usage")
    func dispatchAndHelp() async throws {
        try await withDemoShell { shell, output, _ in
            for command in MetaCommand.all {
                output.clear()
                await shell.handle(":help \(command.name)")
                let aliases = command.aliases.isEmpty ? "" : "\n  also: " + command.aliases.map { ":" + $0 }.joined(separator: ", ")
                #expect(output.standard == "\(command.usage)\n  \(command.summary)\(aliases)\n")
            }
            output.clear()
            await shell.handle(":?")
            #expect(output.standard.hasPrefix("Typist — call typed endpoints as functions"))
        }
    }

    @Test("An unknown command suggests the nearest one only when it is a likely typo")
    func unknownCommands() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":descrbe post")
            #expect(output.error == "error: unknown command ':descrbe'; did you mean ':describe'? (:help lists them)\n")
            output.clear()
            await shell.handle(":zzzzzz")
            #expect(output.error == "error: unknown command ':zzzzzz' (:help lists them)\n")
            output.clear()
            await shell.handle(":describe psot")
            #expect(output.error == "error: no endpoint or type named 'psot'; did you mean 'post'?\n")
        }
    }

    @Test("Tab after :load and :save offers .api files and directories, cut to the word readline replaces")
    func fileCompletion() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("typist-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts/tokens"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["scripts/tour.api", "scripts/token-flow.api", "scripts/todo.txt", "scripts/.hidden.api"] {
            try Data().write(to: root.appendingPathComponent(name))
        }
        let base = root.path + "/scripts/"
        // `scripts/to` completes the word `to` (readline breaks words at `/`).
        #expect(MetaCommand.pathCandidates(base + "to", extensions: ["api"]) == ["token-flow.api", "tokens/", "tour.api"])
        // `token-flow.a` completes the word `a` (and `-` and `.` break words too).
        #expect(MetaCommand.pathCandidates(base + "token-flow.a", extensions: ["api"]) == ["api"])
        #expect(MetaCommand.pathCandidates(base, extensions: ["api"]) == ["token-flow.api", "tokens/", "tour.api"])
        #expect(MetaCommand.pathCandidates(base + ".h", extensions: ["api"]) == ["hidden.api"])
        #expect(MetaCommand.pathCandidates(base + "nothing", extensions: ["api"]).isEmpty)
        #expect(MetaCommand.pathCandidates(root.path + "/missing/x", extensions: ["api"]).isEmpty)
    }

    @Test("Tab completes each command's argument by its kind")
    func argumentCompletion() async throws {
        try await withDemoShell { shell, _, _ in
            func candidates(_ line: String) -> [String] { TerminalLineSource.complete(line, shell: shell).candidates }
            #expect(candidates(":") == MetaCommand.all.map(\.name))
            #expect(candidates(":format ") == ["pretty", "json", "table"])
            #expect(candidates(":describe po").contains("posts"))
            #expect(candidates(":type post(id: 1).ti").contains("title"))
            #expect(candidates(":vars x").isEmpty)
            #expect(candidates(":load Examples/to") == ["tour.api"])
        }
    }
}

@Suite("Help on the session's properties and the language's types")
struct SessionHelpTests {
    @Test(":help answers for session properties, from their registration, and for the built-in types")
    func help() async throws {
        try await withDemoShell { shell, output, _ in
            for (topic, expected) in [
                ("baseURL", "baseURL: String\n  where requests go, such as http://127.0.0.1:8080\n"),
                ("response", "response: Exchange? (read-only)\n"),
                ("Secret", "Secret — text that prints as •••• (token, apiKey, password arguments); use it like a String\n"),
                ("Int", "Int(_ value) -> Int? — from a String (nil when not a number) or a Double\nInt — a whole number"),
            ] {
                output.clear()
                await shell.handle(":help \(topic)")
                #expect(output.standard.hasPrefix(expected), "\(topic): \(output.standard)")
            }
        }
    }
}

/// What a host gives its shell beyond endpoints: headers on every request and a delegate.
@Suite("The host's headers and delegate")
struct HostClientTests {
    final class Signer: APIClientDelegate {
        let seen = Mutex<[String]>([])
        func client(_ client: APIClient, willSend request: inout PreparedRequest) async throws {
            request.setHeader(.custom(name: "X-Signature", value: "signed"))
        }
        func client(_ client: APIClient, didReceive exchange: Exchange) {
            seen.withLock { $0.append(exchange.url) }
        }
    }

    @Test("Host headers go on every request, the host's delegate signs and observes, and :last still records")
    func headersAndDelegate() async throws {
        let transport = InMemoryTransport(json: #"{"userId": 1, "id": 1, "title": "t", "body": "b"}"#)
        let signer = Signer()
        let output = CapturedOutput()
        let shell = try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: "https://api.example.test"),
                              transport: transport, output: output.shellOutput,
                              headers: [.custom(name: "X-Client", value: "reading/1.0")], delegate: signer)
        _ = try await shell.evaluate("post(id: 1).id")
        let sent = try #require(transport.last)
        #expect(sent.header("X-Client") == "reading/1.0")
        #expect(sent.header("X-Signature") == "signed")
        #expect(signer.seen.withLock { $0 } == ["https://api.example.test/posts/1"])
        await shell.handle(":last")
        #expect(output.standard.hasPrefix("GET https://api.example.test/posts/1\n"), "\(output.standard)")
    }
}
