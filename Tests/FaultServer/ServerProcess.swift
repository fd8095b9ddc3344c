import Foundation

/// A server program run as a child process that prints its port on its first line: started
/// with a clean signal mask, its output read until the port (60 s on a loaded machine), and
/// ended — SIGTERM, then SIGKILL — and waited for by ``end()``.
public struct ServerProcess: Sendable {
    /// The port the server printed.
    public let port: Int
    /// The process.
    public let pid: pid_t

    /// Starts `arguments[0]` with `arguments` and reads the port it prints.
    ///
    /// - Parameter name: The server's name, for errors.
    public init(_ arguments: [String], name: String) throws {
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw Failure("pipe: \(errno)") }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let write = output[1]
        // A clean signal mask (the test thread's blocked signals must not leave the server deaf to
        // SIGTERM), and no descriptor but 0, 1 and 2 (see CleanSpawn.withFileActions).
        let spawned = CleanSpawn.withFileActions({ actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, write, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }) { actions in
            CleanSpawn.withAttributes { attributes in
                posix_spawn(&child, arguments[0], &actions, &attributes, &argv, environ)
            }
        }
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            throw Failure("cannot start \(name): posix_spawn \(spawned)")
        }
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
            throw Failure("\(name) did not start (it printed '\(String(decoding: line, as: UTF8.self))')")
        }
        self.port = port
        pid = child
    }

    /// Ends the server and waits for it.
    public func end() { Self.end(pid) }

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

    /// Runs `body` on a thread of its own (a server takes a moment to start, and the
    /// concurrency pool must not wait for it).
    public static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The first executable named `name` on `PATH`, or `nil`.
    public static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
