import APIScript
import DemoBindings
import Foundation
import Testing
import TypedAPI
@testable import Typist
@testable import TypistCore
@testable import TypistWorkshop

/// `:swift` writes the Swift a developer would write with TypedAPI: statements as statements, one
/// `try await client.send(…)` per call, literals in their parameters' Swift types — and it compiles.
@Suite("`:swift` writes Swift that compiles")
struct SwiftTranslationTests {
    static func shell() throws -> Shell {
        try Shell(registry: try DemoBindings.registry(), environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                  transport: URLSessionTransport(), output: CapturedOutput().shellOutput)
    }

    static func swift(_ text: String, isPrompt: Bool = true) throws -> [String] {
        try SwiftSnippet(shell: try shell()).parts(for: text, isPrompt: isPrompt).get().body
    }

    /// What the lessons have students type (a `:swift` line's expression), and their scripts.
    static func lessonSources() throws -> [(name: String, text: String, isPrompt: Bool)] {
        var sources: [(String, String, Bool)] = []
        for lesson in try Lesson.load(from: DemoBindings.workshopDirectory) {
            for (index, step) in lesson.steps.enumerated() {
                guard var input = step.input else { continue }
                // A publisher line is checked by `publishersCompile`.
                if input.hasPrefix(":swift --publisher") { continue }
                if input.hasPrefix(":swift ") { input = String(input.dropFirst(7)) } else if input.hasPrefix(":") { continue }
                sources.append(("lesson \(lesson.number) step \(index + 1): \(input)", input, true))
            }
            // The instructor's hidden checks run after the solution, in its scope.
            let script = try ["reference.api", "hidden.api"].map {
                try String(contentsOf: lesson.directory.appendingPathComponent($0), encoding: .utf8)
            }.joined(separator: "\n")
            sources.append(("lesson \(lesson.number) reference.api + hidden.api", script, false))
        }
        return sources
    }

    static func exampleSources() throws -> [(name: String, text: String, isPrompt: Bool)] {
        let folder = Built.packageRoot.appendingPathComponent("Examples")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".api") }.sorted().map {
            ("Examples/\($0)", try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8), false)
        }
    }

    @Test("Every example script, every lesson line and every lesson script, written as Swift, type-checks against the built modules")
    func everythingCompiles() async throws {
        let shell = try Self.shell()
        // And lines for what the examples do not show.
        let extra = [
            "posts().prefix(3).concurrentMap(limit: 2) { comments(postId: $0.id).count }",
            "[1, 2].concurrentMap { (try? post(id: $0))?.title }",
            "var n = 0; while n < 3 { n += 1 }; if n == 3 { print(n) } else if n > 3 { print(0) } else { n = 1 }; n",
            #"func titled(_ id: Int) -> String { post(id: id).title }; titled(1).uppercased()"#,
            #"breeds().message.keys.count + (breeds().message["hound"]?.count ?? 0)"#,
            // An endpoint whose answer is Void: its factory still lives in the host's module.
            "deletePost(id: 3)",
        ].map { (name: "line: \($0)", text: $0, isPrompt: true) }
        let sources = try Self.exampleSources() + Self.lessonSources() + extra
        #expect(sources.count >= 25, "\(sources.count) sources")
        // Each translation must compile with its own imports: translations are grouped by their
        // import lines, and each group is checked in a file of its own (one swiftc run per group).
        var groups: [[String]: (declarations: [String], functions: [String])] = [:]
        for (index, source) in sources.enumerated() {
            switch SwiftSnippet(shell: shell).parts(for: source.text, isPrompt: source.isPrompt) {
            case .failure(let failure):
                Issue.record("\(source.name): \(failure.message)")
            case .success(let parts):
                var group = groups[parts.imports] ?? ([], [])
                for declaration in parts.declarations where !group.declarations.contains(declaration) { group.declarations.append(declaration) }
                // Each translation is the body of a function of its own, so a group is checked in one run.
                group.functions.append("// \(source.name.split(separator: "\n").first ?? "")\nfunc translation\(index)() async throws {\n"
                                       + (parts.setup + parts.body).map { "    " + $0 }.joined(separator: "\n") + "\n}")
                groups[parts.imports] = group
            }
        }
        #expect(groups.count >= 2, "translations differ in what they import")
        for (imports, group) in groups.sorted(by: { $0.key.joined() < $1.key.joined() }) {
            let code = (imports + [""] + group.declarations + group.functions).joined(separator: "\n")
            try await withTemporaryFolder("typist-swift") { folder in
                let file = folder.appendingPathComponent("translations.swift")
                try code.write(to: file, atomically: true, encoding: .utf8)
                let outcome = try await SwiftCheck.typecheck([file])
                let numbered = code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    .map { "\($0.offset + 1)\t\($0.element)" }.joined(separator: "\n")
                #expect(outcome.passed, "\(outcome.diagnostics)\n\(numbered)")
            }
        }
    }

    @Test("`:swift --publisher` writes write-up 1's pipeline, and it compiles against TypedAPICombine: the lessons' lines, a stream's, a token's")
    func publishersCompile() async throws {
        let shell = try Self.shell()
        var lines = [
            "events(count: 5).filter { $0.status == \"passed\" }.map(\\.n).prefix(2)",
            "search(query: \"books\").items.map(\\.title)",
            "searchRepositories(query: \"swift (lang)\", sort: .stars).items.map(\\.fullName).prefix(3)",
            "post(id: 1)",
        ]
        for lesson in try Lesson.load(from: DemoBindings.workshopDirectory) {
            for step in lesson.steps {
                guard let input = step.input, input.hasPrefix(":swift --publisher ") else { continue }
                lines.append(String(input.dropFirst(":swift --publisher ".count)))
            }
        }
        #expect(lines.count >= 5, "lesson 1 has a publisher step")
        var imports: [String] = []
        var functions: [String] = []
        for (index, line) in lines.enumerated() {
            let parts = try SwiftSnippet(shell: shell).publisherParts(for: line).get()
            #expect(parts.body.contains { $0.contains("client.publisher(") }, "\(line)")
            for item in parts.imports where !imports.contains(item) || item.hasPrefix("#") { imports.append(item) }
            functions.append("func publisher\(index)() throws -> AnyCancellable {\n" + (parts.setup + parts.body).map { "    " + $0 }.joined(separator: "\n")
                             + "\n    return cancellable\n}")
        }
        // Each part's imports are the same; one #if block is kept.
        let header = try SwiftSnippet(shell: shell).publisherParts(for: lines[0]).get().imports
            + ["import DemoService"]
        let code = (header + [""] + functions).joined(separator: "\n")
        try await withTemporaryFolder("typist-publisher") { folder in
            let file = folder.appendingPathComponent("publishers.swift")
            try code.write(to: file, atomically: true, encoding: .utf8)
            let outcome = try await SwiftCheck.typecheck([file])
            #expect(outcome.passed, "\(outcome.diagnostics)\n\(code)")
        }
        // What it cannot write is said.
        guard case .failure(let failure) = SwiftSnippet(shell: shell).publisherParts(for: "posts().count + post(id: 1).id") else {
            Issue.record("two calls were written as one publisher")
            return
        }
        #expect(failure.message == ":swift --publisher takes \(SwiftSnippet.publisherShape)")
    }

    @Test("Statements stay statements, nested calls each get their own send, and every call is awaited where Swift allows it")
    func statements() throws {
        #expect(try Self.swift("let p = post(id: 1); for c in comments(postId: p.id) { print(c.email) }") == [
            "let p = try await client.send(.post(id: 1))",
            "for c in try await client.send(.comments(postId: p.id)) {",
            "    print(c.email)",
            "}",
        ])
        #expect(try Self.swift("comments(postId: post(id: 1).id).count") == [
            "let result: Int = try await client.send(.comments(postId: try await client.send(.post(id: 1)).id)).count",
        ])
        // No `await` in an autoclosure (`precondition`, `??`) or an interpolation: hoisted, named after the endpoint.
        #expect(try Self.swift(#"expect((try? post(id: 9)) == nil, "gone"); print("\(post(id: 2).title)")"#, isPrompt: false) == [
            "let post = try? await client.send(.post(id: 9))",
            #"precondition(post == nil, "gone")"#,
            "let post2 = try await client.send(.post(id: 2))",
            #"print("\(post2.title)")"#,
        ])
        #expect(try Self.swift("deletePost(id: 1)") == ["try await client.send(.deletePost(id: 1))"])
        // Casts keep their place: parentheses where Swift would group otherwise.
        #expect(try Self.swift("(post(id: 1).userId as Any) as? Int ?? 0") == [
            "let result: Int = (try await client.send(.post(id: 1)).userId as Any as? Int) ?? 0",
        ])
    }

    @Test("Literals take their parameters' Swift types: enum cases, UUIDs; slices become arrays and strings again")
    func literals() throws {
        #expect(try Self.swift(#"searchRepositories(query: "swift", sort: "stars").items.prefix(2)"#) == [
            #"let result: [Repository] = Array(try await client.send(.searchRepositories(query: "swift", sort: .stars)).items.prefix(2))"#,
        ])
        #expect(try Self.swift(#"user(id: "6f1c2a9e-0000-4000-8000-000000000001").name.first"#) == [
            #"let result = try await client.send(.user(id: UUID(uuidString: "6f1c2a9e-0000-4000-8000-000000000001")!)).name.first.map(String.init)"#,
        ])
    }

    @Test("Session properties and credentials become the client's, and a token-storing call says where the token goes")
    func session() throws {
        let parts = try SwiftSnippet(shell: try Self.shell())
            .parts(for: #"username = "ada"; password = "x"; token = issueToken().token; search(query: "mug").total"#, isPrompt: true).get()
        #expect(parts.setup.contains("var token = AccessToken(\"…\")   // from login(user:password:), or the session's token"),
                "\(parts.setup)")
        #expect(parts.body.contains("token = AccessToken(try await client.send(.issueToken, with: BasicCredentials(username: username, password: password)).token)"),
                "\(parts.body)")
        // A secret written in the line is read from the environment, as :curl reads it.
        #expect(parts.body.contains { $0.hasPrefix(#"password = ProcessInfo.processInfo.environment["TYPIST_PASSWORD"]"#) }, "\(parts.body)")
        #expect(parts.body.last == #"let result: Int = try await client.send(.search(query: "mug"), with: token).total"#, "\(parts.body)")
    }

    @Test("A session variable the line uses is named, with its type, where the Swift must declare it")
    func sessionVariables() async throws {
        let shell = try Self.shell()
        try await shell.define("n", .int(3))
        let parts = try SwiftSnippet(shell: shell).parts(for: "let m = n + 1; post(id: m + n).title", isPrompt: true).get()
        #expect(parts.setup.contains("// uses the session's n (Int): declare it as the prompt line that made it did"), "\(parts.setup)")
        #expect(!parts.setup.contains { $0.contains("session's m") }, "m is declared by the line itself")
    }

    @Test("What has no Swift counterpart is said, not guessed: dynamic JSON, an endpoint inside a closure, pages")
    func refusals() throws {
        let shell = try Self.shell()
        for (text, message) in [(#"json("{}").a"#, "json(_:) makes dynamic values"),
                                ("posts().map { comments(postId: $0.id) }", "an endpoint called inside a closure"),
                                // `pages` is named, not the closure it takes.
                                (#"pages { searchRepositories(query: "swift", perPage: 2) }.count"#,
                                 "pages { … } follows a service's next pages in the shell")] {
            guard case .failure(let failure) = SwiftSnippet(shell: shell).parts(for: text, isPrompt: true) else {
                Issue.record("\(text) was written")
                continue
            }
            #expect(failure.message.contains(message), "\(failure.message)")
        }
    }

    @Test("A host that builds its endpoint in the registration closure gets a factory declared from that closure")
    func closureRegisteredHost() throws {
        let shell = try Shell(registry: try EnumArgumentTests.registry(), environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: URLSessionTransport(), output: CapturedOutput().shellOutput)
        let parts = try SwiftSnippet(shell: shell).parts(for: "items(order: .newestFirst)", isPrompt: true).get()
        let declaration = parts.declarations.joined(separator: "\n")
        #expect(declaration.contains("extension Endpoint where Kind == Public, Response == [Item] {"), "\(declaration)")
        #expect(declaration.contains("static func items(order: Order, then: Order? = nil) -> Self {"), "\(declaration)")
        #expect(declaration.contains(#"return Endpoint<Public, [Item]>(.get(query: query), path: "/items")"#), "\(declaration)")
        #expect(parts.body == ["let result: [Item] = try await client.send(.items(order: .newestFirst))"])
    }
}
