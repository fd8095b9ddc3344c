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
    private let pid: pid_t

    /// Why the suite cannot run, or `nil` when httpbin is installed.
    public static var unavailable: String? {
        if FileManager.default.isExecutableFile(atPath: python) { return nil }
        return "httpbin is not installed in .build-venv: run `bash Scripts/test-tools` (`.ci/run` does) to include this suite"
    }

    static var python: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build-venv/bin/python").path
    }

    /// The server: Werkzeug's threaded server around httpbin's app, printing its port first.
    static let program = """
        import sys
        from werkzeug.serving import make_server
        import httpbin
        server = make_server("127.0.0.1", 0, httpbin.app, threaded=True)
        print(server.port, flush=True)
        server.serve_forever()
        """

    /// Starts a server (on a thread of its own: Python takes a moment to start, and the
    /// concurrency pool must not wait for it).
    public static func start() async throws -> HttpbinServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try HttpbinServer() }) }.start()
        }
    }

    private init() throws {
        if let reason = Self.unavailable { throw Failure(reason) }
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw Failure("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, output[0])
        let arguments = [Self.python, "-c", Self.program]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        // A clean signal mask: the test thread's blocked signals must not leave the server deaf to SIGTERM.
        let spawned = CleanSpawn.withAttributes { attributes in
            posix_spawn(&child, Self.python, &actions, &attributes, &argv, environ)
        }
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            throw Failure("cannot start httpbin: posix_spawn \(spawned)")
        }
        pid = child
        // The first line is the port; Python has 60 s to get there on a loaded machine.
        var line = [UInt8]()
        var pollEntry = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(60)
        while !line.contains(UInt8(ascii: "\n")), Date() < deadline {
            guard poll(&pollEntry, 1, 1_000) >= 0 || errno == EINTR else { break }
            guard pollEntry.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(output[0], &byte, 1) == 1 else { break }
            line.append(byte)
        }
        close(output[0])
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Self.end(child)
            throw Failure("httpbin did not start (it printed '\(String(decoding: line, as: UTF8.self))')")
        }
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Ends the server and waits for it.
    public func stop() {
        Self.end(pid)
    }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return
            }
            usleep(20_000)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
