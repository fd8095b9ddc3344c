import Foundation
import Testing
@testable import Typist
@testable import TypistCore
import TypedAPI
import TypedAPICurl
import TypistTesting

/// `typist.json`'s values read as JSON wrote them, or refused with a message that names them.
@Suite("typist.json values")
struct ConfigurationValueTests {
    private func parse(_ json: String) throws -> ShellConfiguration {
        try withTemporaryFolderSync { folder in
            let path = folder.appendingPathComponent("typist.json").path
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return try ShellConfiguration.parse(contentsOf: path)
        }
    }

    private func withTemporaryFolderSync<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test("Numbers and booleans keep their JSON spelling")
    func scalars() throws {
        let configuration = try parse(#"{"environments": {"e": {"baseURL": "http://127.0.0.1:1", "variables": {"t": true, "f": false, "n": 42, "d": 1.5, "s": "text"}}}}"#)
        #expect(configuration.environments.first?.variables == ["t": "true", "f": "false", "n": "42", "d": "1.5", "s": "text"])
        // With their types, as the session declares them: `n + 1` is 43, `t` a Bool.
        #expect(configuration.environments.first?.values == ["t": .bool(true), "f": .bool(false), "n": .int(42), "d": .double(1.5), "s": .string("text")])
    }

    @Test("A chosen environment's variables keep their types in the session")
    func typedInSession() async throws {
        let configuration = try parse(#"{"environments": {"e": {"baseURL": "http://127.0.0.1:9", "variables": {"retries": 3, "verbose": true, "ratio": 0.5, "user": "ada"}}}}"#)
        let shell = try Shell(registry: try EndpointRegistry {}, environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                              transport: CurlTransport(), output: CapturedOutput().shellOutput, environments: configuration.environments)
        try await shell.switchEnvironment(to: "e")
        #expect(try await shell.evaluate("retries + 1") == .int(4))
        #expect(try await shell.evaluate("verbose ? \"yes\" : \"no\"") == .string("yes"))
        #expect(try await shell.evaluate("ratio * 2") == .double(1))
        #expect(try await shell.evaluate("user") == .string("ada"))
    }

    @Test("null, arrays and objects, and a default that is not a string, are refused by name", arguments: [
        (#"{"environments": {"e": {"baseURL": "http://x", "variables": {"gone": null}}}}"#, "variable 'gone' is null"),
        (#"{"environments": {"e": {"baseURL": "http://x", "variables": {"list": [1]}}}}"#, "variable 'list' is an array or object"),
        (#"{"default": 3, "environments": {"e": {"baseURL": "http://x"}}}"#, "'default' must be the name of an environment, as a string"),
        // Each one named, not only the first.
        (#"{"environments": {"e": {"baseURL": "http://x", "variables": {"a": null, "b": {"c": 1}, "ok": 1}}}}"#,
         "variable 'a' is null, variable 'b' is an array or object; give each a string, number or true/false"),
    ])
    func refused(json: String, message: String) {
        #expect(throws: ConfigurationError.self) { try parse(json) }
        do {
            _ = try parse(json)
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
