import Foundation
import Testing
@testable import Typist
@testable import TypistCore
@testable import TypistWorkshop
import TypistTesting

/// Every form of registration (RegistrationForms.swift) type-checks cheaply, and `:swift` writes
/// each one's call as Swift that compiles against the host, or says it cannot.
@Suite("Registration forms")
struct RegistrationFormsTests {
    static var forms: URL { Built.packageRoot.appendingPathComponent("Tests/TypistTests/RegistrationForms.swift") }

    static func compile(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let modules = try ReadmeEmbeddingTests.modules()
        let maps = SwiftCheck.clangModuleMaps(beside: modules).flatMap { ["-Xcc", "-fmodule-map-file=" + $0.path] }
        // The caller's -I first: a module it emitted wins over the suite's own of the same name
        // (TypistTests, which imports modules whose maps this command line does not name).
        return try await ReadmeEmbeddingTests.run(["swiftc", "-swift-version", "6"] + arguments + ["-I", modules.path] + maps)
    }

    @Test("Twelve parameters of every kind, in every form, type-check within a tenth of the type checker's default budget")
    func cheapToCompile() async throws {
        // The budget counts the solver's scopes, not seconds: the same on a loaded machine. The
        // default (1,000,000) is where Swift gives up with "unable to type-check … in reasonable time".
        let result = try await Self.compile(["-typecheck", "-parse-as-library", "-module-name", "TypistTests",
                                             "-Xfrontend", "-solver-scope-threshold=100000", Self.forms.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("Twelve optional values built into a query before the return: the values given are sent, the others left out")
    func twelveOptionalValues() async throws {
        let transport = InMemoryTransport(json: #"[{"id": 1, "title": "Dune"}]"#)
        let output = CapturedOutput()
        let shell = try Shell(registry: try RegistrationForms.registry(), environment: try ServerEnvironment(url: "http://books.example.test"),
                              transport: transport, output: output.shellOutput)
        let title = try await shell.evaluate(#"searchBooks(text: "dune", size: 5, available: true, maxPrice: 9.5, pages: 300)[0].title"#)
        #expect(title == .string("Dune"), "\(output.error)")
        let sent = try #require(transport.last)
        #expect(sent.url.hasPrefix("http://books.example.test/search?"), "\(sent.url)")
        let query = URLComponents(string: sent.request.path ?? "")?.queryItems ?? []
        #expect(query.map { "\($0.name)=\($0.value ?? "")" } == ["q=dune", "size=5", "available=true", "max_price=9.5", "pages=300"])
    }

    @Test(":swift of each form compiles against the host's module; a function passed as endpoint: is said to be unseen")
    func swiftForEveryForm() async throws {
        try await withTemporaryFolder("typist-forms") { folder in
            let built = try await Self.compile(["-emit-module", "-parse-as-library", "-module-name", "TypistTests",
                                                "-emit-module-path", folder.appendingPathComponent("TypistTests.swiftmodule").path,
                                                Self.forms.path])
            try #require(built.status == 0, "\(built.output)")
            let output = CapturedOutput()
            let shell = try Shell(registry: try RegistrationForms.registry(), environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: URLSessionTransport(), output: output.shellOutput)
            for name in ["formBooks", "inlineBooks", "expressionBooks", "namedBooks"] {
                output.clear()
                let arguments = name == "inlineBooks" ? "ids: [2, 1]" : name == "expressionBooks" ? #"filters: ["q": "x"]"# : #"tags: ["a"]"#
                await shell.handle(#":swift \#(name)(author: "Ada", sort: "year", size: 5, \#(arguments))"#)
                let swift = output.standard
                #expect(output.error.isEmpty, "\(name): \(output.error)")
                let file = folder.appendingPathComponent("\(name).swift")
                try swift.write(to: file, atomically: true, encoding: .utf8)
                let checked = try await Self.compile(["-typecheck", "-I", folder.path, file.path])
                #expect(checked.status == 0, "\(name):\n\(swift)\n\(checked.output)")
            }
            output.clear()
            await shell.handle(#":swift functionBooks(author: "Ada")"#)
            #expect(output.standard.contains("functionBooks is registered at RegistrationForms.swift:"), "\(output.standard)")
            #expect(output.standard.contains("the function 'makeFormBooks'"))
            #expect(output.standard.contains("cannot show how its Endpoint is built"))
        }
    }
}
