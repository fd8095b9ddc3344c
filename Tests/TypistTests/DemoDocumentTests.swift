import APIScript
import DemoBindings
import DemoService
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
@testable import TypistCore
@testable import TypistOpenAPI

/// The demo service's own OpenAPI document (`GET /openapi.yaml`) against its Swift bindings: the
/// same functions, the same requests, and the examples and README session run the same on both.
@Suite("The demo service's OpenAPI document")
struct DemoDocumentTests {
    private static func document() throws -> OpenAPIDocument {
        try OpenAPIDocument(text: DemoOpenAPI.document, name: "openapi.yaml", baseURL: URL(string: "http://127.0.0.1:9/openapi.yaml"))
    }

    @Test("Every endpoint the bindings register, with the same name, labels, types, defaults, kind and response")
    func sameFunctions() throws {
        let document = try Self.document()
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let compiled = try DemoBindings.registry()
        let described = try EndpointRegistry { document }
        #expect(described.endpoints.map(\.name).sorted() == compiled.endpoints.map(\.name).sorted())
        for endpoint in compiled.endpoints {
            let other = try #require(described.endpoint(named: endpoint.name), "\(endpoint.name)")
            #expect(other.group == endpoint.group, "\(endpoint.name)")
            #expect(other.summary == endpoint.summary, "\(endpoint.name)")
            #expect(other.kindName == endpoint.kindName, "\(endpoint.name)")
            #expect(other.parameters.map(\.label) == endpoint.parameters.map(\.label), "\(endpoint.name)")
            #expect(other.parameters.map(\.scriptType) == endpoint.parameters.map(\.scriptType), "\(endpoint.name)")
            #expect(other.parameters.map(\.defaultValue) == endpoint.parameters.map(\.defaultValue), "\(endpoint.name)")
            #expect(other.parameters.map { $0.enumeration?.typeName } == endpoint.parameters.map { $0.enumeration?.typeName },
                    "\(endpoint.name)")
            #expect(other.responseTypeName == endpoint.responseTypeName, "\(endpoint.name)")
            #expect(Self.shape(other.responseType) == Self.shape(endpoint.responseType), "\(endpoint.name)")
            #expect(other.producesToken == endpoint.producesToken, "\(endpoint.name)")
        }
    }

    /// A type written out with its records' fields (`Post{userId: Int, …}`), to compare models
    /// built from Swift and from the document (each a record type of its own).
    private static func shape(_ type: ScriptType, seen: Set<String> = []) -> String {
        switch type {
        case .record(let record):
            guard !seen.contains(record.name) else { return record.name }
            let fields = record.fields.map { "\($0.name): \(shape($0.type, seen: seen.union([record.name])))" }
            return record.name + "{" + fields.joined(separator: ", ") + "}"
        case .array(let element): return "[" + shape(element, seen: seen) + "]"
        case .optional(let wrapped): return shape(wrapped, seen: seen) + "?"
        case .dictionary(let value): return "[String: " + shape(value, seen: seen) + "]"
        default: return type.description
        }
    }

    /// A call of `endpoint` with an argument of each parameter's type.
    private static func call(_ endpoint: EndpointRegistration) -> String {
        let arguments = endpoint.parameters.map { parameter -> String in
            let value: String
            if let first = parameter.enumeration?.cases.last {
                value = "." + first.name
            } else {
                switch parameter.scriptType.unwrapped {
                // Within every rule the document gives an Int (`status(code:)` takes 200...599).
                case .int: value = "202"
                case .double: value = "2.5"
                case .bool: value = "true"
                // The one string a UUID parameter takes too; spaces and a slash for the escaping.
                case .string: value = parameter.swiftType.hasPrefix("UUID") ? #""D4F28578-51BD-40F4-A8BD-387668E06EF8""# : #""a b/c""#
                default: value = "nil"
                }
            }
            return (parameter.label.map { "\($0): " } ?? "") + value
        }
        return "\(endpoint.name)(\(arguments.joined(separator: ", ")))"
    }

    @Test("Each endpoint's request is the same from the document as from the bindings (`:curl` of a call of each)")
    func sameRequests() async throws {
        let compiled = try DemoBindings.registry()
        let document = try Self.document()
        let described = try EndpointRegistry { document }
        var previews: [[String]] = []
        for registry in [compiled, described] {
            let output = CapturedOutput()
            let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: AsyncHTTPClientTransport(), output: output.shellOutput)
            #expect(await shell.handle(#"token = "t0ken-value"; username = "ada"; password = "lovelace""#))
            var lines: [String] = []
            for endpoint in compiled.endpoints {
                output.clear()
                let call = Self.call(endpoint)
                #expect(await shell.handle(":curl \(call)"), "\(call): \(output.error)")
                lines.append(call + "\n" + output.standard)
            }
            previews.append(lines)
        }
        #expect(previews[0].count == compiled.endpoints.count)
        for (fromSwift, fromDocument) in zip(previews[0], previews[1]) {
            // The same JSON: Foundation's encoder (the Swift models') writes `/` as `\/`.
            #expect(fromSwift.replacingOccurrences(of: #"\/"#, with: "/") == fromDocument)
        }
    }

    @Test("Every example script prints the same through `typist --openapi http://…/openapi.yaml` as through the bindings",
          arguments: ["smoke.api", "tour.api", "dogs.api", "blog.api", "github.api", "accounts.api", "faults.api", "builds.api"])
    func examples(name: String) async throws {
        var outputs: [String] = []
        for fromDocument in [false, true] {
            // A service of its own for each run: the scripts write posts.
            let server = try await DemoServer.start()
            let arguments = fromDocument ? ["--openapi", server.baseURL + "/openapi.yaml"] : ["--base-url", server.baseURL]
            let result: Built.Result
            do {
                result = try await withTemporaryFolder("typist-demo-document") { cache in
                    try await Built.run("typist", ["run", "Examples/\(name)"] + arguments, environment: ["XDG_CACHE_HOME": cache.path])
                }
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            #expect(result.status == 0, "\(name) \(arguments): \(result.error)")
            #expect(result.error.isEmpty, "\(result.error)")
            outputs.append(Built.normalized(result.standard))
        }
        #expect(!outputs[0].isEmpty)
        #expect(outputs[0] == outputs[1])
    }
}
