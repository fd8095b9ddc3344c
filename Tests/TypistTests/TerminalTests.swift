import FaultServer
import Foundation
import Testing

/// The prompt in a real terminal. Skipped, and reported as skipped, where tmux is not installed.
@Suite("The prompt in a terminal (tmux)", .serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests cannot run here"))
struct TerminalTests {
    private func start(home: URL? = nil) async throws -> TmuxSession {
        let directory = try home ?? Self.temporaryHome()
        let session = try TmuxSession("'\(try Built.executable("typist").path)'", home: directory, removingHome: home == nil)
        try await session.waitFor("typist>")
        return session
    }

    /// Ends the session and expects every process under its pane gone (SIGTERM is enough when
    /// children are spawned with a clean signal mask).
    private func expectNothingLeft(_ session: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) {
        let left = session.close()
        #expect(left.isEmpty, "processes outlived their terminal: \(left)", sourceLocation: sourceLocation)
    }

    @Test("Closing a terminal ends typist and its demo service; nothing is left behind")
    func nothingLeftBehind() async throws {
        let session = try await start()
        let tree = ProcessTree.descendants(of: session.panePID)
        let names = tree.compactMap { try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8) }
        #expect(names.contains { $0.hasPrefix("typist") }, "typist runs under the pane: \(names)")
        // Blocked signals are inherited across fork and exec: a pane that blocks SIGTERM or SIGHUP
        // hands that on to typist, which would then outlive close().
        let status = try String(contentsOfFile: "/proc/\(session.panePID)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
        let mask = try #require(UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        #expect(mask & (1 << (UInt64(SIGTERM) - 1) | 1 << (UInt64(SIGHUP) - 1)) == 0, "the pane blocks \(line)")
        let left = session.close()
        #expect(left.isEmpty, "processes outlived their terminal: \(left)")
        #expect(tree.allSatisfy { !ProcessTree.isAlive($0) })
    }

    @Test("A terminal whose test process is gone without closing it ends with everything in it")
    func endsWithItsTestProcess() async throws {
        let session = try await start()
        let tree = ProcessTree.descendants(of: session.panePID) + [session.panePID]
        // What a crashed test process's closing descriptors do to the warden.
        session.warden.closeInput()
        let deadline = ContinuousClock.now + .seconds(60) // a guard against the failure, not a measure
        while tree.contains(where: ProcessTree.isAlive), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!tree.contains(where: ProcessTree.isAlive), "the terminal outlived its test process")
        expectNothingLeft(session)
    }

    static func temporaryHome() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("typist-tmux-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("Tab completes a model's fields before any call, with no space after a member")
    func fieldsBeforeAnyCall() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("post(id: 1).")
        try session.send("Tab", "Tab")
        let screen = try await session.waitFor("userId")
        #expect(screen.contains("body") && screen.contains("title"))
        // In the order Post declares them, as Xcode lists them, not alphabetically.
        let listing = try #require(screen.split(separator: "\n").first { $0.contains("userId") && $0.contains("body") })
        let order = ["userId", "id ", "title", "body"].compactMap { listing.range(of: $0)?.lowerBound }
        #expect(order.count == 4 && order == order.sorted(), "\(listing)")
        try session.type("ti")
        try session.send("Tab")
        try session.type("|")
        try await session.waitFor("post(id: 1).title|")
        try await session.clearLine()
        try session.type(":endpoints")
        try session.send("Enter")
        try await session.waitFor("search(query: String) -> Endpoint<Bearer, SearchResults>")
    }

    @Test("Tab completes through subscripts and closures")
    func throughSubscripts() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("searchRepositories(query: \"swift\").items[0].na")
        try session.send("Tab")
        try session.type("|")
        try await session.waitFor("items[0].name|")
        try await session.clearLine()
        try session.type("posts().filter { $0.user")
        try session.send("Tab")
        try await session.waitFor("$0.userId")
    }

    @Test("Ctrl-C during a slow call cancels it, and the session goes on")
    func cancelSlowCall() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("let kept = post(id: 3).id")
        try session.send("Enter")
        try session.type("slow(ms: 60000)")
        try session.send("Enter")
        try await session.waitFor("Ctrl-C cancels")
        try session.send("C-c")
        try await session.waitFor("cancelled")
        try session.type("kept * 10")
        try session.send("Enter")
        try await session.waitFor("30")
    }

    @Test("A stream's items show as they arrive; Ctrl-C ends the stream, and the session goes on with what came")
    func streamUntilCtrlC() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("let kept = 7")
        try session.send("Enter")
        // A million events 200 ms apart would take days: what shows, shows as it arrives.
        try session.type("events(count: 1000000, gapMs: 200).map(\\.n)")
        try session.send("Enter")
        try await session.waitFor("\n3\n")
        try session.send("C-c")
        try await session.waitFor("(interrupted)")
        try await session.waitForEmptyPrompt()
        try session.type("[kept, _.count > 2 ? 1 : 0, _[0]]")
        try session.send("Enter")
        try await session.waitFor("[7, 1, 1]")
    }

    @Test("History persists across runs, mode 0600, without the token line")
    func history() async throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            let first = try await start(home: home)
            defer { expectNothingLeft(first) }
            try first.type("let answer = 41 + 1")
            try first.send("Enter")
            try first.type("token = \"super-secret-token\"")
            try first.send("Enter")
            try first.type("login(user: \"ada\", password: \"lovelace\").expiresIn")
            try first.send("Enter")
            try await first.waitFor("3600")
            // Ctrl-D once the prompt is back (see LessonTerminalTests: one typed ahead is the terminal's).
            try await first.waitForEmptyPrompt()
            try first.send("C-d")
            try await first.waitFor("EXIT=0")
        }
        let file = home.appendingPathComponent("state/typist/history")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("let answer = 41 + 1"))
        #expect(!text.contains("super-secret-token") && !text.contains("lovelace"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let second = try await start(home: home)
        defer { expectNothingLeft(second) }
        try second.send("Up")
        try await second.waitFor("typist> let answer = 41 + 1")
    }

    @Test(":token with no value reads the token without echo")
    func tokenWithoutEcho() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type(":token")
        try session.send("Enter")
        try await session.waitFor("Paste the access token, then Enter (it is not shown; Enter alone sets none):")
        try session.type("hidden-value-123")
        try session.send("Enter")
        let screen = try await session.waitFor("token = ••••")
        #expect(!screen.contains("hidden-value-123"))
        try session.type("print(token!)")
        try session.send("Enter")
        try await session.waitFor("••••\n")
    }

    @Test(":clear empties the screen; the session goes on")
    func clearScreen() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("print(\"marker-before-clear\")")
        try session.send("Enter")
        try await session.waitFor("marker-before-clear\n")
        try session.type(":clear")
        try session.send("Enter")
        try await session.waitForEmptyPrompt()
        #expect(!(try session.screen()).contains("marker-before-clear"), "the screen still shows earlier output")
        try session.type("1 + 1")
        try session.send("Enter")
        try await session.waitFor("2\n")
    }

    @Test("Ctrl-C during a command cancels what it runs (:load), and ends :token's hidden input")
    func ctrlCDuringCommands() async throws {
        try await withTemporaryFolder("typist-ctrlc") { folder in
            let script = folder.appendingPathComponent("slow.api")
            try "print(\"loading\")\nslow(ms: 60000)\nprint(\"loaded\")\n".write(to: script, atomically: true, encoding: .utf8)
            let session = try await start()
            defer { expectNothingLeft(session) }
            try session.type(":load \(script.path)")
            try session.send("Enter")
            try await session.waitFor("Ctrl-C cancels")
            try session.send("C-c")
            let screen = try await session.waitFor("cancelled")
            #expect(!screen.contains("loaded\n"), "\(screen)")
            try await session.waitForEmptyPrompt()
            // :token waits for hidden input; Ctrl-C ends the wait and sets nothing.
            try session.type(":token")
            try session.send("Enter")
            try await session.waitFor("Enter alone sets none):")
            try session.send("C-c")
            try await session.waitFor("no token set")
            try await session.waitForEmptyPrompt()
            try session.type("1 + 1")
            try session.send("Enter")
            try await session.waitFor("2\n")
        }
    }

    @Test("Ctrl-C during :openapi of a document that never arrives cancels it; the session goes on as it was")
    func ctrlCDuringOpenAPI() async throws {
        let server = try FaultServer { connection in try connection.waitForClose() }
        defer { server.stop() }
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("let kept = 6")
        try session.send("Enter")
        try session.type(":openapi \(server.baseURL)/openapi.yaml")
        try session.send("Enter")
        try await session.waitFor("Ctrl-C cancels")
        try session.send("C-c")
        try await session.waitFor("was not read; the session is as it was")
        try await session.waitForEmptyPrompt()
        try session.type("kept * 7")
        try session.send("Enter")
        try await session.waitFor("42\n")
    }

    @Test("Unfinished input gets a continuation prompt; Ctrl-C drops it; Ctrl-D exits")
    func continuationAndExit() async throws {
        let session = try await start()
        defer { expectNothingLeft(session) }
        try session.type("for i in 0..<2 {")
        try session.send("Enter")
        try await session.waitFor("...>")
        try session.type("print(\"line \\(i)\")")
        try session.send("Enter")
        try session.type("}")
        try session.send("Enter")
        try await session.waitFor("line 1")
        try session.type("let unfinished = [1,")
        try session.send("Enter")
        try await session.clearLine()
        try session.type("unfinished")
        try session.send("Enter")
        try await session.waitFor("cannot find 'unfinished' in scope")
        try await session.waitForEmptyPrompt()
        try session.send("C-d")
        try await session.waitFor("EXIT=0")
    }
}
