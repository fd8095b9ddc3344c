import Foundation

/// What a finished command wrote (standard output and error together) and how it ended: for
/// tests that run a built executable, `swiftc` or `swift package`.
public struct ProcessResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output and standard error, interleaved as written.
    public var output: String

    /// Runs a command found on `PATH` and waits for it.
    public static func run(_ arguments: [String]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}
