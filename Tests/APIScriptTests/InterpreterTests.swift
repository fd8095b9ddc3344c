@testable import APIScript
import Testing

@Suite("Interpreter")
struct InterpreterTests {
    private func interpreter(_ output: OutputBuffer = OutputBuffer()) throws -> Interpreter {
        try TestHost.interpreter(output: output)
    }

    @Test("The prompt keeps state between evaluations and returns the last value")
    func promptState() async throws {
        let interpreter = try interpreter()
        _ = try await interpreter.evaluate("var total = 1")
        _ = try await interpreter.evaluate("total += 41")
        #expect(try await interpreter.evaluate("total") == .int(42))
        #expect(try await interpreter.evaluate("let total = \"replaced\"; total") == .string("replaced"))
        #expect(interpreter.variables.map(\.name) == ["total"])
        #expect(interpreter.variables.first?.type == .string)
    }

    @Test("A failed evaluation leaves no half-declared names and changes nothing else")
    func failureLeavesState() async throws {
        let interpreter = try interpreter()
        _ = try await interpreter.evaluate("var kept = 1")
        let failed = await interpreter.evaluate(ScriptSource(name: "<input>", text: "kept = 2\nlet user = fetchUser(id: 404)"),
                                                isPrompt: true)
        #expect(failed.failed)
        #expect(try await interpreter.evaluate("kept") == .int(2))
        let missing = await interpreter.evaluate(ScriptSource(name: "<input>", text: "user"), isPrompt: true)
        #expect(missing.errors.first?.message == "cannot find 'user' in scope")
        let checkFailure = await interpreter.evaluate(ScriptSource(name: "<input>", text: "let z = 1\nz.nope"), isPrompt: true)
        #expect(checkFailure.failed)
        #expect(await interpreter.evaluate(ScriptSource(name: "<input>", text: "z"), isPrompt: true).failed)
    }

    @Test("_ = e evaluates e for its effect and drops the value, as in Swift; at the prompt nothing is shown and _ keeps the last result")
    func discard() async throws {
        let output = OutputBuffer()
        let interpreter = try interpreter(output)
        let script = await interpreter.evaluate(ScriptSource(name: "d.api", text: """
            var calls = 0
            func bump() -> Int { calls += 1; return calls }
            _ = bump()
            for _ in 1...2 { _ = bump() }
            _ = fetchUser(id: 1)
            print(calls)
            """))
        #expect(script.errors.isEmpty, "\(script.errors)")
        #expect(output.text == "3\n")
        let shown = await interpreter.evaluate(ScriptSource(name: "<input>", text: "7"), isPrompt: true)
        #expect(shown.value == .int(7))
        let dropped = await interpreter.evaluate(ScriptSource(name: "<input>", text: "_ = bump()"), isPrompt: true)
        #expect(dropped.errors.isEmpty && dropped.value == nil, "\(dropped.errors)")
        // A check error in the dropped expression is still one.
        #expect(await interpreter.evaluate(ScriptSource(name: "d.api", text: "_ = nope()")).errors.first?.message == "cannot find 'nope' in scope")
        // An unknown function's `.case` argument has no type to come from: the one error is the name
        // (it was followed by "cannot infer the type of '.cat'"); its other arguments are still checked.
        #expect(await interpreter.evaluate(ScriptSource(name: "d.api", text: "nope(kind: .cat, n: 1 + \"x\")")).errors.map(\.message)
            == ["binary operator '+' cannot be applied to operands of type 'Int' and 'String'", "cannot find 'nope' in scope"])
    }

    @Test("CRLF line ends read as LF: no '\\r' in a multi-line string, positions by line")
    func crlfLineEnds() async throws {
        let interpreter = try interpreter()
        let source = ScriptSource(name: "w.api", text: "let text = \"\"\"\r\nx\r\ny\r\n\"\"\"\r\ntext\r\n")
        #expect(!source.text.contains("\r"))
        #expect(try await interpreter.evaluate(source.text) == .string("x\ny"))
        let failed = await interpreter.evaluate(ScriptSource(name: "w.api", text: "let a = 1\r\na.nope\r\n"), isPrompt: false)
        let span = try #require(failed.errors.first?.span)
        let position = ScriptSource(name: "w.api", text: "let a = 1\r\na.nope\r\n").position(at: span.start)
        #expect(position.line == 2 && position.column == 3, "\(position)")
    }

    @Test("Static types are known without running anything")
    func staticTypes() throws {
        let interpreter = try interpreter()
        #expect(try interpreter.staticType(of: "fetchUser(id: 1)").get() == .record(TestHost.user))
        #expect(try interpreter.staticType(of: "fetchUsers().users.map(\\.email)").get() == .array(.optional(.string)))
        #expect(try interpreter.staticType(of: "fetchUsers().users.first?.tags").get() == .optional(.array(.string)))
        guard case .failure(let error) = interpreter.staticType(of: "fetchUser(id: 1).titel") else {
            Issue.record("expected an error")
            return
        }
        #expect(error.diagnostics.first?.message == "User has no member 'titel'")
    }

    @Test("An endpoint called in a closure inside another closure makes both wait for it (was an internal error)")
    func nestedImpureClosures() async throws {
        let interpreter = try interpreter()
        #expect(try await interpreter.evaluate("(1...2).map { i in (1...2).map { j in fetchUser(id: i * j).id } }")
            == .array([.array([.int(1), .int(2)]), .array([.int(2), .int(4)])]))
        #expect(try await interpreter.evaluate("[1, 2].filter { i in [i].contains { fetchUser(id: $0).id == 2 } }") == .array([.int(2)]))
        #expect(try await interpreter.evaluate("func ids(_ n: Int) -> [Int] { (1...n).map { fetchUser(id: $0).id } }; [2].map { ids($0) }")
            == .array([.array([.int(1), .int(2)])]))
    }

    @Test("needsMoreInput follows the parser, not bracket counting")
    func continuation() throws {
        let interpreter = try interpreter()
        #expect(interpreter.needsMoreInput("for x in [1] {"))
        #expect(interpreter.needsMoreInput("print(\"(\""))
        #expect(!interpreter.needsMoreInput("print(\"{\")"))
        #expect(!interpreter.needsMoreInput("let x = }"))
        #expect(interpreter.needsMoreInput("let s = \"\"\""), "an open multi-line string asks for more")
        #expect(interpreter.needsMoreInput("let s = \"\"\"\n  first line"))
        #expect(!interpreter.needsMoreInput("let s = \"\"\"\n  first line\n  \"\"\""))
    }

    @Test("Cancelling the task stops a running loop")
    func cancellation() async throws {
        let interpreter = try interpreter()
        // The loop spins on a thread of its own: on the shared pool (two threads on two cores) two
        // such tests would starve the sleeps that are meant to cancel them.
        let task = Task(executorPreference: LargeStackExecutor(stackSize: 8 << 20)) {
            await interpreter.evaluate(ScriptSource(name: "spin.api", text: "var i = 0\nwhile true { i += 1 }"))
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.value
        #expect(result.errors.first?.kind == .cancelled)
    }

    @Test("Host functions suspend; pure code does not need to")
    func purity() async throws {
        let output = OutputBuffer()
        let interpreter = try interpreter(output)
        let value = try await interpreter.evaluate("[1, 2, 3].map { fetchUser(id: $0).name }")
        #expect(value == .array([.string("User 1"), .string("User 2"), .string("User 3")]))
        let sorted = try await interpreter.evaluate("[3, 1, 2].sorted { fetchUser(id: $0).id < fetchUser(id: $1).id }")
        #expect(sorted == .array([.int(1), .int(2), .int(3)]))
    }

    @Test("A host function named like a built-in wins; the built-in stays reachable as Swift.print")
    func hostNameWinsOverBuiltin() async throws {
        let output = OutputBuffer()
        let interpreter = try interpreter(output)
        try interpreter.register(HostFunction(name: "print", parameters: [], returnType: .string) { _ in .string("the endpoint") })
        #expect(try await interpreter.evaluate("print()") == .string("the endpoint"))
        _ = try await interpreter.evaluate(#"Swift.print("the built-in")"#)
        #expect(output.text.contains("the built-in"))
        #expect(try await interpreter.evaluate("api.print()") == .string("the endpoint"))
        // A script's own variable named like a qualifier hides it, as in Swift.
        let hidden = await interpreter.evaluate(ScriptSource(name: "<input>", text: "let Swift = 1\nSwift.print(1)"), isPrompt: false)
        #expect(hidden.failed)
    }

    @Test("A parameter's rule is asked about each literal argument when the script is checked: negative numbers, strings, arrays; not computed values")
    func parameterRules() throws {
        let interpreter = try interpreter()
        let rule: @Sendable (Value) -> String? = { value in
            switch value {
            case .int(let number) where number < 1: "page must be at least 1, not \(number)"
            case .string(let text) where text.isEmpty: "tag must not be empty"
            case .array(let elements) where elements.count > 2: "ids has \(elements.count) elements"
            default: nil
            }
        }
        try interpreter.register(HostFunction(name: "find", parameters: [
            .init(label: "page", type: .int, defaultValue: .int(1), rule: rule), .init(label: "tag", type: .string, defaultValue: .string("x"), rule: rule),
            .init(label: "ids", type: .array(.int), defaultValue: .array([]), rule: rule),
        ], returnType: .int) { _ in .int(0) })
        let source = """
            let a = find(page: -2)
            let b = find(page: 3, tag: "")
            let c = find(ids: [1, 2, 3])
            let n = 0
            let d = find(page: n, tag: "\\(n)", ids: [n, n, n])
            let e = find(page: 2, tag: "ok", ids: [1, 2])
            """
        let messages = interpreter.check(ScriptSource(name: "r.api", text: source)).map { "\($0.position?.line ?? 0):\($0.position?.column ?? 0) \($0.message)" }
        #expect(messages == ["1:20 page must be at least 1, not -2", "2:28 tag must not be empty", "3:19 ids has 3 elements"])
    }

    /// A host's error with notes of its own.
    struct Advised: NotedError {
        var message: String
        var notes: [String]
    }

    @Test("A host's error keeps its notes as data: the message's own lines first, then each note as it was given")
    func hostNotes() async throws {
        let interpreter = try interpreter()
        try interpreter.register(HostFunction(name: "fail", parameters: [], returnType: .void) { _ in
            throw Advised(message: "GET /x: 401 Unauthorized\n  {\"error\": \"no\"}",
                          notes: ["  pass a token: :token TOKEN", "it asked for Bearer: a line\nthat breaks"])
        })
        let result = await interpreter.evaluate(ScriptSource(name: "n.api", text: "fail()"))
        let diagnostic = try #require(result.errors.first)
        #expect(diagnostic.message == "GET /x: 401 Unauthorized")
        #expect(diagnostic.notes.map(\.message) == [#"{"error": "no"}"#, "  pass a token: :token TOKEN", "it asked for Bearer: a line\nthat breaks"])
    }

    @Test("Registration rejects duplicate and invalid names")
    func registration() throws {
        let interpreter = try interpreter()
        #expect(throws: Interpreter.RegistrationError.duplicateName("fetchUser")) {
            try interpreter.register(HostFunction(name: "fetchUser", parameters: [], returnType: .void) { _ in .void })
        }
        #expect(throws: Interpreter.RegistrationError.invalidName("let")) {
            try interpreter.register(HostFunction(name: "let", parameters: [], returnType: .void) { _ in .void })
        }
        #expect(throws: Interpreter.RegistrationError.invalidName("two words")) {
            try interpreter.register(HostGlobal(name: "two words", type: .int) { .int(1) })
        }
    }

    @Test("Rendering: file:line:col, the line, and a caret under the place")
    func rendering() async throws {
        let interpreter = try interpreter()
        let result = await interpreter.evaluate(ScriptSource(name: "smoke.api", text: "let u = fetchUser(id: 1)\nprint(u.nmae)"))
        #expect(DiagnosticRenderer().render(result.errors) == """
            smoke.api:2:9: error: User has no member 'nmae'
                print(u.nmae)
                        ^~~~
            note: did you mean 'name'?
            """)
        let colored = DiagnosticRenderer(colors: true).render(result.errors)
        #expect(colored.contains("\u{1B}[1;31merror:"))
    }
}

@Suite("Completion")
struct CompletionTests {
    @Test("Members from static types, before any call", arguments: [
        ("fetchUser(id: 1).", ["id", "name", "email", "tags"]),
        ("fetchUser(id: 1).na", ["name"]),
        ("fetchUsers().users[0].ta", ["tags"]),
        ("fetchUsers().users.filter { $0.em", ["email"]),
        ("fetchUsers().next?.to", ["total"]),
        ("fetchUsers().users.cou", ["count"]),
    ])
    func members(text: String, expected: [String]) throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        let completions = interpreter.completions(for: text, cursor: text.utf8.count)
        #expect(completions.candidates == expected)
        #expect(completions.areMembers)
    }

    @Test("Qualified names complete after their qualifier's dot and not among plain names")
    func qualified() throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        #expect(interpreter.completions(for: "Swift.pri", cursor: 9).candidates == ["print"])
        #expect(interpreter.completions(for: "api.fetch", cursor: 9).candidates == ["fetchUser", "fetchUsers"])
        #expect(!interpreter.completions(for: "", cursor: 0).candidates.contains { $0.contains(".") })
    }

    @Test("Names, keywords and argument labels")
    func names() throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        #expect(interpreter.completions(for: "fetch", cursor: 5).candidates == ["fetchUser", "fetchUsers"])
        #expect(interpreter.completions(for: "fetchUsers(", cursor: 11).candidates.contains("count:"))
        #expect(interpreter.completions(for: "gua", cursor: 3).candidates == ["guard"])
        #expect(interpreter.completions(for: "let mine = 1; mi", cursor: 16).candidates.contains("mine"))
    }

    @Test("Dynamic data completes from its value")
    func dynamic() async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        _ = try await interpreter.evaluate("let parsed = json(rawJSON())")
        let completions = interpreter.completions(for: "parsed.nested.c", cursor: 15)
        #expect(completions.candidates == ["count"])
    }
}

@Suite("Checker memory")
struct CheckerMemoryTests {
    @Test("A checked script's scopes are freed once nothing uses them (no Binding ↔ scope cycle)")
    func scopesAreFreed() throws {
        weak var main: FunctionScope?
        weak var inner: FunctionScope?
        do {
            let source = ScriptSource(name: "scopes.api", text: "let a = 1\nfunc f(_ x: Int) -> Int { let y = x + a\n return y }\nlet g = [1].map { v in v + f(v) }")
            let (statements, _) = Parser.parse(source)
            var checker = Checker(source: source, globals: GlobalTable(), isPrompt: false)
            checker.check(statements)
            #expect(checker.diagnostics.isEmpty, "\(checker.diagnostics)")
            main = checker.main
            inner = checker.allFunctions.last
            #expect(main != nil && inner != nil && main !== inner)
        }
        #expect(main == nil, "the top-level scope leaked")
        #expect(inner == nil, "a function's scope leaked")
    }

    /// A scope held weakly, to see whether it is freed.
    final class WeakScope {
        weak var scope: FunctionScope?
        init(_ scope: FunctionScope) { self.scope = scope }
    }

    @Test("Nested and recursive functions' scopes are freed too (a leak probe over the fuzz corpus found them: ~1 KB a check, and more for completion, kept for ever)",
          arguments: [
              "if true { func r() -> Int { 1 } }",
              "let c = { () -> Int in\n func inner(_ n: Int) -> Int { n }\n return inner(2) }",
              "func fact(_ n: Int) -> Int { n <= 1 ? 1 : n * fact(n - 1) }",
              "if true { func r(_ n: Int) -> Int { n == 0 ? 0 : r(n - 1) } }",
              "func even(_ n: Int) -> Bool { n == 0 ? true : odd(n - 1) }\nfunc odd(_ n: Int) -> Bool { n == 0 ? false : even(n - 1) }",
          ])
    func nestedAndRecursiveScopesAreFreed(text: String) throws {
        var scopes: [WeakScope] = []
        do {
            let source = ScriptSource(name: "scopes.api", text: text)
            let (statements, _) = Parser.parse(source)
            var checker = Checker(source: source, globals: GlobalTable(), isPrompt: false)
            checker.check(statements)
            #expect(!checker.diagnostics.contains { $0.severity == .error }, "\(checker.diagnostics)")
            scopes = checker.allFunctions.map(WeakScope.init)
            #expect(scopes.count >= 2)
        }
        #expect(scopes.allSatisfy { $0.scope == nil }, "\(scopes.filter { $0.scope != nil }.count) of \(scopes.count) scopes leaked")
    }

    @Test("An interpreter whose globals hold script functions is freed, its run context too (found by Scripts/fuzz's heap report)")
    func interpreterIsFreed() async throws {
        weak var weakInterpreter: Interpreter?
        weak var weakContext: RunContext?
        do {
            let interpreter = try TestHost.interpreter(output: OutputBuffer())
            let result = await interpreter.evaluate(ScriptSource(name: "globals.api", text: """
                func f() -> Int { 1 }
                let c = { f() + 1 }
                var k: (Int) -> Int = { $0 }
                c() + k(1)
                """), isPrompt: true)
            #expect(result.value == .int(3))
            weakInterpreter = interpreter
            weakContext = interpreter.context
        }
        #expect(weakInterpreter == nil)
        #expect(weakContext == nil, "the run context leaked through a function kept in a global")
    }
}
