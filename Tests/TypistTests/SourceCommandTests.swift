import APIScript
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import Typist
@testable import TypistCore

/// `:source`: the declarations as written in the host, or rendered from the types without them.
@Suite(":source")
struct SourceCommandTests {
    @Test("An endpoint shows its registration, the Endpoint factory it calls, and its response model, from the sources")
    func demoEndpoint() async throws {
        try await withDemoShell { shell, output, _ in
            #expect(await shell.handle(":source search"))
            let text = output.standard
            #expect(text.contains("// registered at Sources/DemoBindings/DemoBindings.swift:"), "\(text)")
            #expect(text.contains("Register(\"search\", summary: \"Search items (needs the token)\", Parameter<String>(\"query\")) { query in"), "\(text)")
            #expect(text.contains("extension Endpoint where Kind == Bearer, Response == SearchResults {"), "\(text)")
            #expect(text.contains("Endpoint(.get(query: [URLQueryItem(name: \"q\", value: query)]), path: \"/v1/search\", envelope: \"result\")"), "\(text)")
            #expect(text.contains("public struct SearchResults: Codable, Sendable, Hashable {"), "\(text)")
            output.clear()
            #expect(await shell.handle(":source User"))
            #expect(output.standard.contains("public var id: UUID"), "the declared Swift type, not the script's String: \(output.standard)")
            #expect(await shell.handle(":source Nowhere") == false)
        }
    }

    @Test("Without the host's sources on this machine, the model is rendered from its type, with declared Swift types")
    func renderedFromTypes() async throws {
        struct Reading: Decodable, Sendable { var id: UUID; var title: String; var pages: Int? }
        let registry = try EndpointRegistry {
            Group("Reading") {
                Register("reading", summary: "One reading", filePath: "/nowhere/Host.swift") { Endpoint<Public, Reading>(path: "/reading") }
            }
        }
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: InMemoryTransport(), output: output.shellOutput)
        #expect(await shell.handle(":source reading"))
        #expect(output.standard.contains("(its source is not on this machine)"), "\(output.standard)")
        #expect(output.standard.contains("struct Reading: Decodable {\n    let id: UUID\n    let title: String\n    let pages: Int?\n}"), "\(output.standard)")
    }
}
