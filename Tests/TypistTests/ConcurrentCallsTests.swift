import APIScript
import DemoBindings
import DemoService
import Foundation
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
@testable import Typist
@testable import TypistCore

/// `concurrentMap` against the real demo service through every transport, and the session's
/// `concurrency` property.
@Suite("Concurrent calls through every transport")
struct ConcurrentCallsTests {
    typealias Transport = ShellTransport

    private func withShell(_ transport: Transport, _ body: (Shell, CapturedOutput) async throws -> Void) async throws {
        let server = try await DemoServer.start()
        let output = CapturedOutput()
        let environment = try ServerEnvironment(url: server.baseURL)
        do {
            switch transport {
            case .curl:
                // As the shell runs a curl session: on the session's own engine and its executor.
                try await CurlTransport.withOwnEngine { curl, executor in
                    let shell = try Shell(registry: try DemoBindings.registry(), environment: environment, transport: curl,
                                          output: output.shellOutput)
                    if let executor {
                        try await withTaskExecutorPreference(executor) { try await body(shell, output) }
                    } else {
                        try await body(shell, output)
                    }
                }
            case .asyncHTTPClient, .urlSession:
                let made: any HTTPTransport = transport == .urlSession ? URLSessionTransport() : AsyncHTTPClientTransport()
                let shell = try Shell(registry: try DemoBindings.registry(), environment: environment, transport: made,
                                      output: output.shellOutput)
                try await body(shell, output)
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("Many calls in flight come back complete and in order; an error names its element and leaves the session as it was",
          arguments: Transport.allCases)
    func calls(transport: Transport) async throws {
        try await withShell(transport) { shell, output in
            _ = try await shell.evaluate("concurrency = 16")
            let ids = try await shell.evaluate("(1...60).concurrentMap { post(id: $0).id }")
            #expect(ids == .array((1...60).map { .int($0) }))
            let waited = try await shell.evaluate("(1...20).concurrentMap(limit: 20) { slow(ms: 30).waitedMs }.reduce(0, +)")
            #expect(waited == .int(600))
            let counts = try await shell.evaluate("posts().prefix(4).concurrentMap { comments(postId: $0.id).count }")
            #expect(counts == .array(Array(repeating: .int(5), count: 4)))
            output.clear()
            #expect(await shell.handle("let lost = [1, 2, 123456].concurrentMap { post(id: $0).title }") == false)
            #expect(output.error.contains("404"), "\(output.error)")
            #expect(output.error.contains("in concurrentMap, for element 2 of 3: 123456"), "\(output.error)")
            await #expect(throws: EvaluationError.self) { try await shell.evaluate("lost") }
            let tolerant = try await shell.evaluate("[1, 123456].concurrentMap { (try? post(id: $0))?.id }")
            #expect(tolerant == .array([.int(1), .null]))
        }
    }

    @Test("concurrency is a session property: 8 to start with, 1…256, put back when an input fails, and :swift writes a task group")
    func sessionProperty() async throws {
        try await withDemoShell { shell, output, _ in
            let initial = try await shell.evaluate("concurrency")
            #expect(initial == .int(8))
            #expect(await shell.handle("concurrency = 0") == false)
            #expect(output.error.contains("concurrency must be a whole number from 1 to 256"), "\(output.error)")
            #expect(await shell.handle("concurrency = 300") == false)
            #expect(await shell.handle("concurrency = 32; post(id: 99999)") == false)
            let restored = try await shell.evaluate("concurrency")
            #expect(restored == .int(8))
            #expect(await shell.handle("concurrency = 32"))
            #expect(shell.interpreter.concurrency == 32)
            output.clear()
            await shell.handle(":help concurrentMap")
            #expect(output.standard.contains("concurrentMap<T>(limit: Int = concurrency"), "\(output.standard)")
        }
    }
}
