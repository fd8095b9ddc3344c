import FaultServer
import Foundation
import Testing
@testable import Typist
@testable import TypistCore
import TypistTesting
import TypistWorkshop

/// A host written against an earlier release (Tests/CompatibilityHost) builds and starts, and its
/// endpoint names win over the shell's own: `session.token` and `Swift.print` reach the shell's.
@Suite("A host written against an earlier release")
struct CompatibilityHostTests {
    /// An httpbin-like service answering the fixture host's six paths.
    private static func service() throws -> FaultServer {
        try FaultServer { connection in
            let target = connection.requestHead.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let path = target.split(separator: "?").first.map(String.init) ?? target
            let body = switch path {
            case "/cookies": #"{"cookies": {"flavour": "oat"}}"#
            case "/headers": #"{"headers": {"Accept": "application/json"}}"#
            case "/token": #"{"token": "issued-by-service"}"#
            case "/user/7": #"{"id": 7, "name": "Grace"}"#
            case "/get": #"{"url": "http://x\#(target)", "args": {"q": "swift"}}"#
            case "/print": #"{"printed": true}"#
            default: #"{"error": "no such path"}"#
            }
            try connection.respond(status: path == "/" ? "404 Not Found" : "200 OK", body: Array(body.utf8))
        }
    }

    @Test("It starts, its cookies/headers/token/user/get/print endpoints are called by their names, the shell's by session. and Swift.")
    func startsAndItsNamesWin() async throws {
        let server = try Self.service()
        defer { server.stop() }
        try await withTemporaryFolder("typist-compat") { folder in
            let script = folder.appendingPathComponent("compat.api")
            try """
                let jar = cookies()
                Swift.print(jar.cookies["flavour"] ?? "none")
                Swift.print(headers().headers["Accept"] ?? "none")
                session.token = "compat-secret-token-1"
                Swift.print(token().token)
                Swift.print(user(id: 7).name)
                Swift.print(get(q: "swift").args["q"] ?? "none")
                Swift.print(print().printed)
                Swift.print(session.cookies.count, session.headers.count)
                expect(session.token != nil)
                expect(api.token().token == "issued-by-service")
                """.write(to: script, atomically: true, encoding: .utf8)
            let result = try await Built.run("compat-host", ["run", script.path, "--base-url", server.baseURL])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.standard == "oat\napplication/json\nissued-by-service\nGrace\nswift\ntrue\n0 0\n", "\(result.standard)")
            #expect(result.error.isEmpty, "\(result.error)")
        }
    }

    @Test("At its prompt, :help says which names are the host's and where the shell's properties went")
    func helpSaysWhichIsWhich() async throws {
        let result = try await Built.run("compat-host", ["--base-url", "http://127.0.0.1:9"], input: ":help\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.standard.contains("session.cookies"), "\(result.standard)")
        #expect(result.standard.contains("session.token"), "\(result.standard)")
    }

    @Test("A host that did not ask for the workshop has none of it: no lesson or swift-check, no :lesson, :explain or :glossary")
    func noWorkshopUnlessAsked() async throws {
        let help = try await Built.run("compat-host", ["--help"])
        #expect(help.status == 0)
        #expect(help.standard.contains("run"), "\(help.standard)")
        #expect(!help.standard.contains("lesson") && !help.standard.contains("swift-check"), "\(help.standard)")
        let lesson = try await Built.run("compat-host", ["lesson", "1"])
        #expect(lesson.status == ExitStatus.usage, "\(lesson.standard)\(lesson.error)")
        let prompt = try await Built.run("compat-host", ["--base-url", "http://127.0.0.1:9"], input: ":help\n:lesson\n")
        #expect(!prompt.standard.contains(":lesson") && !prompt.standard.contains(":glossary") && !prompt.standard.contains(":explain"),
                "\(prompt.standard)")
        #expect(prompt.error.contains("unknown command ':lesson'"), "\(prompt.error)")
        // typist asked for it.
        let typist = try await Built.run("typist", ["--help"])
        #expect(typist.standard.contains("lesson") && typist.standard.contains("swift-check"), "\(typist.standard)")
    }
}

/// A saved session replays on a host whose endpoint took a session property's name.
@Suite("Saved sessions on a host that took token")
struct SavedSessionSpellingTests {
    @Test(":token and :base are saved as session.token and session.baseURL where the host has endpoints of those names")
    func qualifiedInSavedScript() async throws {
        let registry = try EndpointRegistry {
            Register("token") { Endpoint<Public, String>(path: "/token") }
            Register("baseURL") { Endpoint<Public, String>(path: "/base") }
        }
        try await withTemporaryFolder("typist-saved-spelling") { folder in
            let output = CapturedOutput()
            let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: URLSessionTransport(), output: output.shellOutput)
            await shell.handle(":token saved-token-123")
            await shell.handle(":base http://127.0.0.1:8")
            let file = folder.appendingPathComponent("s.api")
            await shell.handle(":save \(file.path)")
            let saved = try String(contentsOf: file, encoding: .utf8)
            #expect(saved.contains(#"session.token = env("TYPIST_TOKEN")!"#), "\(saved)")
            #expect(saved.contains(#"session.baseURL = "http://127.0.0.1:8""#), "\(saved)")
            #expect(!saved.contains("saved-token-123"))
        }
    }
}

/// A host written before 0.4.0 that set `lessonDirectory` compiles and starts; its prompt says what
/// its lessons now need instead of losing them silently.
@Suite("A host with lessons and no workshop")
struct LessonsWithoutWorkshopTests {
    @Test("Its prompt starts with a note naming withWorkshop(); with the workshop there is none")
    func noteAtThePrompt() async throws {
        var host = ShellHost(name: "reading", registry: { try EndpointRegistry {} })
        host.lessonDirectory = URL(fileURLWithPath: "Workshop")
        let output = CapturedOutput()
        let status = await ShellCommandLine.main(host, arguments: ["--base-url", "http://127.0.0.1:9"],
                                                 input: ScriptedLineSource([":quit"]), output: output.shellOutput)
        #expect(status == 0)
        #expect(output.error.contains("reading sets lessonDirectory, but its lessons need the workshop"), "\(output.error)")
        #expect(output.error.contains("withWorkshop()"))
        let withWorkshop = CapturedOutput()
        _ = await ShellCommandLine.main(host.withWorkshop(), arguments: ["--base-url", "http://127.0.0.1:9"],
                                        input: ScriptedLineSource([":quit"]), output: withWorkshop.shellOutput)
        #expect(!withWorkshop.error.contains("lessonDirectory"), "\(withWorkshop.error)")
        // `check` says nothing (a script's error output is its own).
        let quiet = CapturedOutput()
        _ = await ShellCommandLine.main(host, arguments: ["check", "/dev/null"], output: quiet.shellOutput)
        #expect(!quiet.error.contains("lessonDirectory"), "\(quiet.error)")
    }
}
