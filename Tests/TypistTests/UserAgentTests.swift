import APIScript
import DemoBindings
import DemoService
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import Typist
@testable import TypistCore

/// Every request names the host and Typist in `User-Agent` (GitHub's API refuses requests without
/// one); the session's `headers` add to the host's and win over them.
@Suite("User-Agent and host headers")
struct UserAgentTests {
    typealias Transport = ShellTransport

    private func transport(_ choice: Transport) -> any HTTPTransport { choice.make() }

    @Test("Typist's User-Agent goes out on every transport; session headers keep the host's", arguments: Transport.allCases)
    func everyTransport(choice: Transport) async throws {
        let server = try await DemoServer.start()
        do {
            let output = CapturedOutput()
            let shell = try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: server.baseURL),
                                  transport: transport(choice), output: output.shellOutput,
                                  headers: [.custom(name: "X-Client", value: "reading")])
            #expect(try await shell.evaluate("echoHeaders().headers[\"user-agent\"]") == .string("typist/\(TypistVersion.current)"))
            _ = try await shell.evaluate("headers = [\"X-Trace\": \"t1\"]")
            let both = try await shell.evaluate("let h = echoHeaders().headers; [h[\"x-client\"] ?? \"\", h[\"x-trace\"] ?? \"\", h[\"user-agent\"] ?? \"\"]")
            #expect(both == .array([.string("reading"), .string("t1"), .string("typist/\(TypistVersion.current)")]))
            _ = try await shell.evaluate("headers = [\"User-Agent\": \"mine/2\"]")
            #expect(try await shell.evaluate("echoHeaders().headers[\"user-agent\"]") == .string("mine/2"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("The executables name themselves: typist, and a host before typist")
    func executables() async throws {
        let typist = try await Built.run("typist", ["--transport", "curl"], input: "print(echoHeaders().headers[\"user-agent\"]!)\n")
        #expect(typist.standard == "typist/\(TypistVersion.current)\n", "\(typist.error)")
        // The example host has no header echo: its last request, as :last shows it, does.
        let host = try await Built.run("example-host", [], input: "article(number: 1).title\n:last\n")
        let sent = host.standard.split(separator: "\n").filter { $0.hasPrefix("User-Agent:") }
        #expect(sent == ["User-Agent: example-host/\(TypistVersion.current) typist/\(TypistVersion.current)"], "\(host.standard)\(host.error)")
    }

    @Test("A host's own User-Agent replaces the default")
    func hostsOwn() {
        let host = ShellHost(name: "reading", version: "1.2", registry: { try DemoBindings.registry() })
        #expect(host.requestHeaders.map { $0.value } == ["reading/1.2 typist/\(TypistVersion.current)"])
        var custom = host
        custom.headers = [HTTPHeader.custom(name: "user-agent", value: "Reading/9")]
        #expect(custom.requestHeaders.map { $0.value } == ["Reading/9"])
    }
}
