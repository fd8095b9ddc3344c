import APIScript
import DemoBindings
import DemoService
import FaultServer
import Foundation
import Synchronization
import Testing
import TypedAPI
import TypedAPIAsyncHTTPClient
import TypedAPICurl
import Typist
import TypistOpenAPI
import TypistProcess
@_exported import TypistTesting

/// A shell with the demo bindings against a demo server on an ephemeral port; stopped after.
///
/// - Parameters:
///   - fromDocument: Whether its functions come from the service's OpenAPI document
///     (`GET /openapi.yaml`, as `typist --openapi` reads it) instead of the Swift bindings.
///   - transport: The session's transport (AsyncHTTPClient's unless given).
func withDemoShell<T>(fromDocument: Bool = false, transport: any HTTPTransport = AsyncHTTPClientTransport(),
                      environments: (String) -> [NamedEnvironment] = { _ in [] },
                      _ body: (Shell, CapturedOutput, DemoServer) async throws -> T) async throws -> T {
    let server = try await DemoServer.start()
    let output = CapturedOutput()
    do {
        let registry: EndpointRegistry
        if fromDocument {
            let document = try await OpenAPIDocument.load(server.baseURL + "/openapi.yaml", cacheDirectory: nil)
            registry = try EndpointRegistry { document }
        } else {
            registry = try DemoBindings.registry()
        }
        let shell = try Shell(registry: registry, environment: try ServerEnvironment(url: server.baseURL),
                              transport: transport, output: output.shellOutput,
                              environments: environments(server.baseURL))
        let result = try await body(shell, output, server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// The built executables, beside the test bundle.
enum Built {
    static func executable(_ name: String) throws -> URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var directory = bundle
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw MissingExecutable(name: name)
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        let name: String
        var description: String { "the built '\(name)' executable is not beside the tests; run `swift build` first" }
    }

    /// The package root (for Examples/).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Result: Sendable {
        var status: Int32
        var standard: String
        var error: String
    }

    /// Runs an executable with arguments, standard input and extra environment, waiting for it on a
    /// thread of its own: a child that calls back into a server in this process (the demo service)
    /// must never wait for a concurrency-pool thread that is itself waiting for the child.
    static func run(_ name: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                    directory: URL? = nil) async throws -> Result {
        let executable = try executable(name)
        return try await offThePool {
            try runBlocking(executable, arguments, input: input, environment: environment, directory: directory)
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], input: String?, environment: [String: String],
                                    directory: URL?) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TYPIST_TOKEN"] = nil
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("typist-no-config").path
        for (key, value) in environment { env[key] = value }
        let result = try ChildProcess.run([executable.path] + arguments, environment: env, directory: (directory ?? packageRoot).path,
                                          input: input.map { Array($0.utf8) })
        return Result(status: result.status, standard: String(decoding: result.output, as: UTF8.self),
                      error: String(decoding: result.errors, as: UTF8.self))
    }

    /// Replaces loopback ports so outputs compare across runs.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1:PORT", options: .regularExpression)
    }
}

/// A fresh folder under the temporary directory, removed when `body` returns or throws.
func withTemporaryFolder<T>(_ prefix: String, _ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A shell over libcurl whose functions are `document`'s operations, sending to its first server
/// (a third-party service's own document, loaded from the service).
func documentShell(_ document: OpenAPIDocument, output: CapturedOutput) throws -> Shell {
    try Shell(registry: try EndpointRegistry { document }, environment: try ServerEnvironment(url: document.servers[0]),
              transport: CurlTransport(), output: output.shellOutput)
}
