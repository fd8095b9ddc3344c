import DemoService
import Foundation
import Testing
import TypedAPI
@testable import TypistCore
@testable import TypistOpenAPI

/// `:openapi` beside a session's own endpoints: the document's operations call the document's
/// server, the session's keep the session's, unless `--server` says otherwise.
@Suite(":openapi and its server")
struct OpenAPIServerTests {
    @Test("A document's operations call its server beside the demo's; --server session sends them to the session's base URL")
    func documentServer() async throws {
        let other = try await DemoServer.start()
        do {
            try await withDemoShell { shell, output, server in
                shell.add(commands: [OpenAPICommand.command], after: "model")
                #expect(await shell.handle(":openapi \(other.baseURL)/openapi.yaml"))
                #expect(output.standard.contains("endpoints from Typist demo service (:endpoints lists them); they call \(other.baseURL); --server URL for another, --server session for the session's"),
                        "\(output.standard)")
                output.clear()
                await shell.handle(":curl post2(id: 4)")
                #expect(output.standard.contains("'\(other.baseURL)/posts/4'"), "\(output.standard)")
                output.clear()
                // Called for real: the answer comes from the other server, the session's base is unchanged.
                let fromDocument = try await shell.evaluate("post2(id: 4).id")
                #expect(fromDocument == .int(4))
                await shell.handle(":last")
                #expect(output.standard.contains("GET \(other.baseURL)/posts/4"), "\(output.standard)")
                let fromHost = try await shell.evaluate("post(id: 4).id")
                #expect(fromHost == .int(4))
                output.clear()
                await shell.handle(":last")
                #expect(output.standard.contains("GET \(server.baseURL)/posts/4"), "\(output.standard)")
                // In Swift, the document's call goes through a client for its server; the session's through its own.
                output.clear()
                await shell.handle(":swift post2(id: 4).title + post(id: 4).title")
                #expect(output.standard.contains("let documentClient = client.replacingEnvironment(with: try ServerEnvironment(url: \"\(other.baseURL)\"))"),
                        "\(output.standard)")
                #expect(output.standard.contains("try await documentClient.send(.post2(id: 4))"), "\(output.standard)")
                #expect(output.standard.contains("try await client.send(.post(id: 4))"), "\(output.standard)")
                output.clear()
                await shell.handle(":describe post2")
                #expect(output.standard.contains("  server:   \(other.baseURL)  (its document's; the session's is \(server.baseURL))"), "\(output.standard)")
                // Said otherwise: the session's base URL.
                output.clear()
                #expect(await shell.handle(":openapi \(other.baseURL)/openapi.yaml --server session"))
                #expect(output.standard.contains("they call the session's base URL, \(server.baseURL)"), "\(output.standard)")
                output.clear()
                await shell.handle(":curl post3(id: 4)")
                #expect(output.standard.contains("'\(server.baseURL)/posts/4'"), "\(output.standard)")
                output.clear()
                #expect(await shell.handle(":openapi \(other.baseURL)/openapi.yaml --server") == false)
                #expect(output.error.contains("--server needs a URL"), "\(output.error)")
                // Each option without its value is one error that says what it takes.
                for (option, says) in [("--default-auth", "--default-auth needs a kind: bearer"), ("--auth", "--auth needs a kind:")] {
                    output.clear()
                    #expect(await shell.handle(":openapi \(other.baseURL)/openapi.yaml \(option)") == false)
                    #expect(output.error.contains(says), "\(output.error)")
                }
                output.clear()
                #expect(await shell.handle(":openapi \(other.baseURL)/openapi.yaml --auth bearer") == false)
                #expect(output.error.contains("--auth bearer sends the session's token, and it has none"), "\(output.error)")
            }
        } catch {
            await other.stop()
            throw error
        }
        await other.stop()
    }
}
