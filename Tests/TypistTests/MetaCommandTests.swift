import APIScript
import DemoBindings
import FaultServer
import Foundation
import Testing
import Typist
import TypistProcess

/// What each command prints is compared whole in `MetaCommandTranscriptTests`; these check what a
/// transcript cannot: the transport `:swift` names per executable, files `:save` and `:load`
/// write and read, and environments' variables.
@Suite("Meta commands")
struct MetaCommandTests {
    @Test(":swift makes the client with the transport the session uses")
    func swiftTransport() async throws {
        // (The in-process fixture's AsyncHTTPClient session is in the transcript.) typist's default
        // is curl; urlsession needs no import beyond TypedAPI.
        func expected(_ imports: String, _ transport: String) -> String {
            imports + "\nlet client = APIClient(environment: try ServerEnvironment(url: \"BASE\"),\n"
                + "                       transport: \(transport)())\n"
                + "let result: Post = try await client.send(.post(id: 1))\n"
        }
        func normalized(_ text: String) -> String {
            text.replacingOccurrences(of: #"http://127\.0\.0\.1:\d+"#, with: "BASE", options: .regularExpression)
        }
        let curl = try await Built.run("typist", [], input: ":swift post(id: 1)\n")
        #expect(normalized(curl.standard) == expected("import Foundation\nimport TypedAPI\nimport TypedAPICurl\nimport DemoService\n", "CurlTransport"))
        let session = try await Built.run("typist", ["--transport", "urlsession"], input: ":swift post(id: 1)\n")
        #expect(normalized(session.standard) == expected("import Foundation\nimport TypedAPI\nimport DemoService\n", "URLSessionTransport"))
    }

    @Test(":save writes the successful inputs without secrets; :load runs a script into the session")
    func saveAndLoad() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-save-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("session.api").path
        try await withDemoShell { shell, output, _ in
            await shell.handle("let firstTitle = post(id: 1).title")
            await shell.handle("token = \"hunter2-secret\"")
            await shell.handle("login(user: \"ada\", password: \"lovelace\")")
            await shell.handle("post(id: 99999)")
            await shell.handle(":save \(saved)")
            let text = try String(contentsOfFile: saved, encoding: .utf8)
            #expect(text.contains("let firstTitle = post(id: 1).title"))
            #expect(!text.contains("hunter2") && !text.contains("lovelace"))
            #expect(!text.contains("99999"), "failed inputs are not saved")
            let script = directory.appendingPathComponent("helpers.api").path
            try "let loadedCount = posts().count\nfunc double(_ x: Int) -> Int { x * 2 }\n".write(toFile: script, atomically: true, encoding: .utf8)
            output.clear()
            let handled7 = await shell.handle(":load \(script)")
            #expect(handled7)
            let value1 = try await shell.evaluate("double(loadedCount)")
            #expect(value1 == .int(200))
        }
    }

    @Test(":env lists and switches environments; unknown names are reported")
    func environments() async throws {
        try await withDemoShell(environments: { base in
            [NamedEnvironment(name: "local", baseURL: base, variables: ["who": "ada"]),
             NamedEnvironment(name: "nowhere", baseURL: "http://127.0.0.1:9")]
        }) { shell, output, server in
            await shell.handle(":env nowhere")
            #expect(await shell.handle("posts()") == false, "requests go to the environment's base URL")
            await shell.handle(":env local")
            let value2 = try await shell.evaluate("who")
            #expect(value2 == .string("ada"))
            let value3 = try await shell.evaluate("posts().count")
            #expect(value3 == .int(100))
        }
    }

    @Test(":quit ends the prompt")
    func quit() async throws {
        try await withDemoShell { shell, _, _ in
            let lines = ScriptedLineSource(["let a = 1", ":quit", "print(\"never\")"])
            #expect(await shell.runPrompt(lines) == 0)
            #expect(lines.prompts.count == 2)
        }
    }
}

/// `:curl` prints commands that run: pasted into a shell with the session's secrets exported,
/// they get the answers the session gets.
@Suite("Runnable :curl")
struct RunnableCurlTests {
    /// Runs `script` with `/bin/sh` on a thread of its own: the command calls the demo service in
    /// this process, whose handlers need the concurrency pool this test must not block.
    private func runShell(_ script: String, environment: [String: String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runShellBlocking(script, environment: environment) })
            }.start()
        }
    }

    private func runShellBlocking(_ script: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run(["/bin/sh", "-c", script],
                                          environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return (result.status, String(decoding: result.output, as: UTF8.self))
    }

    @Test("A bearer call and a login with a password full of shell characters run as printed, secrets from the environment")
    func commandsRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "the curl command is needed (apt-get install curl)")
        try await withDemoShell { shell, output, _ in
            await shell.handle("login(user: \"ada\", password: \"lovelace\")")
            guard case .secret(let token) = try await shell.evaluate("token") else {
                Issue.record("no token after login")
                return
            }
            output.clear()
            await shell.handle(":curl search(query: \"book\")")
            #expect(!output.standard.contains(token))
            let search = try await runShell(output.standard, environment: ["TYPIST_TOKEN": token])
            #expect(search.status == 0)
            #expect(search.output.contains(#""total":5"#), "\(search.output)")

            output.clear()
            let password = #"it's "$HOME" \`x\`"#
            await shell.handle(":curl login(user: \"ada\", password: \"\(password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\")")
            #expect(output.standard.contains("${TYPIST_PASSWORD}") && !output.standard.contains("$HOME"), "\(output.standard)")
            // With the right password exported, the demo logs in: the body arrived intact.
            let login = try await runShell(output.standard, environment: ["TYPIST_PASSWORD": "lovelace"])
            #expect(login.output.hasPrefix(#"{"result":{"expiresIn":3600,"token":"demo-"#), "\(login.output)")
        }
    }

    @Test("The session's TLS options are in :curl for an https URL only: a plain http one prints no paths of this machine")
    func tlsOnlyForHTTPS() async throws {
        let tls = TLSOptions(certificateAuthorities: "/etc/private/ca.pem", clientCertificate: "/etc/private/client.pem",
                             clientKey: "/etc/private/client.key", verifiesServer: false)
        for (url, shown) in [("https://127.0.0.1:9", true), ("http://127.0.0.1:9", false)] {
            var environment = try ServerEnvironment(url: url)
            environment.tls = tls
            let output = CapturedOutput()
            let shell = try Shell(registry: try DemoBindings.registry(), environment: environment,
                                  transport: URLSessionTransport(), output: output.shellOutput)
            await shell.handle(#":curl httpGet("/posts")"#)
            let command = output.standard
            #expect(command.contains("'\(url)/posts'"), "\(command)")
            for option in ["--cacert '/etc/private/ca.pem'", "--cert '/etc/private/client.pem'", "--key '/etc/private/client.key'", "--insecure"] {
                #expect(command.contains(option) == shown, "\(url): \(command)")
            }
        }
    }
}
