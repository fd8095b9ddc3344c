import Foundation
import Synchronization
import Testing
import TypistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output that cannot be written ends a program, not a library: TypistCore hands the failure to
/// the program's policy (the command line's ends the process: `OutputPathTests`), and without
/// one goes on.
@Suite("Writing to the standard streams")
struct StandardStreamTests {
    @Test("A failed write goes on without a policy, and reaches the policy when there is one")
    func failurePolicy() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0, "no /dev/full on this system")
        defer { close(full) }
        // Without a policy (a library's default): the write is dropped and this process goes on.
        StandardStream.output.write("lost\n", to: full, policy: nil)
        let seen = Mutex<[StandardStream.Failure]>([])
        StandardStream.output.write("lost\n", to: full) { stream, failure in
            #expect(stream == .output)
            seen.withLock { $0.append(failure) }
        }
        #expect(seen.withLock { $0 } == [.failed(code: ENOSPC)])
    }

    @Test("A write that succeeds reaches its descriptor whole and calls no policy")
    func success() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        StandardStream.error.write("whole line\n", to: ends[1]) { _, failure in Issue.record("policy called: \(failure)") }
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "whole line\n")
    }
}
