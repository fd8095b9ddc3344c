import Foundation
import Testing
import TypistProcess
@testable import Typist
@testable import TypistCore

/// The built `typist` and `example-host` binaries, run as a user runs them.
@Suite("The typist command line")
struct CommandLineTests {
    @Test("The process preparation tunes glibc's allocator (and does nothing elsewhere), in a process of its own")
    func tuneAllocator() async throws {
        let probe = try await Built.run("typist-allocator-probe", [])
        #expect(probe.status == 0, "\(probe.error)")
        #if canImport(Glibc)
        #expect(probe.standard == "tuned\n")
        #else
        #expect(probe.standard == "untouched\n")
        #endif
        // One switch turns the platform tuning off.
        let plain = try await Built.run("typist-allocator-probe", [], environment: ["TYPIST_PLAIN": "1"])
        #expect(plain.standard == "untouched\n", "\(plain.error)")
    }

    @Test("Every example script runs against the built-in demo service and exits 0",
          arguments: ["smoke.api", "tour.api", "dogs.api", "blog.api", "github.api", "accounts.api", "faults.api", "builds.api"])
    func examples(name: String) async throws {
        let result = try await Built.run("typist", ["run", "Examples/\(name)"])
        #expect(result.status == 0, "\(name): \(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(!result.standard.isEmpty)
    }

    @Test("smoke.api prints what it checked")
    func smokeOutput() async throws {
        let result = try await Built.run("typist", ["run", "Examples/smoke.api"])
        #expect(result.standard.hasPrefix("1: explore integer prompt server shape envelope status layer\n"))
        #expect(result.standard.hasSuffix("smoke test passed\n"))
    }

    @Test("check: a misspelt member exits 65 with a suggestion, and sends nothing")
    func checkMisspelling() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("typo.api")
        try "let first = post(id: 1)\nprint(first.titel)\nprint(undefinedName)\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try await Built.run("typist", ["check", "typo.api"], environment: ["TYPIST_TOKEN": "x"], directory: directory)
        #expect(result.status == 65)
        #expect(result.error == """
            typo.api:2:13: error: Post has no member 'titel'
                print(first.titel)
                            ^~~~~
            note: did you mean 'title'?
            typo.api:3:7: error: cannot find 'undefinedName' in scope
                print(undefinedName)
                      ^~~~~~~~~~~~~

            """)
        #expect(try await Built.run("typist", ["check", "Examples/smoke.api"]).status == 0)
    }

    @Test("Exit statuses: 1 for a failed expect or runtime error, 65 for syntax errors, 64 for usage")
    func exitStatuses() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func script(_ text: String) throws -> String {
            let url = directory.appendingPathComponent("s\(UUID().uuidString.prefix(6)).api")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let failed = try await Built.run("typist", ["run", try script("expect(posts().count == 99, \"count\")\n")])
        #expect(failed.status == 1)
        #expect(failed.error.contains("error: expectation failed: (posts().count → 100) == 99"))
        #expect(try await Built.run("typist", ["run", try script("print(post(id: 12345).title)\n")]).status == 1)
        #expect(try await Built.run("typist", ["run", try script("let = 1\n")]).status == 65)
        #expect(try await Built.run("typist", ["run", "no-such-file.api"]).status == 64)
        #expect(try await Built.run("typist", ["run"]).status == 64)
        #expect(try await Built.run("typist", ["--format", "yaml"]).status == 64)
        #expect(try await Built.run("typist", ["run", "Examples/smoke.api", "--var", "novalue"]).status == 64)
    }

    @Test("--var declares variables; --format json prints values and errors as JSON")
    func variablesAndJSON() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("vars.api")
        try "print(greeting, post(id: Int(postId)!))\nprint(post(id: 0).title)\n".write(to: url, atomically: true, encoding: .utf8)
        let result = try await Built.run("typist", ["run", "vars.api", "--var", "greeting=hi", "--var", "postId=2", "--format", "json"],
                                         directory: directory)
        #expect(result.status == 1)
        #expect(result.standard.hasPrefix(#"hi {"userId":1,"id":2,"title":"#))
        #expect(Built.normalized(result.error).hasPrefix(#"{"file": "vars.api", "line": 2, "column": 7, "severity": "error", "kind": "host", "message": "GET http://127.0.0.1:PORT/posts/0: 404 Not Found""#))
    }

    @Test("Tokens come from TYPIST_TOKEN, and never show")
    func tokenFromEnvironment() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("token.api")
        try "print(token ?? \"none\")\nprint(search(query: \"swift\").total)\n".write(to: url, atomically: true, encoding: .utf8)
        let without = try await Built.run("typist", ["run", url.path])
        #expect(without.status == 1)
        #expect(without.error.contains("needs an access token"))
        let with = try await Built.run("typist", ["run", url.path], environment: ["TYPIST_TOKEN": "not-valid-but-secret"])
        #expect(with.standard.hasPrefix("••••\n"))
        #expect(with.error.contains("401"))
        // A 401 to a call that sent a token says the token was refused, not that none was sent.
        #expect(with.error.contains(#"note: the service asks for credentials (WWW-Authenticate: Bearer realm="demo", error="invalid_token"): the token sent was refused"#),
                "\(with.error)")
        #expect(!(with.standard + with.error).contains("not-valid-but-secret"))
    }

    @Test("Environments come from typist.json beside the script; --env picks one")
    func environments() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"default": "broken", "environments": {"broken": {"baseURL": "http://127.0.0.1:9"}, "other": {"baseURL": "http://127.0.0.1:9", "variables": {"who": "ada"}}}}"#
            .write(to: directory.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
        let url = directory.appendingPathComponent("env.api")
        try "print(baseURL)\nprint(who)\n".write(to: url, atomically: true, encoding: .utf8)
        let result = try await Built.run("typist", ["run", url.path, "--env", "other"])
        #expect(result.standard == "http://127.0.0.1:9\nada\n", "\(result.error)")
        let unknown = try await Built.run("typist", ["run", url.path, "--env", "moon"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("no environment named 'moon'; known: broken, other"))
        try "{ not json".write(to: directory.appendingPathComponent("typist.json"), atomically: true, encoding: .utf8)
        #expect(try await Built.run("typist", ["run", url.path]).status == 64)
    }

    @Test("The prompt reads piped input plainly: no prompts, no escape codes; the first error ends it with status 1")
    func pipedPrompt() async throws {
        let result = try await Built.run("typist", [], input: "let n = posts().count\nn * 2\nfor i in 0..<2 {\n  print(i)\n}\npost(id: 0)\nprint(\"not reached\")\n")
        #expect(result.status == 1)
        #expect(result.standard == "200\n0\n1\n")
        #expect(!result.standard.contains("\u{1B}") && !result.standard.contains("typist>"))
        #expect(Built.normalized(result.error).hasPrefix("<stdin>:6:1: error: GET http://127.0.0.1:PORT/posts/0: 404 Not Found"),
                "\(result.error)")
        let quit = try await Built.run("typist", [], input: "print(1)\n:quit\nprint(2)\n")
        #expect(quit.status == 0 && quit.standard == "1\n")
        let check = try await Built.run("typist", [], input: "print(1)\nlet x = nope\n")
        #expect(check.status == 65 && check.standard.isEmpty, "checked before anything runs")
        #expect(check.error.hasPrefix("<stdin>:2:9: error: cannot find 'nope' in scope"))
    }

    @Test("A script's diagnostics name it by the path given (sub/x.api:2:9), from check, run and :load")
    func diagnosticsNameThePathGiven() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sub = directory.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try "let a = 1\nprint(a.nope)\n".write(to: sub.appendingPathComponent("x.api"), atomically: true, encoding: .utf8)
        let check = try await Built.run("typist", ["check", "sub/x.api"], directory: directory)
        #expect(check.status == 65)
        #expect(check.error.hasPrefix("sub/x.api:2:9: error:"), "\(check.error)")
        let run = try await Built.run("typist", ["run", "./sub/x.api"], directory: directory)
        #expect(run.error.hasPrefix("./sub/x.api:2:9: error:"), "\(run.error)")
        let loaded = try await Built.run("typist", [], input: ":load sub/x.api\n", directory: directory)
        #expect(loaded.error.hasPrefix("sub/x.api:2:9: error:"), "\(loaded.error)")
    }

    @Test("typist < file, typist run file and :load file run the same text the same way")
    func threeWaysAgree() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chain.api")
        let script = """
            // member chains continue on the next line; \"\"\" strings span lines
            let titles = posts()
                .filter { $0.userId == 1 }
                .map(\\.title)
            let note = \"\"\"
                first
                second
                \"\"\"
            print(titles.count, note)
            expect(titles.count == 11, "one user wrote ten")
            print("not reached")

            """
        try script.write(to: url, atomically: true, encoding: .utf8)
        let run = try await Built.run("typist", ["run", "chain.api"], directory: directory)
        let piped = try await Built.run("typist", [], input: script)
        let loaded = try await Built.run("typist", [], input: ":load chain.api\nprint(\"after\")\n", directory: directory)
        for result in [run, piped, loaded] {
            #expect(result.status == 1, "\(result.error)")
            #expect(result.standard == "10 first\nsecond\n")
        }
        #expect(run.error.hasPrefix("chain.api:10:1: error: expectation failed: (titles.count → 10) == 11"), "\(run.error)")
        #expect(piped.error.hasPrefix("<stdin>:10:1: error: expectation failed: (titles.count → 10) == 11"), "\(piped.error)")
        #expect(loaded.error.hasPrefix("chain.api:10:1: error: expectation failed"), "\(loaded.error)")
    }

    @Test("Ctrl-C ends a piped prompt with status 130")
    func interruptPiped() async throws {
        let termination = try await offThePool { try Self.interruptPipedBlocking() }
        #expect(termination == .exited(130))
    }

    private static func interruptPipedBlocking() throws -> Termination {
        let process = try ChildProcess([Built.executable("typist").path], directory: Built.packageRoot.path,
                                       input: .pipe, output: .pipe, errors: .null)
        process.send(Array("print(\"ready\")\n".utf8))
        Self.waitForReady(process)
        process.signal(SIGINT)
        return process.wait()
    }

    @Test("Piped input in pieces: a check error in a later piece says which lines had already run")
    func pipedInPieces() async throws {
        let (termination, errors) = try await offThePool { try Self.pipedInPiecesBlocking() }
        #expect(termination == .exited(65))
        #expect(errors.contains("<stdin>:3:9: error: cannot find 'nope' in scope"), "\(errors)")
        #expect(errors.contains("note: the input arrived in pieces: lines 1–2 had already run (and sent their requests) before line 3 arrived"),
                "\(errors)")
        // Arriving whole, it is checked before anything runs, and no note is needed.
        let whole = try await Built.run("typist", [], input: "print(\"ready\")\nprint(2)\nlet x = nope\n")
        #expect(whole.status == 65 && whole.standard.isEmpty)
        #expect(!whole.error.contains("pieces"))
    }

    private static func pipedInPiecesBlocking() throws -> (Termination, String) {
        let process = try ChildProcess([Built.executable("typist").path], directory: Built.packageRoot.path,
                                       input: .pipe, output: .pipe, errors: .pipe)
        process.send(Array("print(\"ready\")\nposts().count\n".utf8))
        // The first piece has run (its answer is out) before the second is written.
        Self.waitForReady(process)
        process.send(Array("let x = nope\n".utf8))
        process.closeInput()
        let said = process.readErrors(until: { _ in false })
        return (process.wait(), String(decoding: said, as: UTF8.self))
    }

    @Test("A script busy in a pure loop ends with 130 on SIGINT and 143 on SIGTERM", arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalsEndRun(signal: Int32, status: Int32) async throws {
        let ended = try await offThePool { try Self.signalRunBlocking(signal) }
        if ended.ignored { Issue.record("typist ignored signal \(signal)") }
        // It exits with the status, rather than dying of the signal (which a shell reports the same way).
        #expect(ended.termination == .exited(status))
    }

    /// Runs a spinning script, sends it `signal`, and waits (on the caller's thread) for it to end.
    private static func signalRunBlocking(_ signal: Int32) throws -> (ignored: Bool, termination: Termination) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("spin.api")
        try "print(\"ready\")\nvar n = 0\nwhile true { n += 1 }\n".write(to: script, atomically: true, encoding: .utf8)
        return try Self.signalWhenReady(["run", script.path, "--base-url", "http://127.0.0.1:9"], signal)
    }

    /// Runs typist with `arguments`, sends it `signal` once it prints "ready", and waits (on the
    /// caller's thread) for it to end; a signal it ignores for 60 s fails the test instead of hanging it.
    static func signalWhenReady(_ arguments: [String], _ signal: Int32) throws -> (ignored: Bool, termination: Termination) {
        let process = try ChildProcess([Built.executable("typist").path] + arguments, directory: Built.packageRoot.path,
                                       input: .null, output: .pipe, errors: .null)
        Self.waitForReady(process)
        let ended = process.end(signal, grace: .seconds(60))
        return (ended.killed, ended.termination)
    }

    /// Reads the process's output until it says "ready" (60 s at most, for a loaded machine).
    static func waitForReady(_ process: ChildProcess) {
        _ = process.readOutput(until: { String(decoding: $0, as: UTF8.self).contains("ready") })
    }

    @Test("--version and --help")
    func versionAndHelp() async throws {
        let version = try await Built.run("typist", ["--version"])
        #expect(version.status == 0 && version.standard.hasPrefix("0."))
        // Every subcommand has its own help, by `--help` and by `help NAME`.
        for (words, options) in [(["lesson", "--help"], ["--plain", "--handout", "--start", "--check"]),
                                 (["help", "lesson"], ["--plain", "--handout"]),
                                 (["swift-check", "--help"], ["--expect-failure"]), (["help", "swift-check"], ["--expect-failure"]),
                                 (["run", "--help"], ["--cacert", "--insecure"]), (["help", "check"], ["Report every static error"])] {
            let answer = try await Built.run("typist", words)
            #expect(answer.status == 0)
            for option in options { #expect(answer.standard.contains(option), "\(words): \(answer.standard)") }
        }
        let help = try await Built.run("typist", ["--help"])
        #expect(help.status == 0 && help.standard.contains("run") && help.standard.contains("check"))
    }

    @Test("Each subcommand shows and accepts only its own options; the prompt's may still come before run and check")
    func subcommandOptions() async throws {
        try await withTemporaryFolder("subcommand-options") { folder in
            let document = folder.appendingPathComponent("t.yaml")
            try Data("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n".utf8).write(to: document)
            let output = folder.appendingPathComponent("out").path
            // A session option given to generate was taken by the prompt and did nothing.
            let generate = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output, "--cassette", "x.har"])
            #expect(generate.status == 64 && generate.error.contains("Unknown option '--cassette'"), "\(generate.error)")
            #expect(!FileManager.default.fileExists(atPath: output))
            let written = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output])
            #expect(written.status == 0, "\(written.error)")
            let lesson = try await Built.run("typist", ["lesson", "1", "--base-url", "http://127.0.0.1:9"])
            #expect(lesson.status == 64 && lesson.error.contains("Unknown option '--base-url'"), "\(lesson.error)")
            // What the workshop's README shows: an instructor collects each check as JSON.
            let exercises = folder.appendingPathComponent("lesson-0").path
            _ = try await Built.run("typist", ["lesson", "0", "--start", exercises])
            let collected = try await Built.run("typist", ["lesson", "0", "--check", exercises, "--format", "json"])
            #expect(collected.standard.hasPrefix("{\"lesson\":0,"), "\(collected.standard) \(collected.error)")
            // From a shell, the list says how a shell starts a lesson.
            let listed = try await Built.run("typist", ["lesson"])
            #expect(listed.standard.hasPrefix("  typist lesson 0  Lesson 0"), "\(listed.standard)")
            #expect(!listed.standard.contains(":lesson"), "\(listed.standard)")
            let offline = try await Built.run("typist", ["lesson", "0", "--check", exercises, "--offline"])
            #expect(offline.status == 64 && offline.error.contains("drop --offline"), "\(offline.error)")
            let show = try await Built.run("typist", ["cassette", "show", "x.har", "--openapi", document.path])
            #expect(show.status == 64 && show.error.contains("--openapi and the options that go with it are for verify"), "\(show.error)")
            let script = folder.appendingPathComponent("s.api")
            try Data("print(1 + 1)\n".utf8).write(to: script)
            for words in [["--format", "json", "run", script.path], ["-k", "--no-color", "check", script.path], ["run", "--format=json", script.path]] {
                let result = try await Built.run("typist", words)
                #expect(result.status == 0, "\(words): \(result.error)")
            }
        }
        // Help shows what each command takes: generate's sources (an OpenAPI document or a GraphQL schema), no session options.
        let generate = try await Built.run("typist", ["generate", "--help"])
        #expect(generate.standard.contains("USAGE: typist generate [--openapi <spec>] [--graphql-schema <file>]"), "\(generate.standard)")
        let lesson = try await Built.run("typist", ["lesson", "--help"])
        let cassette = try await Built.run("typist", ["help", "cassette"])
        for (help, absent) in [(generate.standard, ["--cassette", "--base-url", "--format", "--var", "--validate"]),
                               (lesson.standard, ["--base-url", "--openapi", "--match", "--var"]),
                               (cassette.standard, ["--base-url", "--cassette", "--format", "--transport"])] {
            for option in absent { #expect(!help.contains(option), "\(option) in \(help)") }
        }
        let root = try await Built.run("typist", ["--help"])
        #expect(root.standard.contains("USAGE: typist [<options>]") && root.standard.contains("SUBCOMMANDS:")
                && root.standard.contains("--base-url") && !root.standard.contains("typist prompt"), "\(root.standard)")
        let unknown = try await Built.run("typist", ["--bogus"])
        #expect(unknown.status == 64 && unknown.error.contains("Usage: typist [<options>]"), "\(unknown.error)")
    }

    @Test("The prompt's flags, which subcommandFirst steps over, are every flag the prompt takes")
    func promptFlags() {
        let help = RootCommand.helpMessage(for: PromptCommand.self)
        var flags: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            // "  -k, --insecure          Do not check…", "  --base-url <base-url>   Where…"
            let names = line.dropFirst(2).components(separatedBy: "  ")[0]
            guard !names.contains("<") else { continue }
            for name in names.components(separatedBy: ", ") { flags.insert(name) }
        }
        flags.subtract(["-h", "--help", "--version"])
        #expect(flags == RootCommand.promptFlags)
    }

    @Test("--transport chooses among the host's transports: typist has curl (the default) and urlsession, not AsyncHTTPClient")
    func transports() async throws {
        for transport in ["curl", "urlsession"] {
            let result = try await Built.run("typist", ["--transport", transport], input: "post(id: 1).id\n")
            #expect(result.status == 0 && result.standard == "1\n", "\(transport): \(result.error)")
        }
        let unknown = try await Built.run("typist", ["--transport", "ahc"], input: "1\n")
        #expect(unknown.status == 64)
        #expect(unknown.error == "typist: unknown transport 'ahc'; choose curl, urlsession\n")
        // The executable links neither AsyncHTTPClient nor the TLS stack it brings.
        let binary = try Data(contentsOf: try Built.executable("typist"))
        for module in ["AsyncHTTPClient", "NIOSSL", "BoringSSL"] {
            #expect(binary.range(of: Data(module.utf8)) == nil, "typist contains \(module)")
        }
    }

    @Test("The example host builds, runs its own endpoints, and reuses the prompt, run and check")
    func exampleHost() async throws {
        let result = try await Built.run("example-host", ["run", "Examples/ExampleHost/reading-list.api"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.standard.hasPrefix("#25 by "))
        let prompt = try await Built.run("example-host", [], input: ":endpoints\narticle(number: 7).title\n")
        #expect(prompt.standard.contains("article(number: Int) -> Endpoint<Public, Article>  GET /posts/{number}"))
        let check = try await Built.run("example-host", ["check", "Examples/smoke.api"])
        #expect(check.status == 65, "the demo's functions are not this host's")
        #expect(check.error.contains("cannot find 'posts' in scope"))
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("typist-cli-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
