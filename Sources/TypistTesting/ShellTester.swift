import APIScript
import Foundation
import TypedAPI
import TypistCore

/// Runs `.api` scripts and prompt transcripts against a host's registry, as `typist run` and the
/// prompt would, and returns what they wrote and their exit status. Give it an
/// `InMemoryTransport` for tests without a network, or any transport and a server's URL.
///
/// ```swift
/// let tester = ShellTester(registry: try myRegistry(), transport: InMemoryTransport(routes: ["/posts/1": #"{"id": 1}"#]))
/// let outcome = try await tester.run(script: "expect(article(number: 1).id == 1)")
/// #expect(outcome.status == 0)
/// ```
public struct ShellTester: Sendable {
    /// What one run wrote and how it ended.
    public struct Outcome: Sendable {
        /// Standard output.
        public var output: String
        /// Standard error: diagnostics, rendered.
        public var errors: String
        /// The exit status, as `typist run` would end with it (0, 1, 65, 130).
        public var status: Int32
        /// For a transcript: the prompts shown, in order.
        public var prompts: [String]
    }

    /// The endpoints.
    public var registry: EndpointRegistry
    /// Where requests go.
    public var baseURL: String
    /// What sends them.
    public var transport: any HTTPTransport

    /// Creates a tester.
    public init(registry: EndpointRegistry, baseURL: String = "https://api.example.test",
                transport: any HTTPTransport) {
        self.registry = registry
        self.baseURL = baseURL
        self.transport = transport
    }

    /// A fresh shell session and what it writes.
    public func makeShell() throws -> (Shell, CapturedOutput) {
        let output = CapturedOutput()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: baseURL), transport: transport,
                              output: output.shellOutput)
        return (shell, output)
    }

    /// Checks a script, then runs it, in a fresh session.
    public func run(script text: String, name: String = "test.api") async throws -> Outcome {
        let (shell, output) = try makeShell()
        let status = await shell.run(ScriptSource(name: name, text: text))
        return Outcome(output: output.standard, errors: output.error, status: status, prompts: [])
    }

    /// The static errors of a script; nothing is sent.
    public func check(script text: String, name: String = "test.api") throws -> [Diagnostic] {
        try makeShell().0.check(ScriptSource(name: name, text: text))
    }

    /// Types lines at a fresh prompt (`nil` is Ctrl-C), as a person would.
    public func runPrompt(_ lines: [String?], name: String = "typist") async throws -> Outcome {
        let (shell, output) = try makeShell()
        let source = ScriptedLineSource(lines)
        let status = await shell.runPrompt(source, name: name)
        return Outcome(output: output.standard, errors: output.error, status: status, prompts: source.prompts)
    }
}
