import Foundation
import Testing
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// A list parameter goes on the wire as the document says: Swagger 2's `collectionFormat`
/// (`csv` when it says nothing), OpenAPI 3's `style` and `explode`; a list in a header is one value.
/// (A joining comma is sent percent-encoded, `a%2Cb`, as every query value's comma is: services decode
/// a value before they split it.)
@Suite("Lists in queries and headers, as documents write them")
struct ListStyleTests {
    static let swagger = """
        swagger: "2.0"
        info: {title: Lists, version: "1"}
        host: 127.0.0.1:9
        schemes: [http]
        paths:
          /things:
            get:
              operationId: things
              parameters:
                - {name: plain, in: query, type: array, items: {type: string}}
                - {name: spaced, in: query, type: array, items: {type: string}, collectionFormat: ssv}
                - {name: tabbed, in: query, type: array, items: {type: string}, collectionFormat: tsv}
                - {name: piped, in: query, type: array, items: {type: integer}, collectionFormat: pipes}
                - {name: repeated, in: query, type: array, items: {type: string}, collectionFormat: multi}
                - {name: X-Tags, in: header, type: array, items: {type: string}}
              responses: {"200": {description: ok}}
        """

    static let openAPI = """
        openapi: 3.0.3
        info: {title: Lists, version: "1"}
        servers: [{url: "http://127.0.0.1:9"}]
        paths:
          /things:
            get:
              operationId: things
              parameters:
                - {name: exploded, in: query, schema: {type: array, items: {type: string}}}
                - {name: joined, in: query, explode: false, schema: {type: array, items: {type: string}}}
                - {name: spaced, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: string}}}
                - {name: piped, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string}}}
                - {name: X-Tags, in: header, schema: {type: array, items: {type: string}}}
              responses: {"200": {description: ok}}
        """

    private func curl(_ text: String, _ call: String) async throws -> String {
        let output = CapturedOutput()
        let shell = try documentShell(try OpenAPIDocument(text: text, name: "lists.yaml"), output: output)
        _ = await shell.handle(":curl " + call)
        return output.standard
    }

    @Test("Swagger 2: csv by default, ssv, tsv, pipes, multi; a header list joined with commas")
    func swagger() async throws {
        let shown = try await curl(Self.swagger, #"things(plain: ["a", "b"], spaced: ["c", "d"], tabbed: ["e", "f"], piped: [1, 2], repeated: ["g", "h"], xTags: ["x", "y"])"#)
        #expect(shown.contains("/things?plain=a%2Cb&spaced=c%20d&tabbed=e%09f&piped=1%7C2&repeated=g&repeated=h"), "\(shown)")
        #expect(shown.contains("-H 'X-Tags: x,y'"), "\(shown)")
        // An empty list is no parameter at all, as `multi` sends none.
        let empty = try await curl(Self.swagger, #"things(plain: [], repeated: [])"#)
        #expect(empty.contains("'http://127.0.0.1:9/things' "), "\(empty)")
    }

    @Test("OpenAPI 3: form exploded by default, explode: false joins with commas, spaceDelimited, pipeDelimited")
    func openAPI() async throws {
        let shown = try await curl(Self.openAPI, #"things(exploded: ["a", "b"], joined: ["c", "d"], spaced: ["e", "f"], piped: ["g", "h"], xTags: ["x"])"#)
        #expect(shown.contains("/things?exploded=a&exploded=b&joined=c%2Cd&spaced=e%20f&piped=g%7Ch"), "\(shown)")
        #expect(shown.contains("-H 'X-Tags: x'"), "\(shown)")
    }

    @Test("A cached document keeps each parameter's style")
    func cached() async throws {
        try await withTemporaryFolder("typist-list-cache") { folder in
            _ = try OpenAPIDocument(text: Self.swagger, name: "lists.yaml", cacheDirectory: folder)
            let document = try OpenAPIDocument(text: Self.swagger, name: "lists.yaml", cacheDirectory: folder)
            let operation = try #require(document.operations.first)
            #expect(operation.arguments.map(\.listStyle) == [.csv, .ssv, .tsv, .pipes, .multi, .csv])
        }
    }

    @Test("generate writes each list as the document sends it, and the Swift type-checks")
    func generated() async throws {
        try await withTemporaryFolder("typist-list-generate") { folder in
            let document = folder.appendingPathComponent("lists.yaml")
            try Self.swagger.write(to: document, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("out")
            let written = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output.path],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(written.status == 0, "\(written.error)")
            let endpoints = try String(contentsOf: output.appendingPathComponent("Endpoints.swift"), encoding: .utf8)
            #expect(endpoints.contains(#"$0.joined(separator: "|")"#), "\(endpoints)")
            #expect(endpoints.contains(#"for item in repeated ?? [] { query.append(URLQueryItem(name: "repeated", value: String(describing: item))) }"#))
            #expect(endpoints.contains(#"headers.append(.custom(name: "X-Tags", value: text))"#))
            let checked = try await GenerateTests.typecheck(folder: output)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }
}
