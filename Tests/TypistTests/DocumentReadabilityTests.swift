import Foundation
import Testing
import TypistCore
@testable import TypistOpenAPI

/// A document's functions and models read as a person would write them: which arguments are
/// headers, counts as integers, no stuttering names.
@Suite("A document's functions read well")
struct DocumentReadabilityTests {
    static let document = """
        openapi: 3.0.3
        servers: [{url: "http://127.0.0.1:9"}]
        paths:
          /buckets/{id}:
            get:
              operationId: getBucket
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - {name: If-None-Match, in: header, schema: {type: string}}
                - {name: X-Mode, in: header, schema: {type: string, enum: [fast, safe]}}
                - {name: _limit, in: query, schema: {type: integer, minimum: 0, maximum: 9223372036854775808}}
              responses:
                "200":
                  description: one
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          data: {type: object, properties: {id: {type: string}, last_modified: {type: integer}}}
                          permissions: {type: object, properties: {read: {type: array, items: {type: string}}}}
            put:
              operationId: updateBucket
              parameters: [{name: id, in: path, required: true, schema: {type: string}}]
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        data: {type: object, additionalProperties: {}}
                        tags: {type: array, items: {type: string}, default: []}
              responses:
                "200":
                  description: one
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          data: {type: object, properties: {id: {type: string}, last_modified: {type: integer}}}
                          permissions: {type: object, properties: {read: {type: array, items: {type: string}}}}
          /buckets:
            get:
              operationId: getBuckets
              responses:
                "200":
                  description: all
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          data: {type: array, default: [], items: {type: object, properties: {id: {type: string}, last_modified: {type: integer}}}}
          /batch:
            post:
              operationId: batch
              responses:
                "200":
                  description: answers
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          responses: {type: array, items: {type: object, properties: {status: {type: integer}, body: {type: object, additionalProperties: {}}}}}
        """


    @Test(":describe names the headers a function's arguments travel in, and a 64-bit count's bound is not a float")
    func describeHeadersAndCounts() async throws {
        let output = CapturedOutput()
        let shell = try documentShell(try OpenAPIDocument(text: Self.document, name: "buckets.yaml"), output: output)
        #expect(await shell.handle(":describe getBucket"))
        let text = output.standard
        #expect(text.contains("\n  header:   If-None-Match: {ifNoneMatch}\n"), "\(text)")
        #expect(text.contains("\n  header:   X-Mode: {xMode}\n"), "\(text)")
        #expect(text.contains("limit: Int? = nil  (≥ 0)\n"), "\(text)")
        #expect(!text.contains("e+18"), "\(text)")
        output.clear()
        #expect(await shell.handle(":describe batch"))
        #expect(output.standard.contains("responses: [BatchResponseItem]?"), "\(output.standard)")
    }

    @Test("generate names a list's elements without repeating their owner and writes any JSON in a map as JSONValue")
    func generatedNames() async throws {
        let files = SwiftGenerator(document: try OpenAPIDocument(text: Self.document, name: "buckets.yaml")).files()
        let models = Set(files.map(\.path).filter { $0.hasPrefix("Models/") })
        #expect(models.contains("Models/BatchResponseItem.swift") && !models.contains("Models/BatchResponseResponse.swift"), "\(models.sorted())")
        let batch = try #require(files.first { $0.path == "Models/BatchResponseItem.swift" }).text
        #expect(batch.contains("public var body: [String: JSONValue]?"), "\(batch)")
        // The files type-check: DocumentShapeTests compiles what this document generates.
    }
}
