import Foundation

/// httpbin (from PyPI, in the package's `.build-venv`), a third-party HTTP service, served by
/// Werkzeug on an ephemeral loopback port for the length of a test.
///
/// `Scripts/test-tools` (run by `.ci/run`) installs it. ``stop()`` ends the process and waits for
/// it, so a test leaves nothing running.
public final class HttpbinServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    /// The port it listens on.
    public let port: Int
    private let process: ServerProcess

    /// Why the suite cannot run, or `nil` when httpbin is installed.
    public static var unavailable: String? {
        if FileManager.default.isExecutableFile(atPath: python) { return nil }
        return "httpbin is not installed in .build-venv: run `bash Scripts/test-tools` (`.ci/run` does) to include this suite"
    }

    /// Why a suite that needs `packages` (import names) from `.build-venv` cannot run, or `nil`: a
    /// `.build-venv` made before a package was added to `Scripts/test-tools` is told to run it again.
    public static func unavailable(needing packages: [String], for suite: String) -> String? {
        // Each suite's skip names its own service, not httpbin's.
        if unavailable != nil {
            return "\(suite) is not installed in .build-venv: run `bash Scripts/test-tools` (`.ci/run` does) to include this suite"
        }
        let venv = URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent()
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: venv.appendingPathComponent("lib").path)) ?? []
        let installed = versions.contains { version in
            packages.allSatisfy { package in
                FileManager.default.fileExists(atPath: venv.appendingPathComponent("lib/\(version)/site-packages/\(package)").path)
            }
        }
        return installed ? nil : "\(suite) is not installed in .build-venv: run `bash Scripts/test-tools` (`.ci/run` does) to include this suite"
    }

    static var python: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build-venv/bin/python").path
    }

    /// The server: Werkzeug's threaded server around httpbin's app (``ServerProcess/servingOnWerkzeug(_:)``).
    static let program = "import httpbin\n" + ServerProcess.servingOnWerkzeug("httpbin.app")

    /// Starts a server.
    public static func start() async throws -> HttpbinServer {
        try await ServerProcess.offThePool { try HttpbinServer() }
    }

    private init() throws {
        if let reason = Self.unavailable { throw ServerProcess.Failure(reason) }
        process = try ServerProcess(python: Self.python, program: Self.program, name: "httpbin")
        port = process.port
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Ends the server and waits for it.
    public func stop() {
        process.end()
    }
}
