import APIScript
import Testing
@testable import TypistOpenAPI

/// A document's rules for a value beyond its type, read from its schema and checked before a call.
@Suite("Constraints on argument values")
struct ValueConstraintsTests {
    private func constraints(_ yaml: String) throws -> ValueConstraints? {
        ValueConstraints(schema: try SpecNode.parse(yaml, name: "schema.yaml"))
    }

    @Test("Bounds in OpenAPI 3.0's form (a flag beside the bound) and 3.1's (the bound itself); none, no constraints")
    func bounds() throws {
        let closed = try #require(try constraints("{type: integer, minimum: 1, maximum: 50}"))
        #expect(closed.summary == "1...50")
        #expect(closed.violation(of: .int(1), label: "limit", secret: false) == nil)
        #expect(closed.violation(of: .int(50), label: "limit", secret: false) == nil)
        #expect(closed.violation(of: .int(0), label: "limit", secret: false) == "limit must be at least 1 (the document's minimum), not 0")
        #expect(closed.violation(of: .double(50.5), label: "limit", secret: false) == "limit must be at most 50 (the document's maximum), not 50.5")
        #expect(closed.violation(of: .null, label: "limit", secret: false) == nil)
        let open30 = try #require(try constraints("{type: number, minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true}"))
        let open31 = try #require(try constraints("{type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}"))
        #expect(open30 == open31)
        #expect(open31.summary == "> 0, < 1")
        #expect(open31.violation(of: .int(0), label: "p", secret: false) == "p must be greater than 0 (the document's exclusiveMinimum), not 0")
        #expect(open31.violation(of: .int(1), label: "p", secret: false) == "p must be less than 1 (the document's exclusiveMaximum), not 1")
        #expect(open31.violation(of: .double(0.5), label: "p", secret: false) == nil)
        #expect(try constraints("{type: integer, minimum: 0}")?.summary == "≥ 0")
        // Kinto's counts: a maximum of 2^63 rules out no Int, and is not shown as 9.223372036854776e+18.
        #expect(try constraints("{type: integer, minimum: 0, maximum: 9223372036854775808}")?.summary == "≥ 0")
        #expect(try constraints("{type: integer, minimum: 1, maximum: 10000000000000000}")?.summary == "1...10000000000000000")
        #expect(try constraints("{type: integer, exclusiveMinimum: true}") == nil)
        #expect(try constraints("{type: string, format: date}") == nil)
    }

    @Test("A request is refused at the first argument a rule rules out; the document's own default is sent even where it breaks a rule")
    func requests() throws {
        let document = try OpenAPIDocument(text: """
            openapi: 3.1.0
            paths:
              /pets:
                get:
                  operationId: pets
                  parameters:
                    - { name: page, in: query, schema: { type: integer, minimum: 1, default: 0 } }
                    - { name: tag, in: query, schema: { type: string, maxLength: 3 } }
                  responses: { "200": { description: x } }
            """, name: "c.yaml")
        let operation = try #require(document.operations.first)
        #expect(try SpecRequest(operation, [.int(0), .null]).refusal == nil)
        #expect(try SpecRequest(operation, [.int(2), .string("abc")]).refusal == nil)
        let refusal = try #require(try SpecRequest(operation, [.int(-1), .string("abcd")]).refusal)
        #expect(refusal.index == 0)
        #expect(refusal.message == "page must be at least 1 (the document's minimum), not -1. Nothing was sent: httpGet(…) sends values the document rules out")
        #expect(try SpecRequest(operation, [.int(1), .string("abcd")]).refusal?.index == 1)
    }

    @Test("Lengths in code points, patterns unanchored as JSON Schema has them, counts of elements; a secret is not quoted")
    func strings() throws {
        let name = try #require(try constraints("{type: string, minLength: 2, maxLength: 4}"))
        #expect(name.summary == "2...4 characters")
        #expect(name.violation(of: .string("é👍"), label: "name", secret: false) == nil)
        #expect(name.violation(of: .string("x"), label: "name", secret: false)
                == "name must be at least 2 characters long (the document's minLength); it has 1")
        #expect(name.violation(of: .string("abcde"), label: "name", secret: false)
                == "name may be at most 4 characters long (the document's maxLength); it has 5")
        let tag = try #require(try constraints("{type: string, pattern: '[a-z]+'}"))
        #expect(tag.violation(of: .string("AB1c"), label: "tag", secret: false) == nil)
        #expect(tag.violation(of: .string("AB1"), label: "tag", secret: false) == #"tag must match the document's pattern "[a-z]+"; "AB1" does not"#)
        #expect(tag.violation(of: .string("AB1"), label: "pin", secret: true) == #"pin must match the document's pattern "[a-z]+"; it does not"#)
        #expect(tag.violation(of: .secret("AB1"), label: "pin", secret: false) == #"pin must match the document's pattern "[a-z]+"; it does not"#)
        // A pattern Swift cannot read is not checked: the service will.
        #expect(try constraints("{type: string, pattern: '[a-'}") == nil)
        let ids = try #require(try constraints("{type: array, items: {type: integer}, minItems: 1, maxItems: 3}"))
        #expect(ids.summary == "1...3 elements")
        #expect(ids.violation(of: .array([]), label: "ids", secret: false) == "ids must have at least 1 element (the document's minItems); it has 0")
        #expect(ids.violation(of: .array([.int(1), .int(2), .int(3), .int(4)]), label: "ids", secret: false)
                == "ids may have at most 3 elements (the document's maxItems); it has 4")
        #expect(try constraints("{type: string, minLength: 1}")?.summary == "at least 1 character")
    }
}
