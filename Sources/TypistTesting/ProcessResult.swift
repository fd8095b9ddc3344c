import Foundation
import TypistProcess

/// What a finished command wrote (standard output and error together) and how it ended: for
/// tests that run a built executable, `swiftc` or `swift package`.
public struct ProcessResult: Sendable {
    /// The exit status, or 128 + the signal that ended the command (as a shell reports it).
    public var status: Int32
    /// Standard output and standard error, interleaved as written.
    public var output: String

    /// Runs a command found on `PATH` and waits for it, with no input.
    ///
    /// - Parameters:
    ///   - arguments: The command and its arguments, such as `["swiftc", "-typecheck", "a.swift"]`.
    ///   - directory: Where it runs (the current directory by default).
    ///   - environment: Variables set or replaced for it; the rest of the process's are kept.
    public static func run(_ arguments: [String], directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        // Not Foundation's Process: its launch can crash the calling process on Linux (ChildProcess).
        let finished = try ChildProcess.run(
            arguments, environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, given in given },
            directory: directory?.path, mergeErrors: true)
        return ProcessResult(status: finished.status, output: String(decoding: finished.output, as: UTF8.self))
    }

    /// Runs a command found on `PATH` and waits for it on a thread of its own, leaving the
    /// concurrency pool's few threads free for the tasks that must go on meanwhile (an in-process
    /// server, other tests). The parameters are those of the blocking ``run(_:directory:environment:)-(_,_,_)``.
    public static func run(_ arguments: [String], directory: URL? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await offThePool { try run(arguments, directory: directory, environment: environment) }
    }
}

/// Runs blocking work (waiting for a child process) on a thread of its own and resumes with its
/// result: on a 2-core machine the concurrency pool has two threads, and a test that blocks one
/// for seconds holds up every other test's tasks.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
