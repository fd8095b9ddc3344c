import APIScript
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
@testable import TypistCore

/// `:curl` and `:swift` preview an expression: its calls go the way every call goes, with a second
/// client whose recording transport answers with sample JSON — nothing reaches the server.
@Suite("Previews send nothing")
struct PreviewTests {
    enum Color: String, Decodable, Sendable, CaseIterable { case red, blue }
    struct Stamp: Decodable, Sendable {
        let id: Int
        let at: Date
        let color: Color
    }
    struct Item: Decodable, Sendable {
        let id: Int
        let name: String
        let tags: [String]
    }

    @Test("The requests of an expression, each built by the typed client, none sent; the session untouched")
    func nothingSent() async throws {
        let server = try FaultServer { connection in
            try connection.respond(body: Array(#"[{"id":1,"name":"a","tags":[]}]"#.utf8))
        }
        defer { server.stop() }
        let registry = try EndpointRegistry {
            Register("items") { Endpoint<Public, [Item]>(path: "/items") }
            Register("item", Parameter<Int>("id")) { id in Endpoint<Public, Item>(path: "/items/\(id)") }
            Register("stamp") { Endpoint<Public, Stamp>(path: "/stamp") }
            Register("secretItem", Parameter<Int>("id")) { id in Endpoint<Bearer, Item>(path: "/secret/\(id)") }
        }
        let screen = Screen()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: server.baseURL),
                              transport: URLSessionTransport(), output: screen.output)
        // A call for each element of an answer: shown once, for the sample's one element.
        #expect(await shell.handle(":curl items().map { item(id: $0.id) }"))
        #expect(screen.results.contains("'\(server.baseURL)/items'"), "\(screen.results)")
        #expect(screen.results.contains("'\(server.baseURL)/items/0'"), "\(screen.results)")
        #expect(screen.results.contains("a call made for each element of an answer is shown once"), "\(screen.results)")
        // A type the sample JSON cannot decode into (a Date, an enum): the request still shows, and
        // the rest of the expression gets a placeholder of the right shape.
        screen.clear()
        #expect(await shell.handle(":curl item(id: stamp().id + 5)"), "\(screen.errors)")
        #expect(screen.results.contains("/stamp'") && screen.results.contains("/items/5'"), "\(screen.results)")
        // A Bearer endpoint without a token: a placeholder, and the variable it is read from.
        screen.clear()
        #expect(await shell.handle(":curl secretItem(id: 2)"), "\(screen.errors)")
        #expect(screen.results.contains("/secret/2'") && screen.results.contains("Authorization: "), "\(screen.results)")
        // Nothing reached the server, and the session has no exchange and no result from it.
        #expect(server.requestHeads.isEmpty, "\(server.requestHeads)")
        screen.clear()
        #expect(await shell.handle(":last"))
        #expect(!screen.results.contains("/items"), "\(screen.results)")
        // A real call afterwards goes out as usual.
        #expect(try await shell.evaluate("items().count") == .int(1))
        #expect(server.requestHeads.count == 1)
    }
}
