#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTypistPlatform

/// What a child does with its descriptors before it runs: its three standard streams connected,
/// its folder changed, and every other descriptor closed.
struct FileActions {
    var actions = SpawnStorage.fileActions()

    init() throws(ChildProcess.Failure) {
        let code = posix_spawn_file_actions_init(&actions)
        guard code == 0 else { throw .system("cannot prepare a child", code) }
    }

    mutating func destroy() { posix_spawn_file_actions_destroy(&actions) }

    /// Connects the child's `descriptor` as `stream` says: `pipeEnd` for a pipe.
    mutating func connect(_ descriptor: Int32, _ stream: ChildProcess.Stream, pipeEnd: Int32?, writing: Bool) throws(ChildProcess.Failure) {
        let code: Int32
        switch stream {
        case .null: code = posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", writing ? O_WRONLY : O_RDONLY, 0)
        case .pipe: code = pipeEnd.map { posix_spawn_file_actions_adddup2(&actions, $0, descriptor) } ?? EBADF
        case .inherited, .output: code = 0
        }
        guard code == 0 else { throw .system("cannot connect the child's descriptor \(descriptor)", code) }
    }

    /// Makes the child's `target` a copy of its `source` (standard error where output goes).
    mutating func duplicate(_ source: Int32, onto target: Int32) throws(ChildProcess.Failure) {
        let code = posix_spawn_file_actions_adddup2(&actions, source, target)
        guard code == 0 else { throw .system("cannot connect the child's descriptor \(target)", code) }
    }

    /// Runs the child in `path`.
    mutating func changeDirectory(to path: String) throws(ChildProcess.Failure) {
        let code = typist_spawn_chdir(&actions, path)
        guard code != -1 else { throw ChildProcess.Failure("this C library cannot start a program in another folder (glibc 2.29 or later can)") }
        guard code == 0 else { throw .system("cannot run in '\(path)'", code) }
    }

    /// Closes every descriptor above standard error in the child, after the actions before.
    /// Where the C library cannot (glibc before 2.34), only those marked close-on-exec close: all
    /// of this module's own.
    mutating func closeTheRest() { _ = typist_spawn_close_from(&actions, 3) }
}
