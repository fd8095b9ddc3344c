import APIScript
import Foundation
import Testing
import TypedAPI
import TypistCore
@testable import TypistOpenAPI

/// A body value scripts pass as any JSON (an object field, a list of them, a whole `body:`) is
/// checked against the type its schema gives it: at check time where the argument is a literal
/// or its type alone rules it out, before anything is sent where it is computed.
@Suite("Body values checked against their schema")
struct BodySchemaTests {
    static let document = """
        openapi: 3.0.3
        servers: [{url: "http://127.0.0.1:9"}]
        paths:
          /records:
            post:
              operationId: createRecord
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        data: {type: object, additionalProperties: {}}
                        permissions:
                          type: object
                          properties:
                            read: {type: array, items: {type: string}}
                            write: {type: array, items: {type: string}}
                        tags: {type: array, items: {$ref: "#/components/schemas/Tag"}}
              responses: {"201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/Tag"}}}}}
          /bulk:
            post:
              operationId: bulk
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {type: array, items: {$ref: "#/components/schemas/Tag"}}
              responses: {"204": {description: done}}
        components:
          schemas:
            Tag:
              type: object
              required: [name]
              properties:
                id: {type: integer, readOnly: true}
                name: {type: string}
                weight: {type: number}
        """

    private func shell() throws -> (Shell, CapturedOutput) {
        let output = CapturedOutput()
        return (try documentShell(try OpenAPIDocument(text: Self.document, name: "records.yaml"), output: output), output)
    }

    private func errors(_ shell: Shell, _ text: String) -> [String] {
        shell.check(ScriptSource(name: "s.api", text: text)).map(\.message)
    }

    @Test("Literals the schema rules out are errors at check time, each naming the path and the document's type")
    func literals() throws {
        let (shell, _) = try shell()
        let tail = " (httpPost(…) sends values the document rules out)"
        #expect(errors(shell, "createRecord(data: 42)") == ["data must be an object (the document's type), not 42" + tail])
        #expect(errors(shell, #"createRecord(permissions: ["read": "everyone"])"#)
                == [#"permissions.read must be a list of strings (the document's type), not "everyone""# + tail])
        #expect(errors(shell, #"createRecord(permissions: ["raed": ["system.Everyone"]])"#)
                == [#"permissions has no key "raed" in the document (did you mean "read"?)"# + tail])
        #expect(errors(shell, #"createRecord(tags: [["weight": 2]])"#)
                == [#"tags[0] needs the key "name" (the document requires it)"# + tail])
        #expect(errors(shell, #"createRecord(tags: [["name": "x", "weight": "heavy"]])"#)
                == [#"tags[0].weight must be a number (the document's type), not "heavy""# + tail])
        // `id` is readOnly: not a key a request sends.
        #expect(errors(shell, #"bulk(body: ["name": "x"])"#) == ["body must be a list of objects with the keys name, weight (the document's type), not a dictionary" + tail])
        // What the schema allows: any keys in an open object, integers for numbers, nil for optionals.
        #expect(errors(shell, #"createRecord(data: ["title": "x", "n": 1], permissions: ["read": ["system.Everyone"]], tags: [["name": "x", "weight": 2]])"#) == [])
        #expect(errors(shell, #"bulk(body: [["name": "a"], ["name": "b", "weight": 0.5]])"#) == [])
    }

    @Test("A computed argument: its static type where no value of it fits, its value before anything is sent")
    func computed() async throws {
        let (shell, _) = try shell()
        #expect(errors(shell, "let n = 3\ncreateRecord(data: n)") == ["data must be an object (the document's type), not an Int (httpPost(…) sends values the document rules out)"])
        #expect(errors(shell, #"let names = ["a"]"# + "\nbulk(body: names)")
                == ["body[] must be an object with the keys name, weight (the document's type), not a String (httpPost(…) sends values the document rules out)"])
        // A value only the run can judge: refused before the network (port 9 would fail otherwise).
        _ = try await shell.evaluate(#"var perms = ["raed": ["x"]]"#)
        #expect(errors(shell, "createRecord(permissions: perms)") == [])
        let refused = await #expect(throws: (any Error).self) { try await shell.evaluate("createRecord(permissions: perms)") }
        #expect(String(describing: refused).contains(#"permissions has no key "raed" in the document (did you mean "read"?). Nothing was sent"#),
                "\(String(describing: refused))")
    }

    @Test("The schema's type survives the document cache; :describe says it beside the parameter")
    func cachedAndDescribed() async throws {
        try await withTemporaryFolder("typist-body-schema") { folder in
            let cache = folder.appendingPathComponent("cache")
            let path = folder.appendingPathComponent("records.yaml").path
            try Self.document.write(toFile: path, atomically: true, encoding: .utf8)
            _ = try await OpenAPIDocument.load(path, cacheDirectory: cache)
            // Marked in the cache file, so that the next load shows it read the cache.
            let file = cache.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".json") }))
            let written = try String(contentsOf: file, encoding: .utf8)
            let title = try #require(written.firstRange(of: #""title":""#))
            try written.replacingCharacters(in: title, with: #""title":"From the cache","ignored":""#).write(to: file, atomically: true, encoding: .utf8)
            let cached = try await OpenAPIDocument.load(path, cacheDirectory: cache)
            #expect(cached.title == "From the cache")
            let permissions = try #require(cached.operations.first { $0.name == "createRecord" }?.arguments.first { $0.label == "permissions" })
            #expect(permissions.schemaType.map(SchemaConformance.summary(of:)) == "an object with the keys read, write")
            let output = CapturedOutput()
            let shell = try documentShell(cached, output: output)
            #expect(errors(shell, #"createRecord(permissions: ["read": "everyone"])"#).count == 1)
            _ = await shell.handle(":describe createRecord")
            #expect(output.standard.contains("permissions: Any = nil  (an object with the keys read, write)"), "\(output.standard)")
            #expect(output.standard.contains("tags: Any = nil  (a list of objects with the keys name, weight)"), "\(output.standard)")
        }
    }
}
