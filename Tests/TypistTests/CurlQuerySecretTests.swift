import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// `:curl` of a call whose query carries a secret (an API key in the query) prints a command that
/// sends the same value: the secret is read from the environment and percent-encoded by curl.
@Suite("A secret in the query, as :curl writes it")
struct CurlQuerySecretTests {
    @Test("The printed command, run by bash and curl, sends the key the session sends — + / & = and all — and never shows it")
    func sameValueOnTheWire() async throws {
        let targets = TargetLog()
        let server = try FaultServer { connection in
            targets.append(connection.requestHead.split(separator: " ").dropFirst().first.map(String.init) ?? "")
            try connection.respond(body: Array("{}".utf8))
        }
        defer { server.stop() }
        let document = try OpenAPIDocument(text: """
            openapi: 3.0.3
            servers: [{url: "\(server.baseURL)"}]
            security: [{key: []}]
            paths:
              /items:
                post:
                  operationId: addItem
                  parameters: [{name: q, in: query, schema: {type: string}}]
                  requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
                  responses: {"200": {description: ok}}
            components:
              securitySchemes:
                key: {type: apiKey, in: query, name: api_key}
            """, name: "items.yaml")
        let key = "s3cr+t/v&l=ue k"
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        _ = try await shell.evaluate("apiKey = \"\(key)\"")
        _ = try await shell.evaluate(#"addItem(q: "a b", name: "x")"#)
        output.clear()
        #expect(await shell.handle(#":curl addItem(q: "a b", name: "x")"#))
        let command = output.standard
        #expect(!command.contains("s3cr") && command.contains("${TYPIST_API_KEY}"), "\(command)")
        guard ProcessInfo.processInfo.environment["PATH"].map({ _ in FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }) == true else {
            return  // curl is installed by the README's apt-get line; without it the command is not run.
        }
        let run = try await ProcessResult.run(["bash", "-c", command], environment: ["TYPIST_API_KEY": key])
        #expect(run.status == 0, "\(run.output)")
        let sent = targets.all
        #expect(sent.count == 2, "\(sent)")
        // The same query items, decoded as a service decodes a query (curl writes a space `+`, the
        // session `%20`; a `+` of the key is `%2B` from both): what the session sent is what the command sends.
        func items(_ target: String) -> [String: String] {
            let query = URLComponents(string: "http://x" + target)?.percentEncodedQueryItems ?? []
            return Dictionary(query.map { ($0.name, $0.value?.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") }, uniquingKeysWith: { $1 })
        }
        #expect(sent.count == 2 && items(sent[0]) == items(sent[1]), "\(sent)")
        #expect(sent.last.map(items)?["api_key"] == key, "\(sent)")
    }
}

/// Request targets a fault server saw, in order.
private final class TargetLog: Sendable {
    private let targets = Mutex<[String]>([])
    func append(_ target: String) { targets.withLock { $0.append(target) } }
    var all: [String] { targets.withLock { $0 } }
}
