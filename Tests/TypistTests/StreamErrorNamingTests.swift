import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
@testable import TypistCore
@testable import TypistOpenAPI

/// A stream's errors name what the user knows — the document's item type, or "the stream" —
/// never the package's stand-ins (`JSONItem`, `StreamItemBytes`) it reads items as first.
@Suite("Stream errors name the user's types")
struct StreamErrorNamingTests {
    private static func document(_ server: FaultServer) -> String {
        """
        openapi: 3.1.0
        servers: [{url: "\(server.baseURL)"}]
        paths:
          /events:
            get:
              operationId: events
              responses:
                "200":
                  description: the build's events
                  content:
                    text/event-stream:
                      itemSchema: {$ref: "#/components/schemas/BuildEvent"}
        components:
          schemas:
            BuildEvent:
              type: object
              required: [n]
              properties: {n: {type: integer}, status: {type: string}, log: {type: string}}
        """
    }

    /// What reading the whole stream at the prompt says on stderr.
    private func read(_ call: String, answering handler: @escaping @Sendable (FaultConnection) throws -> Void) async throws -> String {
        let server = try FaultServer(handler)
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try documentShell(try OpenAPIDocument(text: Self.document(server), name: "build.yaml"), output: output)
        _ = await shell.handle(call)
        return output.error
    }

    @Test("An item that is not JSON names the document's item type")
    func notJSON() async throws {
        let said = try await read("events()") { connection in
            let body = Array((FaultStreams.event(1) + "data: hello\n\n").utf8)
            try connection.send(FaultStreams.head("text/event-stream", length: body.count))
            try connection.send(body)
        }
        #expect(said.contains("cannot decode BuildEvent"), "\(said)")
        #expect(!said.contains("JSONItem") && !said.contains("the stream's item"), "\(said)")
    }

    @Test("Bytes that are not UTF-8 are the stream's fault: a document's stream names its item type, an untyped one the stream")
    func notUTF8() async throws {
        let typed = try await read("events()", answering: FaultStreams.invalidUTF8())
        #expect(typed.contains("cannot decode the stream of BuildEvent: expected a server-sent event stream, found an event that is not UTF-8 text"), "\(typed)")
        let untyped = try await read(#"httpStream("/events")"#, answering: FaultStreams.invalidUTF8())
        #expect(untyped.contains("cannot decode the stream: expected a server-sent event stream, found an event that is not UTF-8 text"), "\(untyped)")
        #expect(!typed.contains("JSONItem") && !untyped.contains("StreamItemBytes"), "\(typed)\n\(untyped)")
    }
}

/// An untyped JSON Lines stream whose bytes break the format ends with an error naming the
/// line, after the items before it (they were turned into strings, or their bytes replaced).
@Suite("JSON Lines that break the format")
struct JSONLinesShellTests {
    @Test("Not UTF-8 in line 2: item 1, then an error that names the line")
    func invalidUTF8() async throws {
        let server = try FaultServer { connection in
            let body = Array("{\"n\":1}\n{\"n\":\"".utf8) + [0xFF] + Array("\"}\n".utf8)
            try connection.send(FaultStreams.head("application/x-ndjson", length: body.count))
            try connection.send(body)
        }
        defer { server.stop() }
        let output = CapturedOutput()
        let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: server.baseURL),
                              transport: CurlTransport(), output: output.shellOutput)
        #expect(await shell.handle(#"httpStream("/lines")"#) == false)
        #expect(output.standard.contains("[\"n\": 1]"), "\(output.standard)")
        #expect(output.error.contains("cannot decode the stream: expected JSON Lines, found bytes that are not UTF-8 text (line 2)"), "\(output.error)")
    }
}
