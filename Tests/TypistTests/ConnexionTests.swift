import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypedAPICurl
@testable import TypistCore
@testable import TypistOpenAPI

/// An API served by Connexion, which validates every request against its document: the rules
/// Typist checks before sending (`minimum`, `exclusiveMinimum`, `minLength`, `pattern`) are the
/// ones the service enforces — a value Typist refuses the service refuses too, sent untyped, and
/// the bounds it allows pass both.
@Suite("A Connexion service, which holds requests to its document", .enabled(if: ConnexionServer.unavailable == nil, "\(ConnexionServer.unavailable ?? "")"))
struct ConnexionTests {
    @Test("Values the document rules out are refused before sending, as the service would refuse them; its empty server URL is the service")
    func constraints() async throws {
        let server = try await ConnexionServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.json", cacheDirectory: nil)
        // `servers: [{url: ""}]`: where the document came from.
        #expect(document.servers == [server.baseURL])
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        func hits() async throws -> Value { try await shell.evaluate("hits()") }
        // The bounds themselves pass, here and at the service.
        #expect(try await shell.evaluate("petsList(limit: 50, tag: \"dog\").map(\\.name)") == .array([.string("Rex")]))
        #expect(try await shell.evaluate("petsList(limit: 1).count") == .int(1))
        #expect(try await shell.evaluate("petsGet(petId: 1).name") == .string("Rex"))
        #expect(try await hits() == .int(3))
        // Each refused at its argument with the document's rule: a literal when the script is
        // checked, before anything runs; a computed value when the call is made, nothing sent …
        let refusals: [(call: String, value: String, message: String)] = [
            ("petsList(limit: $)", "51", "limit must be at most 50 (the document's maximum), not 51"),
            ("petsList(limit: $)", "0", "limit must be at least 1 (the document's minimum), not 0"),
            ("petsList(tag: $)", "\"A1\"", #"tag must match the document's pattern "^[a-z]+$"; "A1" does not"#),
            ("petsGet(petId: $)", "0", "petId must be greater than 0 (the document's exclusiveMinimum), not 0"),
            ("petsAdd(name: $, tag: .cat)", "\"x\"", "name must be at least 2 characters long (the document's minLength); it has 1"),
        ]
        for (position, refusal) in refusals.enumerated() {
            let literal = refusal.call.replacingOccurrences(of: "$", with: refusal.value)
            let checked = shell.check(ScriptSource(name: "r.api", text: literal)).map(\.message)
            let untyped = refusal.call.hasPrefix("petsAdd") ? "httpPost" : "httpGet"
            #expect(checked == ["\(refusal.message) (\(untyped)(…) sends values the document rules out)"], "\(checked)")
            _ = try await shell.evaluate("let value\(position) = \(refusal.value)")
            let error = await #expect(throws: (any Error).self) {
                try await shell.evaluate(refusal.call.replacingOccurrences(of: "$", with: "value\(position)"))
            }
            let text = String(describing: error)
            #expect(text.contains("\(refusal.message). Nothing was sent: \(untyped)(…) sends values the document rules out"), "\(text)")
        }
        #expect(try await hits() == .int(3))
        // … and the service refuses each as well, sent untyped (the way to send what the document rules out).
        for query in [["limit": "51"], ["limit": "0"], ["tag": "A1"]] {
            let answer = try await shell.evaluate("httpGet(\"/pets\", query: \(ValueFormatter.literal(.dictionary(query.mapValues(Value.string))))).status")
            #expect(answer == .int(400), "\(query)")
        }
        #expect(try await shell.evaluate("httpGet(\"/pets/0\").status") == .int(400))
        #expect(try await shell.evaluate("httpPost(\"/pets\", json: [\"name\": \"x\", \"tag\": \"cat\"]).status") == .int(400))
        #expect(try await shell.evaluate("petsAdd(name: \"Tom\", tag: .cat).id") == .int(2))
        // `:describe` lists the rules.
        _ = await shell.handle(":describe petsList")
        #expect(output.standard.contains("param:    limit: Int = 10  (1...50)") && output.standard.contains("param:    tag: String? = nil  (pattern ^[a-z]+$)"),
                "\(output.standard)")
    }
}
