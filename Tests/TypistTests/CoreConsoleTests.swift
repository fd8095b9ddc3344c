import APIScript
import DemoService
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypistCore

/// The core without a terminal, as an app's in-app API console drives it (a debug screen where a
/// developer types `post(id: 1).title` against the app's own client): lines in; results,
/// diagnostics and completions out. This file imports `TypistCore` only — no readline, no
/// ArgumentParser — and `Scripts/core-closure` (run by `.ci/run`) checks the core links neither.
@Suite("The core without a terminal: an app's console")
struct CoreConsoleTests {
    @Test("Line in; result, diagnostics and completions out, through the app's own transport")
    func console() async throws {
        let server = try await DemoServer.start()
        let registry = try EndpointRegistry {
            Group("Blog") {
                Register("post", summary: "One post", Parameter<Int>("id")) { id in Endpoint<Public, Post>(path: "/posts/\(id)") }
                Register("posts", summary: "Every post") { Endpoint<Public, [Post]>(path: "/posts") }
            }
        }
        let screen = Screen()
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: server.baseURL),
                              transport: URLSessionTransport(), output: screen.output)
        // Completions from the Swift types, before any call.
        let fields = shell.completions(before: "post(id: 1).")
        #expect(Array(fields.candidates.prefix(2)) == ["userId", "id"], "\(fields)")
        #expect(!fields.appendsSpace)
        // A line's result, as text and as a value.
        #expect(await shell.handle("post(id: 1).title"))
        #expect(screen.results.hasPrefix("\""), "\(screen.results)")
        let count = try await shell.evaluate("posts().filter { $0.userId == 1 }.count")
        #expect(count == .int(10))
        // A mistake: one diagnostic with its place, and the session goes on.
        screen.clear()
        #expect(await shell.handle("post(id: 1).titel") == false)
        #expect(screen.errors.contains("<input>:1:13: error: Post has no member 'titel'"), "\(screen.errors)")
        #expect(screen.errors.contains("did you mean 'title'?"))
        screen.clear()
        #expect(await shell.handle("post(id: 2).id"))
        #expect(screen.results == "2\n")
        await server.stop()
    }

    @Test("Inputs from several tasks of the app run one after another, each whole")
    func inputsFromSeveralTasks() async throws {
        let server = try await DemoServer.start()
        let registry = try EndpointRegistry {
            Register("post", summary: "One post", Parameter<Int>("id")) { id in Endpoint<Public, Post>(path: "/posts/\(id)") }
        }
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: server.baseURL),
                              transport: URLSessionTransport(), output: Screen().output)
        try await shell.evaluate("var total = 0")
        // Each input reads `total`, waits for the network, then writes it: run side by side, two
        // would read the same `total` and one addition would be lost (or the interpreter's frames
        // would be shared). Taken one at a time, every addition counts.
        let tasks = 40
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask { _ = try? await shell.evaluate("total = total + post(id: 1).id") }
            }
        }
        #expect(try await shell.evaluate("total") == .int(tasks))
        await server.stop()
    }
}
