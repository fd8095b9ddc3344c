import DemoService
import Foundation
import Testing
import TypistProcess
@testable import TypedAPI

/// `--cassette`, `:record`, `typist cassette show` and `verify`, as a user runs them.
@Suite("Cassettes at the command line")
struct CassetteCommandTests {
    private static let script = """
        let p = post(id: 3)
        print(p.title)
        let session = login(user: "ada", password: "lovelace")
        token = session.token
        print(search(query: "swift").total)
        print(users().count)

        """

    /// Changes the first recorded response's body, as a service that drifted would answer.
    private static func rewriteFirstResponse(of har: String, replacing old: String, with new: String) throws {
        var cassette = try Cassette(contentsOf: har)
        guard case .response(let status, let reason, let headers, let body) = cassette.entries[0].outcome else {
            Issue.record("expected a response")
            return
        }
        let changed = String(decoding: body, as: UTF8.self).replacingOccurrences(of: old, with: new)
        #expect(changed != String(decoding: body, as: UTF8.self), "the recorded body has no \(old)")
        cassette.entries[0].outcome = .response(status: status, reason: reason, headers: headers, body: Data(changed.utf8))
        try cassette.write(to: har)
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("typist-cassette-cli-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A run on a document fetched by URL records the document with the calls, and replays with the same command line and no server")
    func documentByURLReplaysOffline() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("document.api")
        try "print(post(id: 3).title)\n".write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("document.har").path
        let server = try await DemoServer.start()
        let location = server.baseURL + "/openapi.yaml"
        let arguments = ["run", script.path, "--openapi", location, "--cassette", har]
        let recorded: Built.Result
        do {
            recorded = try await Built.run("typist", arguments + ["--record-mode", "once"], environment: ["XDG_CACHE_HOME": directory.path])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        #expect(recorded.status == 0, "\(recorded.error)")
        let cassette = try Cassette(contentsOf: har)
        #expect(cassette.entries.map(\.path) == ["/openapi.yaml", "/posts/3"], "\(cassette.entries.map(\.path))")
        // The server is gone (its port closed): the document and the call come from the cassette,
        // with the cache emptied so nothing is read from it either.
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("typist"))
        let replayed = try await Built.run("typist", arguments, environment: ["XDG_CACHE_HOME": directory.path, "CI": ""])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(replayed.standard == recorded.standard && !recorded.standard.isEmpty, "\(replayed.standard)")
    }

    @Test("Recorded once against the demo, replayed with no server; show lists it, verify passes; no secret in the file")
    func recordReplayShowVerify() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("session.api")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("session.har").path
        let recorded = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "once"])
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.error.isEmpty, "\(recorded.error)")
        var attributes = stat()
        #expect(stat(har, &attributes) == 0 && attributes.st_mode & 0o777 == 0o600)

        // Replay: the file exists, so `once` replays only, and no server is started (the base URL
        // is a closed port).
        let replayed = try await Built.run("typist", ["run", script.path, "--cassette", har], environment: ["CI": ""])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(replayed.standard == recorded.standard)

        let text = try String(contentsOfFile: har, encoding: .utf8)
        let cassette = try Cassette(contentsOf: har)
        // The password is masked where it was sent; `ada-lovelace`, a login in the users' data
        // that only contains it, is what the server said and stays.
        let login = String(decoding: cassette.entries[1].requestBody ?? Data(), as: UTF8.self)
        #expect(login.contains(#""password":"••••""#), "\(login)")
        #expect(!text.contains(#"\"lovelace\""#))
        #expect(text.contains("ada-lovelace"))
        #expect(cassette.entries.count == 4)
        // The token the login answered, masked in its response and in the search's header.
        #expect(cassette.entries[1].redactions.contains("response body"))
        #expect(cassette.entries[2].requestHeaders.contains { $0.name.lowercased() == "authorization" && $0.value == "Bearer ••••" })
        #expect(cassette.entries.map(\.label?.endpoint) == ["post", "login", "search", "users"])

        let show = try await Built.run("typist", ["cassette", "show", har])
        #expect(show.status == 0, "\(show.error)")
        #expect(show.standard.contains("GET     /posts/3    200     Post"), "\(show.standard)")
        #expect(show.standard.hasSuffix("4 exchanges\n"))
        let verify = try await Built.run("typist", ["cassette", "verify", har])
        #expect(verify.status == 0, "\(verify.standard)\(verify.error)")
        #expect(verify.standard.hasSuffix("4 responses decode with today's types\n"), "\(verify.standard)")
    }

    @Test("An untyped stream replays from its cassette; its items have no type to name or verify")
    func untypedStream() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("watch.api")
        try """
            for try await e in httpStream("/events", query: ["count": "2"]) {
                print(e.n, e.status)
            }

            """.write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("watch.har").path
        let recorded = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "once"])
        #expect(recorded.status == 0 && recorded.standard == "1 queued\n2 running\n", "\(recorded.standard)\(recorded.error)")
        let replayed = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "none"], environment: ["CI": ""])
        #expect(replayed.status == 0 && replayed.standard == recorded.standard, "\(replayed.standard)\(replayed.error)")
        // No Swift type: not an internal one's name (it showed `stream of StreamItemBytes`).
        #expect(try Cassette(contentsOf: har).entries.map(\.label?.responseType) == [nil])
        let show = try await Built.run("typist", ["cassette", "show", har])
        #expect(show.standard.contains("GET     /events  200     -"), "\(show.standard)")
    }

    @Test("A script that reads streams replays them from its cassette; show and verify read their items as the item type")
    func streams() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("builds.api")
        try """
            for try await e in events(count: 3) {
                print(e.n, e.status)
            }
            print(eventLines(count: 4).first { $0.n == 2 }?.log ?? "none")

            """.write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("builds.har").path
        let recorded = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "once"])
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.standard == "1 queued\n2 running\n3 passed\nstep 2\nsecond line\n", "\(recorded.standard)")
        let replayed = try await Built.run("typist", ["run", script.path, "--cassette", har], environment: ["CI": ""])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(replayed.standard == recorded.standard)
        // Each stream's exchange carries its endpoint and its item type, as a whole answer's does.
        let cassette = try Cassette(contentsOf: har)
        #expect(cassette.entries.map(\.label) == [ExchangeLabel(endpoint: "events", responseType: "BuildEvent"),
                                                   ExchangeLabel(endpoint: "eventLines", responseType: "BuildEvent")])
        let show = try await Built.run("typist", ["cassette", "show", har])
        #expect(show.status == 0, "\(show.error)")
        #expect(show.standard.contains("200     stream of BuildEvent"), "\(show.standard)")
        let verify = try await Built.run("typist", ["cassette", "verify", har])
        #expect(verify.status == 0, "\(verify.standard)\(verify.error)")
        #expect(verify.standard.contains("ok       1 GET /events → BuildEvent (a stream: 3 items)\n"), "\(verify.standard)")
        // The second was left after its second item: what had arrived by then is recorded.
        #expect(verify.standard.contains("ok       2 GET /events.ndjson → BuildEvent (a stream: "), "\(verify.standard)")
        #expect(verify.standard.hasSuffix("2 responses decode with today's types\n"), "\(verify.standard)")

        // Had the first stream's connection dropped after its events, both say so beside them.
        var cut = try Cassette(contentsOf: har)
        cut.entries[0].interruption = TransportFailure(.connectionClosed, detail: "the connection closed before the response was complete")
        try cut.write(to: har)
        let cutShow = try await Built.run("typist", ["cassette", "show", har])
        #expect(cutShow.standard.contains("200, then failed: closed  stream of BuildEvent"), "\(cutShow.standard)")
        let cutVerify = try await Built.run("typist", ["cassette", "verify", har])
        #expect(cutVerify.status == 0, "\(cutVerify.standard)\(cutVerify.error)")
        #expect(cutVerify.standard.contains("ok       1 GET /events → BuildEvent (a stream: 3 items, then failed: closed)\n"),
                "\(cutVerify.standard)")

        // The service changed: the second event's number became a string. Verify names the item.
        try Self.rewriteFirstResponse(of: har, replacing: #""n":2,"#, with: #""n":"2","#)
        let drift = try await Built.run("typist", ["cassette", "verify", har])
        #expect(drift.status == 1)
        #expect(drift.standard.contains("DRIFT    1 GET /events → BuildEvent: item 2 at n: expected Int"), "\(drift.standard)")
    }

    @Test("A script stopped by a signal while it records keeps what it recorded", arguments: [SIGINT, SIGTERM])
    func interruptedRecording(signal: Int32) async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("busy.api")
        try "for id in 1...3 { print(post(id: id).id) }\nprint(\"ready\")\nvar n = 0\nwhile true { n += 1 }\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("busy.har").path
        let ended = try await offThePool {
            try CommandLineTests.signalWhenReady(["run", script.path, "--cassette", har, "--record-mode", "all"], signal)
        }
        #expect(!ended.ignored)
        #expect(ended.termination == .exited(signal == SIGINT ? 130 : 143))
        let cassette = try Cassette(contentsOf: har)
        #expect(cassette.entries.map(\.url).map { URL(string: $0)?.path } == ["/posts/1", "/posts/2", "/posts/3"])
        var attributes = stat()
        #expect(stat(har, &attributes) == 0 && attributes.st_mode & 0o777 == 0o600)
    }

    @Test("A script stopped by a signal while it reads a stream keeps what the stream had sent, and it replays", arguments: [SIGINT, SIGTERM])
    func interruptedStream(signal: Int32) async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("watch.api")
        try "for try await e in events(count: 1000000, gapMs: 50) {\n  print(e.n)\n  if e.n == 3 { print(\"ready\") }\n}\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("watch.har").path
        let ended = try await offThePool {
            try CommandLineTests.signalWhenReady(["run", script.path, "--cassette", har, "--record-mode", "all"], signal)
        }
        #expect(ended.termination == .exited(signal == SIGINT ? 130 : 143))
        // Written before the program ended: the stream's events up to the last whole one.
        let cassette = try Cassette(contentsOf: har)
        #expect(cassette.entries.map(\.url).map { URL(string: $0)?.path } == ["/events"])
        guard case .response(let status, _, _, let body)? = cassette.entries.first?.outcome else {
            Issue.record("no answer recorded: \(cassette.entries)")
            return
        }
        #expect(status == 200)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#""n":3"#) && text.hasSuffix("\n"), "\(text)")
        // Replayed with no service, the script reads those events and ends where they end.
        try "for try await e in events(count: 1000000, gapMs: 50) { print(e.n) }\n".write(to: script, atomically: true, encoding: .utf8)
        let replayed = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "none"])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(replayed.standard.hasPrefix("1\n2\n3\n"), "\(replayed.standard)")
    }

    @Test("A second program recording into a cassette another is recording into is refused, naming it; the first keeps all it recorded")
    func concurrentWriters() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let busy = directory.appendingPathComponent("busy.api")
        try "for id in 1...3 { print(post(id: id).id) }\nprint(\"ready\")\nvar n = 0\nwhile true { n += 1 }\n"
            .write(to: busy, atomically: true, encoding: .utf8)
        let other = directory.appendingPathComponent("other.api")
        try "print(post(id: 9).id)\n".write(to: other, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("shared.har").path
        let first = try ChildProcess([Built.executable("typist").path, "run", busy.path, "--cassette", har, "--record-mode", "all"],
                                     directory: Built.packageRoot.path, input: .null, output: .pipe, errors: .null)
        CommandLineTests.waitForReady(first)
        for mode in ["all", "new"] {
            let second = try await Built.run("typist", ["run", other.path, "--cassette", har, "--record-mode", mode])
            #expect(second.status == 64, "\(mode): \(second.error)")
            #expect(second.error.contains("cassette '\(har)': another program is recording into it; wait for it to end, or record into another file"),
                    "\(mode): \(second.error)")
        }
        // Replaying needs no lock.
        let ended = first.end(SIGTERM, grace: .seconds(60))
        #expect(ended.termination == .exited(143))
        #expect(try Cassette(contentsOf: har).entries.count == 3)
        let lockFile = directory.appendingPathComponent(".shared.har.lock").path
        #expect(!FileManager.default.fileExists(atPath: lockFile), "a program ended by a signal lets its lock go")
        // The lock file a killed program leaves (SIGKILL) is taken over, and removed once released.
        #expect(FileManager.default.createFile(atPath: lockFile, contents: nil))
        let after = try await Built.run("typist", ["run", other.path, "--cassette", har, "--record-mode", "new"])
        #expect(after.status == 0, "\(after.error)")
        #expect(try Cassette(contentsOf: har).entries.count == 4)
        #expect(!FileManager.default.fileExists(atPath: lockFile))
    }

    @Test("verify reports drift with the JSON path and exits 1")
    func drift() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("one.api")
        try "print(post(id: 3).id)\nprint(posts().count)\n".write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("one.har").path
        let recorded = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "all"])
        #expect(recorded.status == 0, "\(recorded.error)")
        // The service changed: `id` became a string in the single post, and a list's third
        // element lost its title.
        try Self.rewriteFirstResponse(of: har, replacing: #""id":3"#, with: #""id":"three""#)
        let verify = try await Built.run("typist", ["cassette", "verify", har])
        #expect(verify.status == 1)
        #expect(verify.standard.contains("DRIFT    1 GET /posts/3 → Post: at id: expected Int"), "\(verify.standard)")
        #expect(verify.standard.contains("ok       2 GET /posts → [Post]"), "\(verify.standard)")
        #expect(verify.standard.hasSuffix("1 of 2 responses no longer decode\n"))
        // And replaying it shows the same error a live call would.
        let replayed = try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "none"])
        #expect(replayed.status == 1)
        #expect(replayed.error.contains("expected Int"), "\(replayed.error)")
    }

    @Test("verify --openapi checks responses recorded through a document's operations against its schemas")
    func verifyDocument() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("demo.yaml")
        try SpecFixture.document.write(to: document, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("document.api")
        try "print(getPost(id: 2).id)\n".write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("document.har").path
        let environment = ["XDG_CACHE_HOME": directory.path]
        let server = try await DemoServer.start()
        let recorded = try await Built.run("typist", ["run", script.path, "--openapi", document.path, "--base-url", server.baseURL,
                                                      "--cassette", har, "--record-mode", "all"], environment: environment)
        await server.stop()
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(try Cassette(contentsOf: har).entries.first?.label?.endpoint == "getPost")
        let clean = try await Built.run("typist", ["cassette", "verify", har, "--openapi", document.path], environment: environment)
        #expect(clean.status == 0, "\(clean.standard)\(clean.error)")
        #expect(clean.standard.contains("ok       1 GET /posts/2"), "\(clean.standard)")
        // Without the document, its endpoints are unknown here: skipped, said so.
        let unknown = try await Built.run("typist", ["cassette", "verify", har], environment: environment)
        #expect(unknown.standard.contains("skipped  1 GET /posts/2: no endpoint named 'getPost' in this program"), "\(unknown.standard)")
        #expect(unknown.status == 1, "\(unknown.standard)")
        // The service drifted from its document: `id` is a string now.
        try Self.rewriteFirstResponse(of: har, replacing: #""id":2"#, with: #""id":"two""#)
        let drifted = try await Built.run("typist", ["cassette", "verify", har, "--openapi", document.path], environment: environment)
        #expect(drifted.status == 1)
        #expect(drifted.standard.contains("DRIFT    1 GET /posts/2"), "\(drifted.standard)")
        #expect(drifted.standard.contains("at $.id: expected Int"), "\(drifted.standard)")
    }

    @Test("verify --openapi reads an untyped call as the operation its method and path are; without a document it says why it cannot")
    func verifyUntyped() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("openapi.yaml")
        try DemoOpenAPI.document.write(to: document, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("untyped.api")
        try "print(httpGet(\"/posts/2\").json[\"id\"] ?? 0)\nprint(httpGet(\"/v1/visits\").json)\nprint(httpGet(\"/posts/2/comments\").json.count)\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("untyped.har").path
        let environment = ["XDG_CACHE_HOME": directory.path]
        let server = try await DemoServer.start()
        let recorded = try await Built.run("typist", ["run", script.path, "--base-url", server.baseURL, "--cassette", har, "--record-mode", "all"])
        await server.stop()
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(try Cassette(contentsOf: har).entries.first?.label?.endpoint == nil)
        let checked = try await Built.run("typist", ["cassette", "verify", har, "--openapi", document.path], environment: environment)
        #expect(checked.status == 0, "\(checked.standard)\(checked.error)")
        #expect(checked.standard.contains("ok       1 GET /posts/2 (an untyped call, read as post → Post)"), "\(checked.standard)")
        #expect(checked.standard.contains("skipped  2 GET /v1/visits: an untyped call, and no operation of a document (--openapi) has its method and path"),
                "\(checked.standard)")
        // The best fit: `/posts/{postId}/comments`, not `/comments` (which also ends the path).
        #expect(checked.standard.contains("ok       3 GET /posts/2/comments (an untyped call, read as comments → [Comment])"), "\(checked.standard)")
        let alone = try await Built.run("typist", ["cassette", "verify", har], environment: environment)
        #expect(alone.standard.contains("skipped  1 GET /posts/2: an untyped call, and no operation"), "\(alone.standard)")
        // A hostile cassette's method and type names reach the terminal escaped, as `cassette show` shows them.
        let hostile = directory.appendingPathComponent("hostile.har").path
        var tampered = try Cassette(contentsOf: har)
        tampered.entries[0].method = "GET\u{1B}]0;owned\u{07}\u{1B}[2J"
        try tampered.write(to: hostile)
        let escaped = try await Built.run("typist", ["cassette", "verify", hostile], environment: environment)
        #expect(!escaped.standard.contains("\u{1B}") && !escaped.standard.contains("\u{07}"), "\(escaped.standard.debugDescription)")
        #expect(escaped.standard.contains("skipped  1 GET\\u{1B}]0;owned"), "\(escaped.standard)")
        // Checking nothing is no pass: exit 1, saying what would check them.
        #expect(alone.status == 1, "\(alone.standard)")
        #expect(alone.standard.hasSuffix("nothing checked: all 3 exchanges were skipped; verify with the host whose endpoints recorded them, "
                                         + "or add --openapi DOCUMENT to check untyped calls against its operations\n"), "\(alone.standard)")
        try Self.rewriteFirstResponse(of: har, replacing: #""id":2"#, with: #""id":"two""#)
        let drifted = try await Built.run("typist", ["cassette", "verify", har, "--openapi", document.path], environment: environment)
        #expect(drifted.status == 1)
        #expect(drifted.standard.contains("DRIFT    1 GET /posts/2: read as post → Post: "), "\(drifted.standard)")
        #expect(drifted.standard.contains("at $.id: expected Int"), "\(drifted.standard)")
    }

    @Test("With CI set, the default mode replays only: a missing exchange is an error naming the nearest, nothing sent")
    func ciDefault() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("one.api")
        try "print(post(id: 3).id)\n".write(to: script, atomically: true, encoding: .utf8)
        let har = directory.appendingPathComponent("one.har").path
        #expect(try await Built.run("typist", ["run", script.path, "--cassette", har, "--record-mode", "once"]).status == 0)
        try "print(post(id: 4).id)\n".write(to: script, atomically: true, encoding: .utf8)
        let missed = try await Built.run("typist", ["run", script.path, "--cassette", har], environment: ["CI": "true"])
        #expect(missed.status == 1)
        #expect(missed.error.contains("no recorded exchange"), "\(missed.error)")
        #expect(missed.error.contains("path /posts/4, recorded /posts/3"), "\(missed.error)")
        let usage = try await Built.run("typist", ["run", script.path, "--record-mode", "sideways"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("--record-mode and --match go with --cassette FILE"), "\(usage.error)")
    }

    @Test("A recorded prompt session and its :save replay offline; a credential the script reads from the environment may be any value")
    func savedSessionOffline() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let har = directory.appendingPathComponent("session.har").path
        let saved = directory.appendingPathComponent("session.api").path
        let input = """
            let s = login(user: "ada", password: "lovelace")
            token = s.token
            print(search(query: "swift").total)
            print(post(id: 2).title)
            :save \(saved)

            """
        let recorded = try await Built.run("typist", ["--cassette", har, "--record-mode", "all"], input: input)
        #expect(recorded.status == 0, "\(recorded.error)")
        // The saved script reads the password from TYPIST_PASSWORD; the cassette holds •••• in its
        // place, which any value matches.
        let replayed = try await Built.run("typist", ["run", saved, "--cassette", har],
                                           environment: ["CI": "true", "TYPIST_PASSWORD": "anything"])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(recorded.standard.hasPrefix(replayed.standard), "\(recorded.standard) / \(replayed.standard)")
        #expect(replayed.standard.hasPrefix("7\n"), "\(replayed.standard)")
    }

    @Test(":record FILE at the prompt records what follows; :record stop writes it")
    func recordAtPrompt() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let har = directory.appendingPathComponent("prompt.har").path
        let input = "post(id: 1).title\n:record \(har)\npost(id: 2).title\n:record\n:record stop\npost(id: 5).title\n"
        let result = try await Built.run("typist", [], input: input)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.standard.contains("recording into \(har)"), "\(result.standard)")
        #expect(result.standard.contains("stopped; 1 exchange(s) in \(har)"), "\(result.standard)")
        #expect(try Cassette(contentsOf: har).entries.map(\.path) == ["/posts/2"])
    }
}

/// The README's "Record and replay" commands, as written, in a folder with the smoke script.
@Suite("The README's record and replay commands, verbatim")
struct CassetteReadmeTests {
    @Test("Recorded the first time, replayed after, shown, verified")
    func readmeCommands() async throws {
        let blocks = ReadmeVerbatimTests.blocks(in: "Record and replay")
        let commands = try #require(blocks.first { $0.info == "sh" }).text
            .split(separator: "\n").map { line in
                String(line.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
            }
        #expect(commands.count == 4)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typist-readme-cassette-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Built.packageRoot.appendingPathComponent("Examples/smoke.api"),
                                         to: directory.appendingPathComponent("smoke.api"))
        var outputs: [String] = []
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "typist")
            // A developer's machine: CI unset (under CI the default mode only replays).
            let result = try await Built.run("typist", Array(words.dropFirst()), environment: ["CI": ""], directory: directory)
            #expect(result.status == 0, "\(command): \(result.error)")
            outputs.append(result.standard)
        }
        #expect(outputs[0] == outputs[1], "the replay prints what the recording did")
        #expect(outputs[2].contains("GET "), "\(outputs[2])")
        #expect(outputs[3].contains("decode with today's types"), "\(outputs[3])")
    }
}

/// Each lesson offline: its recorded exchanges answer every step as the demo service does, and the
/// recording is current (the same requests a fresh recording makes).
@Suite("Lessons offline")
struct LessonsOfflineTests {
    private static func normalized(_ text: String) -> String {
        // A call's time, and the server's Date header (`:last`), differ from run to run.
        text.replacingOccurrences(of: #"\(\d+(\.\d+)? ms\)"#, with: "(… ms)", options: .regularExpression)
            .replacingOccurrences(of: #"Date: [^\n]*GMT"#, with: "Date: …", options: .regularExpression)
    }

    @Test("typist lesson N --plain --offline prints what the live walk prints; the recording is current", arguments: 0...4)
    func offline(number: Int) async throws {
        let live = try await Built.run("typist", ["lesson", String(number), "--plain"])
        let offline = try await Built.run("typist", ["lesson", String(number), "--plain", "--offline"])
        #expect(live.status == 0, "\(live.error)")
        #expect(offline.status == 0, "\(offline.error)")
        #expect(Self.normalized(offline.standard) == Self.normalized(live.standard))
        #expect(offline.error == live.error)

        let committed = try Cassette(contentsOf: Built.packageRoot.appendingPathComponent("Workshop/lesson-\(number)/exchanges.har").path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-lesson-record-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fresh = folder.appendingPathComponent("exchanges.har").path
        let recording = try await Built.run("typist", ["lesson", String(number), "--plain", "--cassette", fresh, "--record-mode", "all"])
        #expect(recording.status == 0, "\(recording.error)")
        func summary(_ cassette: Cassette) -> [String] {
            cassette.entries.map { "\($0.method) \($0.url.replacingOccurrences(of: #"^http://[^/]+"#, with: "", options: .regularExpression)) \($0.status ?? 0)" }
        }
        #expect(summary(try Cassette(contentsOf: fresh)) == summary(committed),
                "lesson \(number)'s recording is out of date: run Scripts/record-lessons")
    }
}
