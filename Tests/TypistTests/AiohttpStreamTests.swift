import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import TypistCore
@testable import TypistOpenAPI

/// An OpenAI-compatible completion stream from aiohttp, a server nobody here wrote, through the
/// document it serves: keep-alives are no items, `data: [DONE]` ends the stream cleanly, and an
/// item that is not JSON is an error naming the document's item type.
@Suite("An OpenAI-compatible stream from aiohttp", .enabled(if: AiohttpServer.unavailable == nil, "\(AiohttpServer.unavailable ?? "")"))
struct AiohttpStreamTests {
    enum Transport: String, CaseIterable, Sendable {
        case curl, asyncHTTPClient

        func make() -> any HTTPTransport {
            switch self {
            case .curl: CurlTransport()
            case .asyncHTTPClient: AsyncHTTPClientTransport()
            }
        }
    }

    private func shell(_ server: PythonServer, _ transport: Transport, output: CapturedOutput) async throws -> Shell {
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        return try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: server.baseURL),
                         transport: transport.make(), output: output.shellOutput)
    }

    @Test("Chunks between keep-alives, then [DONE]: a script reads every word and the stream ends cleanly", arguments: Transport.allCases)
    func completion(_ transport: Transport) async throws {
        let server = try await AiohttpServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await shell(server, transport, output: output)
        _ = try await shell.evaluate("""
            var text = ""
            var finished: String? = nil
            for try await chunk in createChatCompletion(model: "m", stream: true) {
                text += chunk.choices[0].delta?.content ?? ""
                finished = chunk.choices[0].finishReason ?? finished
            }
            """)
        #expect(try await shell.evaluate("text") == .string("Hello from aiohttp"))
        #expect(try await shell.evaluate("finished") == .string("stop"))
        // At the prompt: three items, no error.
        output.clear()
        #expect(await shell.handle(#"createChatCompletion(model: "m", stream: true).map { $0.choices[0].delta?.content ?? "" }"#))
        #expect(output.error.isEmpty, "\(output.error)")
    }

    @Test("An item that is not JSON names the document's item type, not an internal one", arguments: Transport.allCases)
    func brokenItem(_ transport: Transport) async throws {
        let server = try await AiohttpServer.start()
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try await shell(server, transport, output: output)
        #expect(await shell.handle(#"broken(model: "m")"#) == false)
        #expect(output.error.contains("cannot decode CreateChatCompletionStreamResponse"), "\(output.error)")
        #expect(!output.error.contains("JSONItem"), "\(output.error)")
    }
}
