import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// A list parameter goes on the wire as the document says: Swagger 2's `collectionFormat`
/// (`csv` when it says nothing), OpenAPI 3's `style` and `explode`; a list in a header is one value.
/// (A joining comma is sent percent-encoded, `a%2Cb`, as every query value's comma is: services decode
/// a value before they split it.) A form body's list field goes as its `encoding` says, Swagger 2's
/// `formData` by its `collectionFormat`.
@Suite("Lists in queries, headers and forms, as documents write them")
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

    /// A form of lists, Swagger 2's way, for httpbin's `POST /post` (which echoes the form).
    static func swaggerForm(host: String) -> String {
        """
        swagger: "2.0"
        info: {title: Forms, version: "1"}
        host: \(host)
        schemes: [http]
        paths:
          /post:
            post:
              operationId: postForm
              consumes: [application/x-www-form-urlencoded]
              parameters:
                - {name: plain, in: formData, type: array, items: {type: string}}
                - {name: spaced, in: formData, type: array, items: {type: string}, collectionFormat: ssv}
                - {name: tabbed, in: formData, type: array, items: {type: string}, collectionFormat: tsv}
                - {name: piped, in: formData, type: array, items: {type: integer}, collectionFormat: pipes}
                - {name: repeated, in: formData, type: array, items: {type: string}, collectionFormat: multi}
                - {name: single, in: formData, type: string}
              responses:
                "200": {description: ok, schema: {type: object, properties: {form: {type: object, additionalProperties: {}}}}}
        """
    }

    /// The same form in OpenAPI 3, its lists' styles in `encoding`.
    static func openAPIForm(server: String) -> String {
        """
        openapi: 3.0.3
        info: {title: Forms, version: "1"}
        servers: [{url: "\(server)"}]
        paths:
          /post:
            post:
              operationId: postForm
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema:
                      type: object
                      properties:
                        exploded: {type: array, items: {type: string}}
                        joined: {type: array, items: {type: string}}
                        piped: {type: array, items: {type: string}}
                    encoding:
                      joined: {style: form, explode: false}
                      piped: {style: pipeDelimited}
              responses:
                "200":
                  description: ok
                  content: {application/json: {schema: {type: object, properties: {form: {type: object, additionalProperties: {}}}}}}
        """
    }

    @Test("A Swagger 2 form's lists go by collectionFormat (csv by default) and an OpenAPI 3 form's by its encoding: what httpbin receives",
          .disabled(if: HttpbinServer.unavailable != nil, "\(HttpbinServer.unavailable ?? "")"))
    func forms() async throws {
        let httpbin = try await HttpbinServer.start()
        defer { httpbin.stop() }
        let output = CapturedOutput()
        let host = String(httpbin.baseURL.dropFirst("http://".count))
        let swagger = try documentShell(try OpenAPIDocument(text: Self.swaggerForm(host: host), name: "forms.yaml"), output: output)
        let form = try await swagger.evaluate(
            #"postForm(plain: ["a", "b"], spaced: ["c", "d"], tabbed: ["e", "f"], piped: [1, 2], repeated: ["g", "h"], single: "s").form"#)
        #expect(form == .dictionary(["plain": .string("a,b"), "spaced": .string("c d"), "tabbed": .string("e\tf"), "piped": .string("1|2"),
                                     "repeated": .array([.string("g"), .string("h")]), "single": .string("s")]), "\(form)")
        let openAPI = try documentShell(try OpenAPIDocument(text: Self.openAPIForm(server: httpbin.baseURL), name: "forms.yaml"), output: output)
        let encoded = try await openAPI.evaluate(#"postForm(exploded: ["a", "b"], joined: ["c", "d"], piped: ["e", "f"]).form"#)
        #expect(encoded == .dictionary(["exploded": .array([.string("a"), .string("b")]), "joined": .string("c,d"), "piped": .string("e|f")]),
                "\(encoded)")
    }

    @Test("A form's list styles survive the cache, and generate joins them as the document says; the Swift type-checks")
    func formsCachedAndGenerated() async throws {
        try await withTemporaryFolder("typist-list-forms") { folder in
            let text = Self.swaggerForm(host: "127.0.0.1:9")
            _ = try OpenAPIDocument(text: text, name: "forms.yaml", cacheDirectory: folder)
            let cached = try OpenAPIDocument(text: text, name: "forms.yaml", cacheDirectory: folder)
            #expect(try #require(cached.operations.first).arguments.map(\.listStyle) == [.csv, .ssv, .tsv, .pipes, .multi, .multi])
            let document = folder.appendingPathComponent("forms.yaml")
            try text.write(to: document, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("out")
            let written = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", output.path],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(written.status == 0, "\(written.error)")
            let endpoints = try String(contentsOf: output.appendingPathComponent("Endpoints.swift"), encoding: .utf8)
            #expect(endpoints.contains(#"form.append(URLQueryItem(name: "piped", value: text))"#), "\(endpoints)")
            #expect(endpoints.contains(#"$0.joined(separator: "\t")"#), "\(endpoints)")
            let checked = try await GenerateTests.typecheck(folder: output)
            #expect(checked.status == 0, "\(checked.output)")
        }
    }
}
