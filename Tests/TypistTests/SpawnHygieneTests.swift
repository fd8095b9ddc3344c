import FaultServer
import Foundation
import Testing

/// A server a test starts must hold no other test's pipe: it once kept a reader in another test
/// from seeing the end of its output, and two tests each waited for the other (the suite hung).
@Suite("Processes the tests start")
struct SpawnHygieneTests {
    @Test("A server started while this process holds a pipe open does not hold it too")
    func noInheritedPipe() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let python = try #require(ServerProcess.executable(named: "python3"))
        let server = try await ServerProcess.offThePool {
            try ServerProcess(python: python, program: "print(0, flush=True)\nimport time\ntime.sleep(600)", name: "a sleeper")
        }
        defer { server.end() }
        let ours = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.pid)/fd/\($0)")
        }
        #expect(!held.isEmpty)
        #expect(!held.contains(ours), "the server holds this test's pipe \(ours): \(held)")
    }

    @Test("A server ends when the process that started it lets go of it without ending it, as a crashed test process does")
    func serverEndsWithItsStarter() async throws {
        let python = try #require(ServerProcess.executable(named: "python3"))
        let pid = try await ServerProcess.offThePool {
            // Dropped without end(): its standard input closes, as every descriptor of a crashed process does.
            try ServerProcess(python: python, program: "print(0, flush=True)\nimport time\ntime.sleep(600)", name: "a sleeper").pid
        }
        // It is still this process's child: wait for it (60 s at most, a guard against the failure hanging the suite).
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                Issue.record("the server outlived the end of its input")
                return
            }
            usleep(20_000)
        }
        #expect(status == 0, "it exited by itself, status \(status)")
    }
}
