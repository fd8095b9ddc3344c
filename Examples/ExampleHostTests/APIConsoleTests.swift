import AppConsoleExample
import DemoService
import Testing

/// The in-app console example: the core driven by an app's model, no terminal, against the demo
/// service on loopback.
@Suite("An app's in-app API console")
struct APIConsoleTests {
    @Test("Lines typed at the screen run against the app's endpoints; results, errors and completions come back as lines")
    func console() async throws {
        let server = try await DemoServer.start()
        do {
            let console = try APIConsole(baseURL: server.baseURL)
            #expect(console.suggestions(before: "post(id: 1).") .contains("title"))
            #expect(await console.submit("post(id: 1).title"))
            #expect(await console.submit("posts().filter { $0.userId == 1 }.count"))
            #expect(await console.submit("post(id: 0).title") == false)
            let lines = console.lines
            #expect(lines.first == .init(kind: .input, text: "post(id: 1).title"))
            #expect(lines.contains { $0.kind == .output && $0.text == #""explore integer prompt server shape envelope status layer""# }, "\(lines)")
            #expect(lines.contains { $0.kind == .output && $0.text == "10" }, "\(lines)")
            #expect(lines.contains { $0.kind == .error && $0.text.contains("404") }, "\(lines)")
            // A :command works as at the prompt.
            #expect(await console.submit(":endpoints"))
            #expect(console.lines.contains { $0.kind == .output && $0.text.contains("post(id: Int)") }, "\(console.lines)")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
