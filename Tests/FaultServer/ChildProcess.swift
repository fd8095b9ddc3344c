import CTestSpawn
import Foundation

/// Runs a command to its end and returns what it wrote, without Foundation's `Process`.
///
/// On Linux, `Process.run()` of Swift 6.3's Foundation reads past the end of `readdir`'s buffer
/// while it scans `/proc/self/fd` (swift-corelibs-foundation #5472, fixed after 6.3.1), and the
/// test process crashed once in a few runs of the suite, in whichever test was spawning then
/// (tmux, most often: a terminal test asks it for the screen again and again). This spawns with
/// ``CleanSpawn`` (an empty signal mask, no descriptor but 0, 1 and 2) and reads the child's
/// output and error together, so that neither pipe fills while the other is read.
public enum ChildProcess {
    /// What a finished child wrote, and how it ended.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Standard output (and standard error too, when they were merged).
        public var output: Data
        /// Standard error, when not merged.
        public var errors: Data
    }

    /// A child that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `arguments` (the first found on `PATH` unless it is a path) and waits for it.
    ///
    /// - Parameters:
    ///   - environment: The child's whole environment; nil for this process's.
    ///   - directory: Where it runs; nil for the current directory.
    ///   - input: Its standard input (nothing, then the end, when nil).
    ///   - mergeErrors: Standard error into ``Result/output`` rather than ``Result/errors``.
    public static func run(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                           input: Data? = nil, mergeErrors: Bool = false) throws -> Result {
        guard let command = arguments.first else { throw Failure(description: "no command") }
        // A child that leaves before reading all its input must not end this process.
        signal(SIGPIPE, SIG_IGN)
        var inputPipe: [Int32] = [0, 0], outputPipe: [Int32] = [0, 0], errorPipe: [Int32] = [0, 0]
        guard pipe(&inputPipe) == 0, pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
            throw Failure(description: "pipe: errno \(errno)")
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = (environment ?? ProcessInfo.processInfo.environment)
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = CleanSpawn.withFileActions({ actions in
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, mergeErrors ? outputPipe[1] : errorPipe[1], 2)
            if let directory { _ = typist_spawn_chdir(&actions, directory) }
        }) { actions in
            CleanSpawn.withAttributes { attributes in
                command.contains("/") ? posix_spawn(&pid, command, &actions, &attributes, &argv, &envp)
                    : posix_spawnp(&pid, command, &actions, &attributes, &argv, &envp)
            }
        }
        close(inputPipe[0])
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            for descriptor in [inputPipe[1], outputPipe[0], errorPipe[0]] { close(descriptor) }
            throw Failure(description: "cannot start \(command): posix_spawn \(spawned)")
        }
        var pending = input ?? Data()
        var written = 0
        var writer: Int32 = inputPipe[1]
        if pending.isEmpty {
            close(writer)
            writer = -1
        } else {
            _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        }
        var output = Data(), errors = Data()
        var readers: [Int32] = [outputPipe[0], errorPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        // Feeds the input and drains both outputs as each is ready, to the end of both.
        while !readers.isEmpty || writer >= 0 {
            var entries = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writer >= 0 { entries.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 || errno == EINTR else { break }
            for entry in entries where entry.revents != 0 {
                if entry.fd == writer {
                    let count = pending.withUnsafeBytes { bytes in
                        Glibc.write(writer, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                    }
                    if count > 0 { written += count }
                    if written == pending.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(writer)
                        writer = -1
                        pending = Data()
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == outputPipe[0] { output.append(contentsOf: buffer[..<count]) } else { errors.append(contentsOf: buffer[..<count]) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(entry.fd)
                    readers.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7F == 0
        return Result(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output: output, errors: errors)
    }
}
