import Foundation
import Testing
import TypistTesting

/// Documents written to hurt, each under 1 KB: every one ends `check`, `run` and `generate` with a
/// usable answer (the generated Swift type-checks), or one clear error, in bounded time and memory.
@Suite("Documents that fight back")
struct HostileDocumentTests {
    /// The documents, by name: each a way a real tool has been brought down.
    static let documents: [String: String] = [
        // The common "any JSON value": a union that holds arrays and maps of itself.
        "any-json": """
            openapi: 3.0.0
            info: {title: Any JSON, version: "1"}
            paths:
              /things:
                post:
                  operationId: putThing
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/JSONValue'}}}}
                  responses: {"200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/JSONValue'}}}}}
            components:
              schemas:
                JSONValue:
                  oneOf:
                    - {type: string}
                    - {type: number}
                    - {type: array, items: {$ref: '#/components/schemas/JSONValue'}}
                    - {type: object, additionalProperties: {$ref: '#/components/schemas/JSONValue'}}
            """,
        // A schema that is all of itself, twice.
        "all-of-itself": """
            openapi: 3.0.0
            info: {title: Self, version: "1"}
            paths:
              /x:
                get:
                  operationId: getX
                  responses: {"200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}}
            components:
              schemas:
                A:
                  allOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/A'}]
            """,
        // A filter tree: and/or/not of itself.
        "filter-tree": """
            openapi: 3.0.0
            info: {title: Filters, version: "1"}
            paths:
              /search:
                post:
                  operationId: search
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Filter'}}}}
                  responses: {"200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Filter'}}}}}
            components:
              schemas:
                Filter:
                  type: object
                  properties:
                    and: {type: array, items: {$ref: '#/components/schemas/Filter'}}
                    or: {type: array, items: {oneOf: [{$ref: '#/components/schemas/Filter'}, {$ref: '#/components/schemas/Leaf'}]}}
                    not: {$ref: '#/components/schemas/Filter'}
                Leaf: {type: object, properties: {field: {type: string}, value: {$ref: '#/components/schemas/Filter'}}}
            """,
        // Defaults of the wrong type: sent as they are, they would be values the type rules out.
        "wrong-defaults": """
            openapi: 3.0.0
            info: {title: Defaults, version: "1"}
            paths:
              /x:
                get:
                  operationId: getX
                  parameters:
                    - {name: limit, in: query, schema: {type: integer, default: "ten"}}
                    - {name: tags, in: query, schema: {type: array, items: {type: string}, default: "a"}}
                    - {name: flag, in: query, schema: {type: boolean, default: 3}}
                    - {name: sort, in: query, schema: {type: string, enum: [asc, desc], default: sideways}}
                  responses: {"200": {description: ok}}
            """,
        // Lists with defaults, as FastAPI writes them (Apache Airflow's `order_by`): generate wrote
        // `orderBy: [String] = nil`, which does not compile.
        "list-defaults": """
            openapi: 3.1.0
            info: {title: Lists, version: "2"}
            paths:
              /pools:
                get:
                  operationId: get_pools
                  parameters:
                    - {name: order_by, in: query, schema: {type: array, items: {type: string}, default: [id], title: Order By}}
                    - {name: either, in: query, schema: {anyOf: [{type: array, items: {type: string}}, {type: string}], default: [id]}}
                    - {name: maybe, in: query, schema: {anyOf: [{type: array, items: {type: integer}}, {type: "null"}]}}
                    - {name: none, in: query, schema: {type: array, items: {type: number}, default: []}}
                    - {name: ratio, in: query, schema: {type: number, default: 2}}
                  responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
            """,
        // A pattern that takes a backtracking engine exponential time.
        "catastrophic-pattern": """
            openapi: 3.0.0
            info: {title: ReDoS, version: "1"}
            paths:
              /x:
                get:
                  operationId: getX
                  parameters:
                    - {name: q, in: query, required: true, schema: {type: string, pattern: '^(a+)+$'}}
                  responses: {"200": {description: ok}}
            """,
    ]

    /// 398 bytes of YAML aliases of aliases: nine levels of nine, 387 million values if expanded.
    static let billionLaughs = """
        openapi: 3.0.0
        info: {title: Laughs, version: "1"}
        x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        x-b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        x-c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        x-d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        x-e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        x-f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        x-g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        x-h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        x-i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
        paths: {}
        """

    @Test("self-referring schemas, wrong defaults and a catastrophic pattern: check, run and generate end, and the Swift compiles",
          arguments: documents.keys.sorted())
    func document(named name: String) async throws {
        try await withTemporaryFolder("typist-hostile") { folder in
            let document = folder.appendingPathComponent("\(name).yaml")
            try Self.documents[name, default: ""].write(to: document, atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("x.api")
            try "print(\"ok\")\n".write(to: script, atomically: true, encoding: .utf8)
            let environment = ["XDG_CACHE_HOME": folder.path]
            let check = try await Built.run("typist", ["check", script.path, "--openapi", document.path], environment: environment)
            #expect(check.status == 0, "\(check.error)")
            let run = try await Built.run("typist", ["run", script.path, "--openapi", document.path, "--base-url", "http://127.0.0.1:9"],
                                          environment: environment)
            #expect(run.status == 0 && run.standard == "ok\n", "\(run.error)")
            // A second start reads the cache: the same answer.
            let cached = try await Built.run("typist", ["check", script.path, "--openapi", document.path], environment: environment)
            #expect(cached.status == 0 && cached.error == check.error, "\(cached.error)")
            let output = folder.appendingPathComponent("generated")
            let generated = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output.path], environment: environment)
            #expect(generated.status == 0, "\(generated.error)")
            let checked = try await GenerateTests.typecheck(folder: output)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }

    @Test("a wrong-typed default is left out, said once per parameter, and nothing the type rules out is sent")
    func wrongDefaults() async throws {
        try await withTemporaryFolder("typist-hostile-defaults") { folder in
            let document = folder.appendingPathComponent("defaults.yaml")
            try Self.documents["wrong-defaults", default: ""].write(to: document, atomically: true, encoding: .utf8)
            let run = try await Built.run("typist", ["--openapi", document.path, "--base-url", "http://127.0.0.1:9"],
                                          input: ":curl getX()\n", environment: ["XDG_CACHE_HOME": folder.path])
            #expect(run.error.contains("warning: getX: the default of 'limit' (\"ten\") is not an Int: left out"), "\(run.error)")
            #expect(run.error.contains("warning: getX: the default of 'tags' (\"a\") is not a [String]: left out"))
            #expect(run.error.contains("warning: getX: the default of 'flag' (3) is not a Bool: left out"))
            #expect(run.error.contains("warning: getX: the default of 'sort' (\"sideways\") is not one of its values: left out"))
            #expect(run.standard.contains("'http://127.0.0.1:9/x' \\\n"), "\(run.standard)")
        }
    }

    @Test("a catastrophic pattern is checked at once: the argument it rules out is an error at its place")
    func catastrophicPattern() async throws {
        try await withTemporaryFolder("typist-hostile-pattern") { folder in
            let document = folder.appendingPathComponent("redos.yaml")
            try Self.documents["catastrophic-pattern", default: ""].write(to: document, atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("x.api")
            let argument = String(repeating: "a", count: 64) + "b"
            try "getX(q: \"\(argument)\")\n".write(to: script, atomically: true, encoding: .utf8)
            let check = try await Built.run("typist", ["check", script.path, "--openapi", document.path], environment: ["XDG_CACHE_HOME": folder.path])
            #expect(check.status == 65)
            #expect(check.error.contains("x.api:1:9: error: q must match the document's pattern \"^(a+)+$\""), "\(check.error)")
        }
    }

    @Test("a billion laughs is refused in one line, in bounded memory")
    func billionLaughs() async throws {
        try await withTemporaryFolder("typist-hostile-laughs") { folder in
            let document = folder.appendingPathComponent("laughs.yaml")
            try Self.billionLaughs.write(to: document, atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("x.api")
            try "print(1)\n".write(to: script, atomically: true, encoding: .utf8)
            let check = try await Built.run("typist", ["check", script.path, "--openapi", document.path], environment: ["XDG_CACHE_HOME": folder.path])
            #expect(check.status == 65)
            #expect(check.error.hasPrefix("typist: cannot read ") && check.error.hasSuffix("laughs.yaml: its aliases expand it beyond any document of its size (a \"billion laughs\"?): refused\n"),
                    "\(check.error)")
        }
    }
}
