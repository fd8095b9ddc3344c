import APIScript
import FaultServer
import Foundation
import Testing
import TypedAPI
import TypistTesting
@testable import TypistCore
@testable import TypistOpenAPI

/// An API written with Litestar (msgspec models on uvicorn), through the OpenAPI 3.1 document it
/// writes: a body whose field is an object, a form body typed as a dictionary, a union of
/// tagged structs.
@Suite("A Litestar service", .enabled(if: LitestarServer.unavailable == nil, "\(LitestarServer.unavailable ?? "")"))
struct LitestarTests {
    @Test("A body with an object field is labels, the object any JSON — a dictionary or a value a response gave; a form typed dict[str, str] is sent as a form")
    func bodies() async throws {
        let server = try await LitestarServer.start()
        defer { server.stop() }
        let document = try await OpenAPIDocument.load(server.baseURL + "/schema/openapi.json", cacheDirectory: nil)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let output = CapturedOutput()
        let shell = try documentShell(document, output: output)
        // `NewPet.owner` is `oneOf [Owner, null]`: the body was one `body:` argument for that field alone.
        #expect(shell.registry.endpoint(named: "petsCreatePet")?.swiftSignature
            == "petsCreatePet(name: String, species: Species, born: String, tags: [String]? = nil, owner: Any = nil) -> Endpoint<Public, Pet>")
        #expect(try await shell.evaluate(#"petsCreatePet(name: "Kit", species: .cat, born: "2024-01-02", owner: ["name": "Bo"]).owner?.name"#)
            == .string("Bo"))
        // A record a response gave goes back as the JSON it came as.
        #expect(try await shell.evaluate(#"petsCreatePet(name: "Rex", species: .dog, born: "2024-01-03", owner: petsPetIdGetPet(petId: 1).owner).owner?.email"#)
            == .string("ada@example.com"))
        // A value that is no JSON object is refused before anything is sent, by the document's type.
        _ = await shell.handle(#"petsCreatePet(name: "Rex", species: .dog, born: "2024-01-03", owner: 7)"#)
        #expect(output.error.contains("owner must be an object with the keys name, email (the document's type), not 7"), "\(output.error)")
        // Litestar reads a `dict[str, str]` body only form-encoded: sent as JSON (as it was), its
        // fields were silently not there and the token was "t-".
        #expect(shell.registry.endpoint(named: "loginLogin")?.swiftSignature == "loginLogin(body: [String: String]) -> Endpoint<Public, [String: String]>")
        #expect(try await shell.evaluate(#"loginLogin(body: ["username": "ada", "scope": "a b&c"])"#)
            == .dictionary(["token": .string("t-ada"), "fields": .string("scope,username")]))
        // A field named as a credential is one wherever it is written: `:last` masks it whatever
        // its length, `:curl` reads it from the environment, as a labelled `password:` is.
        for call in [#"loginLogin(body: ["username": "ada", "password": "hunter2"])"#, #"httpPost("/login", form: ["username": "ada", "password": "hunter2"])"#] {
            _ = try await shell.evaluate(call)
            output.clear()
            _ = await shell.handle(":last")
            #expect(output.standard.contains("password=••••&username=ada") && !output.standard.contains("hunter2"), "\(output.standard)")
            output.clear()
            _ = await shell.handle(":curl " + call)
            #expect(output.standard.contains(#"--data-urlencode "password=${TYPIST_PASSWORD}""#) && !output.standard.contains("hunter2"), "\(output.standard)")
        }
        // An event stream the document declares as JSON: the error says what came, and how to see it all.
        output.clear()
        _ = await shell.handle("ticksTicks()")
        #expect(output.error.contains(#"ticksTicks: the response is not JSON (invalid JSON at byte 0: unexpected character), as the document says it is: it starts "data: {\"n\":0}\r\n"#)
                && output.error.contains(#"; it is an event stream: httpStream("/ticks") reads it as one"#), "\(output.error)")
        // Read untyped as it arrives: each item the JSON its data is, else its text.
        #expect(try await shell.evaluate(#"httpStream("/ticks").first { _ in true }"#) == .dictionary(["n": .int(0)]))
        #expect(try await shell.evaluate(#"httpStream("/words").reduce("") { $0 + "|" + String(describing: $1) }"#) == .string("|hello|wide world"))
        // An answer of another type is read line by line, as `curl -N` shows it (Kubernetes'
        // watches answer application/json); an error status is an error, with its body.
        #expect(try await shell.evaluate(#"httpStream("/greeting").first { _ in true }"#) == .string("hello"))
        output.clear()
        _ = await shell.handle(#"httpStream("/pets/99").first { _ in true }"#)
        #expect(output.error.contains("404 Not Found") && output.error.contains("no pet 99"), "\(output.error)")
        // At the prompt its items print as they come; :curl asks curl not to buffer them.
        output.clear()
        #expect(await shell.handle(#"httpStream("/ticks")"#), "\(output.error)")
        #expect(output.standard == "[\"n\": 0]\n[\"n\": 1]\n", "\(output.standard)")
        output.clear()
        _ = await shell.handle(#":curl httpStream("/ticks", query: ["count": "3"])"#)
        #expect(output.standard.contains("curl \\\n  -N \\\n  '\(server.baseURL)/ticks?count=3'")
                && output.standard.contains("-H 'Accept: text/event-stream, application/x-ndjson;q=0.9'"), "\(output.standard)")
        // A union of tagged structs (`const` tags) is one record, its variants' fields optional.
        #expect(try await shell.evaluate("animalsNAnimal(n: 1).lives") == .int(9))
        #expect(try await shell.evaluate("animalsNAnimal(n: 2).good") == .bool(true))
        // What `:swift` writes for the call type-checks (over URLSession: the check needs no C module).
        let swiftShell = try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: server.baseURL),
                                   transport: URLSessionTransport(), output: output.shellOutput)
        try await withTemporaryFolder("typist-litestar") { folder in
            output.clear()
            _ = await swiftShell.handle(#":swift petsCreatePet(name: "Kit", species: .cat, born: "2024-01-02", owner: ["name": "Bo"])"#)
            let program = output.standard
            #expect(program.contains("owner: JSONValue? = nil"), "\(program)")
            let checked = try await ReadmeEmbeddingTests.typecheck(program, in: folder)
            #expect(checked.status == 0, "\(checked.output)\n\(program)")
            // A model a response gave goes as the JSON it encodes as.
            output.clear()
            _ = await swiftShell.handle(#":swift petsCreatePet(name: "Rex", species: .dog, born: "2024-01-03", owner: petsPetIdGetPet(petId: 1).owner)"#)
            let again = output.standard
            #expect(again.contains("owner: try JSONValue(encoding: "), "\(again)")
            let checkedAgain = try await ReadmeEmbeddingTests.typecheck(again, in: folder)
            #expect(checkedAgain.status == 0, "\(checkedAgain.output)\n\(again)")
            // A dictionary literal holding a value that is not one goes as the JSON it encodes as.
            output.clear()
            _ = await swiftShell.handle(#":swift petsCreatePet(name: "Rex", species: .dog, born: "2024-01-03", owner: ["name": petsPetIdGetPet(petId: 1).name])"#)
            let mixed = output.standard
            #expect(mixed.contains("owner: try JSONValue(encoding: [\"name\": "), "\(mixed)")
            let checkedMixed = try await ReadmeEmbeddingTests.typecheck(mixed, in: folder)
            #expect(checkedMixed.status == 0, "\(checkedMixed.output)\n\(mixed)")
        }
    }
}
