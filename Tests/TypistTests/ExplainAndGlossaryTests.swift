import APIScript
import Foundation
import Testing
import TypistTesting
@testable import Typist

/// `:explain` puts the last failed call in the pattern's terms; the glossary maps the write-ups'
/// names to TypedAPI's.
@Suite(":explain and the glossary")
struct ExplainAndGlossaryTests {
    @Test("Each kind of failure is explained by its APIError case, its check and the write-up that introduced it",
          arguments: [
              ("post(id: 999)", ["post(id:): APIError.unacceptableStatus (404)", "request: GET ", "/posts/999",
                                 "write-up 4's validateStatusCode", "server:  {}"]),
              ("search(query: \"mug\")", ["search(query:): a missing credential", "'AccessToken' and '()' must be equivalent"]),
              ("notJSON()", ["APIError.unexpectedContentType (expected application/json, found text/html", "validateContentType"]),
              ("wrongType()", ["APIError.decodingFailed (Post at id: expected Int", "write-up 0"]),
              ("status(code: 503)", ["APIError.unacceptableStatus (503)", "server:  its error model decoded as"]),
              ("redirectLoop()", ["APIError.tooManyRedirects (10)"]),
              // A limit of 2 s against an answer that takes a minute: a time-out however loaded the machine.
              ("timeout = 2; httpGet(\"/faults/slow\", query: [\"ms\": \"60000\"])", ["httpGet(_:): APIError.timedOut"]),
          ])
    func explains(input: String, expected: [String]) async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":explain")
            #expect(output.standard.contains("no call has failed yet"))
            #expect(await shell.handle(input) == false)
            output.clear()
            await shell.handle(":explain")
            for piece in expected {
                #expect(output.standard.contains(piece), "\(piece)\n\(output.standard)")
            }
        }
    }

    @Test("A rolled-back input keeps its failure for :explain, and a token in the URL stays masked")
    func keptAndMasked() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("token = \"s3cr3t-value\"")
            #expect(await shell.handle("let x = httpGet(\"/v1/search\", query: [\"q\": \"s3cr3t-value\"]).status; post(id: 999)") == false)
            output.clear()
            await shell.handle(":explain")
            #expect(output.standard.contains("unacceptableStatus (404)"), "\(output.standard)")
            #expect(!output.all.contains("s3cr3t-value"))
        }
    }

    @Test("The glossary: :help of a write-up's name answers with TypedAPI's, and :glossary lists them by write-up")
    func glossary() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle(":help Route")
            #expect(output.standard.contains("Route (write-up 0 · an endpoint coupled with its model) — in TypedAPI: Endpoint<Kind, Response>"),
                    "\(output.standard)")
            output.clear()
            await shell.handle(":help networkresponse")
            #expect(output.standard.contains("ResponseDecoding.json(envelope:)"), "\(output.standard)")
            output.clear()
            await shell.handle(":glossary")
            for term in ["Route", "Request", "HTTPError", "APIConfig", "NetworkResponse", "EndpointKind", "HTTPHeader"] {
                #expect(output.standard.contains("  \(term) "), "\(term)")
            }
            #expect(output.standard.split(separator: "\n").filter { $0.hasPrefix("Write-up ") }.count == 5)
        }
    }
}
