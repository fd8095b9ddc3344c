import APIScript
import DemoBindings
import DemoService
import Foundation
import HTTPTypes
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// Streams in the shell against the real demo service: the prompt shows items as they arrive,
/// scripts read them with `for try await`, and the previews say what a stream sends.
@Suite("Streams in the shell")
struct StreamShellTests {
    enum Transport: String, CaseIterable, Sendable {
        case curl, asyncHTTPClient, urlSession, wholeBodies

        func make() -> any HTTPTransport {
            switch self {
            case .curl: CurlTransport()
            case .asyncHTTPClient: AsyncHTTPClientTransport()
            case .urlSession: URLSessionTransport()
            case .wholeBodies: WholeBodies()
            }
        }
    }

    /// A host's transport that answers whole bodies only (it does not stream).
    struct WholeBodies: HTTPTransport {
        let base = URLSessionTransport()
        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
            try await base.send(request, body: body, timeout: timeout)
        }
    }

    /// A shell on the demo service over `transport`, its registry from the Swift bindings or the
    /// service's OpenAPI document.
    private func withShell<T>(_ transport: Transport, fromDocument: Bool = false,
                              _ body: (Shell, CapturedOutput) async throws -> T) async throws -> T {
        try await withDemoShell(fromDocument: fromDocument, transport: transport.make()) { shell, output, _ in
            try await body(shell, output)
        }
    }

    @Test("At the prompt a stream's items print one by one, and _ holds them", arguments: [Transport.curl, .asyncHTTPClient, .urlSession])
    func promptShowsItems(transport: Transport) async throws {
        try await withShell(transport) { shell, output in
            #expect(await shell.handle("events(count: 3)"))
            #expect(output.standard == """
                BuildEvent(n: 1, status: "queued", log: "step 1")
                BuildEvent(n: 2, status: "running", log: "step 2\\nsecond line")
                BuildEvent(n: 3, status: "passed", log: "step 3")

                """)
            #expect(output.error.isEmpty, "\(output.error)")
            let statuses = try await shell.evaluate("last.map(\\.status)")
            let count = try await shell.evaluate("_.count")
            #expect(count == .int(3))
            #expect(statuses == .array([.string("queued"), .string("running"), .string("passed")]))
            output.clear()
            // A stream narrowed and mapped is shown the same way.
            #expect(await shell.handle("eventLines(count: 50).filter { $0.status == \"passed\" }.map(\\.n).prefix(3)"))
            #expect(output.standard == "3\n6\n9\n")
        }
    }

    @Test("httpStream reads a stream nobody declared: an event stream's or JSON Lines' items as the JSON they are", arguments: [Transport.curl, .asyncHTTPClient, .urlSession])
    func untypedStream(transport: Transport) async throws {
        try await withShell(transport) { shell, output in
            #expect(await shell.handle(#"httpStream("/events", query: ["count": "2"])"#), "\(output.error)")
            #expect(output.standard == """
                ["log": "step 1", "n": 1, "status": "queued"]
                ["log": "step 2\\nsecond line", "n": 2, "status": "running"]

                """)
            let count = try await shell.evaluate("_.count")
            #expect(count == .int(2))
            // Items are any JSON: their members are read when the script runs.
            let script = """
                var seen = ""
                for try await line in httpStream("/events.ndjson", query: ["count": "4"]) {
                    seen += "\\(line.n) "
                }
                expect(seen == "1 2 3 4 ")
                """
            let result = await shell.interpreter.evaluate(ScriptSource(name: "s.api", text: script))
            #expect(result.errors.isEmpty, "\(result.errors)")
        }
    }

    @Test("The same from the service's OpenAPI document: its stream operations are stream functions")
    func fromTheDocument() async throws {
        let fromBindings = try await withShell(.curl) { shell, output in
            #expect(await shell.handle("events(count: 4)"))
            #expect(await shell.handle("eventLines(count: 4)"))
            return output.standard
        }
        try await withShell(.curl, fromDocument: true) { shell, output in
            let type = try shell.interpreter.staticType(of: "events()").get()
            #expect(type.description == "AsyncThrowingStream<BuildEvent, any Error>")
            #expect(await shell.handle("events(count: 4)"))
            #expect(await shell.handle("eventLines(count: 4)"))
            #expect(output.standard == fromBindings)
            #expect(output.error.isEmpty, "\(output.error)")
        }
    }

    @Test(":format json shows one compact JSON object per line, as JSON Lines")
    func jsonLines() async throws {
        try await withShell(.curl) { shell, output in
            #expect(await shell.handle(":format json"))
            output.clear()
            #expect(await shell.handle("events(count: 4)"))
            let lines = output.standard.split(separator: "\n")
            #expect(lines.count == 4)
            for (index, line) in lines.enumerated() {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["n"] as? Int == index + 1)
            }
        }
    }

    @Test(":curl of a stream adds -N; of a plain call it does not; neither sends anything")
    func curlPreview() async throws {
        try await withShell(.curl) { shell, output in
            #expect(await shell.handle(":curl events(count: 2).prefix(1)"))
            #expect(output.standard.contains("curl \\\n  -N \\\n  '") && output.standard.contains("/events?count=2'"), "\(output.standard)")
            #expect(output.standard.contains("Accept: text/event-stream"))
            output.clear()
            #expect(await shell.handle(":curl posts()"))
            #expect(!output.standard.contains("-N"))
            output.clear()
            // A loop over a stream is previewed as its one request.
            #expect(await shell.handle(":curl for try await e in eventLines(count: 9) { print(e.n) }"))
            #expect(output.standard.contains("-N") && output.standard.contains("/events.ndjson?count=9'"), "\(output.standard)")
            #expect(!output.standard.contains("# 2 requests"))
        }
    }

    @Test("A script reads a stream with for try await; expect holds; break ends it")
    func script() async throws {
        try await withShell(.curl) { shell, output in
            let script = """
                var statuses: [String] = []
                for try await event in events(count: 100) {
                    statuses.append(event.status)
                    if statuses.count == 4 { break }
                }
                expect(statuses == ["queued", "running", "passed", "queued"])
                let firstPassed = eventLines(count: 10).first { $0.status == "passed" }
                expect(firstPassed?.n == 3)
                print(events(count: 6).reduce(0) { $0 + $1.n })
                """
            let status = await shell.run(ScriptSource(name: "streams.api", text: script))
            #expect(status == ExitStatus.success, "\(output.error)")
            #expect(output.standard == "21\n")
        }
    }

    @Test("Piped input shows a stream's items as the prompt does")
    func piped() async throws {
        try await withShell(.asyncHTTPClient) { shell, output in
            let status = await shell.runPiped("let n = 2\nevents(count: n).map(\\.log)\nprint(\"after\")")
            #expect(status == ExitStatus.success, "\(output.error)")
            #expect(output.standard == "\"step 1\"\n\"step 2\\nsecond line\"\nafter\n")
        }
    }

    @Test("A stream the server refuses is one error at the call, and the session keeps what it had")
    func refused() async throws {
        try await withShell(.curl) { shell, output in
            #expect(await shell.handle("let kept = 42"))
            let handled = await shell.handle("events(count: -1)")
            #expect(!handled)
            #expect(output.error.contains("400"), "\(output.error)")
            #expect(output.error.contains("count must be a number from 0 to 1000000"), "\(output.error)")
            let kept = try await shell.evaluate("kept")
            #expect(kept == .int(42))
            output.clear()
            let status = await shell.run(ScriptSource(name: "bad.api", text: "for try await e in events(count: -1) {\n    print(e)\n}"))
            #expect(status == ExitStatus.failure)
            #expect(output.error.contains("bad.api:1:20"), "\(output.error)")
        }
    }

    @Test("A host transport that cannot stream is one clear error")
    func cannotStream() async throws {
        try await withShell(.wholeBodies) { shell, output in
            let handled = await shell.handle("events(count: 2)")
            #expect(!handled)
            #expect(output.error.contains("this transport (WholeBodies) cannot stream a response; CurlTransport and URLSessionTransport can"),
                    "\(output.error)")
        }
    }

    @Test("A stream is recorded into the cassette as it is read, and replayed from it by a transport that cannot stream")
    func streamInCassette() async throws {
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent("typist-stream-\(UUID()).har")
        defer { try? FileManager.default.removeItem(at: cassette) }
        let live = try await withShell(.curl) { shell, output in
            #expect(await shell.handle(":record \(cassette.path)"))
            output.clear()
            #expect(await shell.handle("events(count: 3)"))
            let shown = output.standard
            #expect(await shell.handle(":record stop"))
            return shown
        }
        #expect(live.contains(#"BuildEvent(n: 3, status: "passed", log: "step 3")"#), "\(live)")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(text.contains("text/event-stream"), "\(text)")
        try await withShell(.wholeBodies) { shell, output in
            try shell.useCassette(cassette.path, mode: .none)
            output.clear()
            #expect(await shell.handle("events(count: 3)"))
            #expect(output.standard == live)
        }
    }

    @Test(":swift writes a stream as client.stream, read with for try await")
    func swiftPreview() async throws {
        try await withShell(.curl) { shell, output in
            #expect(await shell.handle(":swift for try await e in events(count: 3).prefix(2) { print(e.n) }"))
            #expect(output.standard.contains("for try await e in client.stream(.events(count: 3)).prefix(2) {"), "\(output.standard)")
            output.clear()
            #expect(await shell.handle(":swift eventLines().first { $0.n > 2 }"))
            #expect(output.standard.contains("let result: BuildEvent? = try await client.stream(.eventLines()).first { $0.n > 2 }"),
                    "\(output.standard)")
        }
    }

    @Test("In colour, an item takes the same layout as without: colour codes take no room (an item of 94 characters stayed on one line only without colour)")
    func colourDoesNotChangeLayout() throws {
        let type = RecordType(name: "BuildEvent", fields: [.init("n", .int), .init("status", .string), .init("log", .string)])
        let item = Value.record(Record(type: type, values: [.int(2), .string("running"), .string(String(repeating: "x", count: 50))]))
        let plain = ValueRenderer(format: .pretty, style: TerminalStyle(enabled: false)).render(item, type: .record(type))
        let coloured = ValueRenderer(format: .pretty, style: TerminalStyle(enabled: true)).render(item, type: .record(type))
        #expect(!plain.contains("\n"))
        #expect(coloured.contains("\u{1B}[") && !coloured.contains("\n"), "\(coloured)")
        #expect(TerminalStyle.visibleCount(coloured) == plain.count)
    }

    @Test("The README's stream script runs as shown, and its prompt lines give what it shows")
    func readme() async throws {
        let blocks = ReadmeVerbatimTests.blocks(in: "Streams")
        let script = try #require(blocks.first { $0.text.contains("builds.api") }).text
        let transcript = try #require(blocks.first { $0.info.isEmpty && $0.text.contains("typist> events(") }).text
        try await withShell(.curl) { shell, output in
            let status = await shell.run(ScriptSource(name: "builds.api", text: script))
            #expect(status == ExitStatus.success, "\(output.error)")
            #expect(output.standard == "3 step 3\n6 step 6\nsecond line\n9 step 9\n")
            output.clear()
            // The transcript's stream, read to its first three items (the README shows Ctrl-C there).
            let line = try #require(transcript.split(separator: "\n").first { $0.hasPrefix("typist> events(") })
            let shown = transcript.split(separator: "\n").filter { $0.hasPrefix("\"") }.joined(separator: "\n") + "\n"
            #expect(await shell.handle(line.dropFirst("typist> ".count) + ".prefix(3)"))
            #expect(output.standard == shown)
        }
    }

    @Test(":describe says a stream's items and their fields")
    func describe() async throws {
        try await withShell(.curl) { shell, output in
            #expect(await shell.handle(":describe events"))
            #expect(output.standard.contains("items:    BuildEvent, one per event (text/event-stream) or line (JSON Lines), as they arrive"))
            #expect(output.standard.contains("    status: String"))
        }
    }
}
