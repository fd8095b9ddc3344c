import DemoBindings
import FaultServer
import Foundation
import HTTPTypes
import Synchronization
import Testing
import TypedAPICurl
import Typist
import TypistCore
import TypistCurl

/// A session on the curl transport runs on a libcurl thread of its own: a script that computes
/// for long holds up its own calls only, never those of other code in the process.
@Suite("A curl session's engine is its own")
struct SessionEngineTests {
    @Test("Another client's call is answered while a session's script computes on its engine thread")
    func computingSessionHoldsUpNoOtherCall() async throws {
        let server = try FaultServer { connection in
            try connection.respond(body: Array(#"{"ok":true}"#.utf8))
        }
        defer { server.stop() }
        try await withTemporaryFolder("typist-engine") { directory in
            let script = directory.appendingPathComponent("compute.api")
            // Far more computation than any machine does in the time a call takes (hours on a
            // fast one): the script is still computing when the call is answered, however the
            // machine is loaded, and is interrupted then. Were the call held up by it, the script
            // would end first and the order below would show it.
            try "print(\"started\")\nvar i = 0\nwhile i < 1_000_000_000_000 { i += 1 }\nprint(\"done\")\n"
                .write(to: script, atomically: true, encoding: .utf8)

            let events = Mutex<[String]>([])
            let (started, starting) = AsyncStream<Void>.makeStream()
            let output = ShellOutput(standard: { text in
                if text.contains("started") { starting.yield() }
                if text.contains("done") { events.withLock { $0.append("script done") } }
            }, error: { _ in })
            let session = Task {
                await ShellCommandLine.main(DemoBindings.host, arguments: ["run", script.path, "--transport", "curl"], output: output)
            }
            for await _ in started { break }

            let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/")
            let (response, _) = try await CurlTransport().send(head, body: nil, timeout: .seconds(600))
            events.withLock { $0.append("call answered") }
            #expect(response.status == .ok)
            // The script, still computing, is interrupted as Ctrl-C would.
            session.cancel()
            #expect(await session.value == ExitStatus.interrupted)
            #expect(events.withLock { $0 } == ["call answered"])
        }
    }

    @Test("An own engine ends with its scope: a call made after it fails at once instead of waiting")
    func engineEndsWithScope() async throws {
        let server = try FaultServer { connection in
            try connection.respond(body: Array(#"{"ok":true}"#.utf8))
        }
        defer { server.stop() }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/")
        let kept = try await CurlTransport.withOwnEngine { transport, executor in
            #expect(executor != nil)
            let (response, _) = try await transport.send(head, body: nil, timeout: .seconds(600))
            #expect(response.status == .ok)
            return transport
        }
        await #expect {
            try await kept.send(head, body: nil, timeout: .seconds(600))
        } throws: { error in
            "\(error)".contains("shut down")
        }
    }
}
