import APIScript
import Foundation
import Testing
@testable import Typist
@testable import TypistCore

@Suite("The session")
struct SessionTests {
    @Test("A bearer endpoint without a token fails before any request, saying what to do")
    func bearerNeedsToken() async throws {
        try await withDemoShell { shell, output, _ in
            let handled10 = await shell.handle("search(query: \"swift\")")
            #expect(handled10 == false)
            #expect(output.error.contains("search(query:) needs an access token: set `token = …`"))
            #expect(output.error.contains("note: or call `login(user: …, password: …)` or `issueToken()`, which answers with a token the session keeps"), "\(output.error)")
            await shell.handle(":last")
            #expect(output.standard.contains("no request has been sent yet"))
        }
    }

    @Test("login stores the token; token prints as ••••")
    func loginStoresToken() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("login(user: \"ada\", password: \"lovelace\")")
            let value1 = try await shell.evaluate("search(query: \"swift\").total")
            #expect(value1 != .int(0))
            output.clear()
            await shell.handle("token")
            await shell.handle("print(token!, \"\\(token!)\")")
            #expect(output.standard == "••••\n•••• ••••\n")
        }
    }

    @Test("A failed call leaves the session as it was")
    func failureKeepsSession() async throws {
        try await withDemoShell { shell, _, _ in
            await shell.handle("token = \"before\"")
            let handled11 = await shell.handle("token = \"during\"\nlet p = post(id: 424242)")
            #expect(handled11 == false)
            await shell.handle(":token")
            let value2 = try await shell.evaluate("token == \"before\"")
            #expect(value2 == .bool(true))
            await shell.handle("post(id: 2)")
            let handled12 = await shell.handle("post(id: 424242)")
            #expect(handled12 == false)
            let value3 = try await shell.evaluate("last.id")
            #expect(value3 == .int(2))
        }
    }

    @Test("baseURL, headers and timeout are session properties")
    func properties() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle("headers = [\"X-Workshop\": \"typist\"]")
            let value4 = try await shell.evaluate("echoHeaders().headers[\"x-workshop\"]")
            #expect(value4 == .string("typist"))
            await shell.handle("timeout = 0.2")
            let handled13 = await shell.handle("slow(ms: 2000)")
            #expect(handled13 == false)
            #expect(output.error.contains("timed out after 200 ms"))
            await shell.handle("timeout = 300")  // long again: the calls below must not hinge on a busy machine's speed
            await shell.handle("baseURL = \"http://127.0.0.1:9\"")
            let handled14 = await shell.handle("posts()")
            #expect(handled14 == false)
            await shell.handle("baseURL = \"\(server.baseURL)\"")
            let value5 = try await shell.evaluate("posts().count")
            #expect(value5 == .int(100))
            let handled15 = await shell.handle("baseURL = \"not a url\"")
            #expect(handled15 == false)
            #expect(output.error.contains("no scheme"))
        }
    }

    @Test("response holds the last exchange; last and _ the last result, typed for completion")
    func lastAndResponse() async throws {
        try await withDemoShell { shell, _, _ in
            await shell.handle("searchRepositories(query: \"swift\", perPage: 2)")
            let items = try await shell.evaluate("_.items.count")
            #expect(items == .int(2))
            await shell.handle("searchRepositories(query: \"swift\", perPage: 2)")
            let status = try await shell.evaluate("response!.status")
            #expect(status == .int(200))
            await shell.handle("searchRepositories(query: \"swift\", perPage: 2)")
            let completions = shell.interpreter.completions(for: "last.items[0].na", cursor: 16)
            #expect(completions.candidates == ["name"])
            let fields = shell.interpreter.completions(for: "post(id: 1).", cursor: 12)
            #expect(fields.candidates == ["userId", "id", "title", "body"])
        }
    }

    @Test("Completion in a call: the labels still missing, required first; after a label, the values of its type; no keywords")
    func argumentCompletion() async throws {
        try await withDemoShell { shell, _, _ in
            _ = try await shell.evaluate(#"let q = "swift"; let n = 3; let flag = true"#)
            func offered(_ text: String) -> [String] { shell.completions(before: text).candidates }
            #expect(offered("searchRepositories(") == ["query:", "sort:", "perPage:"])
            #expect(offered(#"searchRepositories(query: "swift", "#) == ["sort:", "perPage:"])
            #expect(offered(#"searchRepositories(perPage: 2, q"#) == ["query:"])
            #expect(offered(#"createPost(title: "a, b", userId: 1, "#) == ["body:"])
            // A value of the parameter's type: variables, and functions that return one.
            let values = offered("searchRepositories(query: ")
            #expect(values.contains("q") && !values.contains("n") && !values.contains("while") && !values.contains("guard"), "\(values)")
            #expect(offered("searchRepositories(query: \"x\", perPage: ").contains("n"))
            #expect(!offered("searchRepositories(query: \"x\", perPage: ").contains("q"))
            // Nothing of the type with that prefix: the names in scope, as anywhere.
            #expect(offered("searchRepositories(query: fla") == ["flag"])
            // Elsewhere, as before: keywords and names.
            #expect(offered("gua") == ["guard"])
        }
    }

    @Test("`try?` on a Void endpoint is `Void?`: nil when the call failed, so it can be checked")
    func tryOnVoid() async throws {
        try await withDemoShell { shell, output, _ in
            let type = try shell.interpreter.staticType(of: "try? deletePost(id: 1)").get()
            #expect(type == .optional(.void))
            #expect(try await shell.evaluate("(try? deletePost(id: 1)) == nil") == .bool(false))
            #expect(try await shell.evaluate("(try? deletePost(id: 987654)) == nil") == .bool(true))
            #expect(try await shell.evaluate("let gone = try? deletePost(id: 2); gone != nil") == .bool(true))
            // At the prompt a success shows nothing and a failure shows nil.
            output.clear()
            #expect(await shell.handle("try? deletePost(id: 3)"))
            #expect(output.standard.isEmpty, "\(output.standard)")
            #expect(await shell.handle("try? deletePost(id: 987654)"))
            #expect(output.standard == "nil\n", "\(output.standard)")
        }
    }

    @Test("Arguments convert to Swift types with an error at the argument's place")
    func argumentConversion() async throws {
        try await withDemoShell { shell, output, _ in
            let handled16 = await shell.handle("user(id: \"x\")")
            #expect(handled16 == false)
            #expect(output.error.contains("<input>:1:10: error: 'x' is not a UUID"))
            output.clear()
            let handled17 = await shell.handle("searchRepositories(query: \"a\", sort: \"best\")")
            #expect(handled17 == false)
            #expect(output.error.contains(#""best" is not one of "stars", "updated""#))
            let value8 = try await shell.evaluate("user(id: users()[0].id).name")
            #expect(value8 == .string("Ada Lovelace"))
            let value9 = try await shell.evaluate("searchRepositories(query: \"swift\", sort: \"stars\", perPage: 1).items.count")
            #expect(value9 == .int(1))
        }
    }

    @Test("Failed calls show method, URL, status and body; decoding failures the path and the JSON")
    func callErrors() async throws {
        try await withDemoShell { shell, output, server in
            await shell.handle("status(code: 503)")
            #expect(output.error.contains("error: GET \(server.baseURL)/faults/status/503: 503 Service Unavailable"))
            #expect(output.error.contains(#"note: {"message":"status 503 as requested","status":503}"#))
            output.clear()
            await shell.handle("wrongType()")
            #expect(output.error.contains(#"cannot decode Post at id: expected Int, found a string "one""#))
            #expect(output.error.contains(#"note: {"userId":1,"id":"one""#))
        }
    }
}
