import Foundation
import Testing
@testable import Typist
@testable import TypistCore

/// A script's declaration shadows an endpoint of the same name, as in Swift, with a note; the
/// endpoint stays `api.name(…)`; `let books = books()` is a circular reference.
@Suite("Script names over endpoint names")
struct EndpointShadowingTests {
    @Test("A value named like an endpoint shadows it from there on; api.posts() still calls it")
    func shadowing() async throws {
        try await withTemporaryFolder("typist-shadow") { folder in
            let script = folder.appendingPathComponent("shadow.api")
            try """
                let all = posts()
                let posts = all.filter { $0.userId == 1 }
                print(posts.count)
                print(api.posts().count)
                """.write(to: script, atomically: true, encoding: .utf8)
            let result = try await Built.run("typist", ["run", "shadow.api"], directory: folder)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.standard == "10\n100\n")
            #expect(result.error == """
                shadow.api:2:5: note: 'posts' names this value from here on; the endpoint is still 'api.posts(…)'
                    let posts = all.filter { $0.userId == 1 }
                        ^~~~~

                """)
        }
    }

    @Test("let posts = posts() is a circular reference, one error that names the way out", arguments: [
        "let posts = posts()", "let posts: [Post] = posts()", "var posts = posts().filter { $0.id > 1 }",
    ])
    func circular(line: String) async throws {
        try await withDemoShell { shell, output, _ in
            let handled = await shell.handle(line)
            #expect(handled == false)
            #expect(output.error.contains("error: circular reference: 'posts' is being declared here"), "\(output.error)")
            #expect(output.error.contains("'api.posts(…)'"))
            #expect(!output.error.contains("names this value from here on"))
            // The endpoint is untouched by the failed line.
            let value1 = try await shell.evaluate("posts().count")
            #expect(value1 == .int(100))
        }
    }

    @Test("At the prompt the shadowing lasts; the endpoint is api.posts(), and session. reaches the shell's properties")
    func promptShadowing() async throws {
        try await withDemoShell { shell, output, _ in
            await shell.handle("let posts = api.posts().prefix(2)")
            let value2 = try await shell.evaluate("posts.count")
            #expect(value2 == .int(2))
            let value3 = try await shell.evaluate("api.posts().count")
            #expect(value3 == .int(100))
            await shell.handle(#"session.timeout = 30"#)
            let value4 = try await shell.evaluate("timeout")
            #expect(value4 == .double(30))
            await shell.handle("session.nope")
            #expect(output.error.contains("the session has no property 'nope'"), "\(output.error)")
            await shell.handle("session.tokn")
            #expect(output.error.contains("did you mean 'session.token'?"), "\(output.error)")
        }
    }
}
