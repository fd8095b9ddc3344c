import DemoService
import Foundation
import Testing
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// The Swift `typist generate` wrote for the demo's OpenAPI document (`Tests/GeneratedHost`) is
/// what it writes today, and gives the shell the same functions and types as the document itself.
@Suite("A host from generated Swift")
struct GeneratedHostTests {
    @Test("Tests/GeneratedHost/Generated is current (typist generate --check)")
    func current() async throws {
        try await withTemporaryFolder("typist-generated-host") { folder in
            let document = folder.appendingPathComponent("openapi.yaml")
            try DemoOpenAPI.document.write(to: document, atomically: true, encoding: .utf8)
            let generated = Built.packageRoot.appendingPathComponent("Tests/GeneratedHost/Generated").path
            let checked = try await Built.run("typist", ["generate", "--openapi", document.path, "--output", generated, "--check"],
                                              environment: ["XDG_CACHE_HOME": folder.path])
            #expect(checked.status == 0, "\(checked.error)")
        }
    }

    @Test("Its registry gives scripts the document's functions and types")
    func sameTypes() async throws {
        let document = try OpenAPIDocument(text: DemoOpenAPI.document, name: "openapi.yaml")
        let expected = try EndpointRegistry { document }.typeSummary
        let host = try await Built.run("generated-host", [])
        #expect(host.status == 0, "\(host.error)")
        #expect(host.standard.split(separator: "\n").map(String.init) == expected)
    }
}
