import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// An API written with Flask-RESTX, through the Swagger 2.0 document it writes: models with a
/// nested one, no summaries, refusals keyed by dotted paths.
@Suite("A Flask-RESTX service", .enabled(if: FlaskRESTXServer.unavailable == nil, "\(FlaskRESTXServer.unavailable ?? "")"))
struct FlaskRESTXTests {
    @Test("A model with a nested one is labels, the nested any JSON; a refusal of a nested field names its argument")
    func todos() async throws {
        let server = try await FlaskRESTXServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/swagger.json", cacheDirectory: nil)
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // `Todo.owner` is `fields.Nested(owner)`: the body was one `body:` for it.
        let create = try #require(shell.registry.endpoint(named: "postTodoList"))
        #expect(create.swiftSignature
            == "postTodoList(xFields: String? = nil, task: String, done: Bool? = nil, owner: Any = nil, priority: PostTodoListPriority? = nil) -> Endpoint<Public, Todo>")
        // No summary in the document: none, rather than its method and path again.
        #expect(create.summary == "")
        #expect(try await shell.evaluate(#"postTodoList(task: "Test", owner: ["name": "Bo"], priority: .high).owner?.name"#) == .string("Bo"))
        #expect(try await shell.evaluate("getTodoList(limit: 5).map(\\.task)") == .array([.string("Write"), .string("Test")]))
        // A nested field the model requires is required before anything is sent.
        _ = await shell.handle(#"postTodoList(task: "Bad", owner: ["email": "x@example.com"])"#)
        #expect(output.error.contains(#"owner needs the key "name" (the document requires it)"#), "\(output.error)")
        // Sent anyway (untyped), Flask-RESTX refuses the nested field by its dotted path.
        _ = try await shell.evaluate(#"let sent = httpPost("/todos/", json: ["task": "Bad", "owner": ["email": "x@example.com"]])"#)
        #expect(try await shell.evaluate("sent.status") == .int(400))
        #expect(try await shell.evaluate(#"sent.text?.contains("'name' is a required property")"#) == .bool(true))
    }
}
