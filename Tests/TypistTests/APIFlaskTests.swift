import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
@testable import TypistCore
@testable import TypistOpenAPI

/// An API written with APIFlask (Flask and marshmallow), through the document it writes: its
/// bodies are never marked `required`, its refusals are in marshmallow's shape.
@Suite("An APIFlask service, with marshmallow's refusals", .enabled(if: APIFlaskServer.unavailable == nil, "\(APIFlaskServer.unavailable ?? "")"))
struct APIFlaskTests {
    @Test("The fields its schema requires are required arguments; what it refuses is said per argument")
    func refusals() async throws {
        let server = try await APIFlaskServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // No `servers`: the service the document came from.
        #expect(try await shell.evaluate("getPets().map(\\.name)") == .array([.string("Kitty")]))
        // The body is not marked required, yet `name` and `category` are: leaving one out is an
        // error when the script is checked, as it would be a 422 from the service.
        let create = try #require(shell.registry.endpoint(named: "postPets"))
        #expect(create.parameters.map { "\($0.label ?? $0.name): \($0.swiftType)" } == ["category: PostPetsCategory", "name: String", "tags: [String]?"])
        #expect(shell.check(ScriptSource(name: "p.api", text: "postPets(category: .dog)")).map(\.message) == ["missing argument for parameter 'name' in call"])
        #expect(try await shell.evaluate("postPets(category: .dog, name: \"Rex\").id") == .int(1))
        // A rule no document states (a capital letter first): the service's refusal, read from
        // marshmallow's `{"detail": {"json": {"name": […]}}}` and said against the argument.
        _ = await shell.handle(#"postPets(category: .cat, name: "tom")"#)
        #expect(output.error.contains("422"), "\(output.error)")
        #expect(output.error.contains("note: the service refused 'name' (json.name): must start with a capital letter"), "\(output.error)")
    }
}
