import Foundation
import Testing
import TypistTesting

/// Output into a closed pipe or onto a full disk, as a person's shell sets it up.
@Suite("Standard output and error")
struct OutputPathTests {
    /// Runs `typist ARGS | head -n 1` in bash; typist's status and what it wrote to standard error.
    private func intoHead(_ arguments: [String]) async throws -> (status: Int32, error: String) {
        try await withTemporaryFolder("typist-pipe") { folder in
            let errors = folder.appendingPathComponent("stderr")
            let typist = try Built.executable("typist").path
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let line = "cd '\(Built.packageRoot.path)' && '\(typist)' \(quoted) 2>'\(errors.path)' | head -n 1 >/dev/null; exit ${PIPESTATUS[0]}"
            let result = try await ProcessResult.run(["bash", "-c", line])
            return (result.status, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        }
    }

    @Test("More output than a pipe holds, into `head -n 1`: the program ends of SIGPIPE, silently (status 141)")
    func closedPipeEndsQuietly() async throws {
        try await withTemporaryFolder("typist-pipe-script") { folder in
            // 400 KB in one write: more than a pipe buffers, so the write meets the closed pipe.
            let script = folder.appendingPathComponent("big.api")
            try #"var lines: [String] = []; for i in 0..<40000 { lines.append("line \(i)") }; print(lines.joined(separator: "\n"))"#
                .write(to: script, atomically: true, encoding: .utf8)
            let (status, error) = try await intoHead(["run", script.path])
            #expect(status == 141, "status \(status)")
            #expect(error.isEmpty, "\(error)")
        }
    }

    @Test("Examples and handouts piped into `head -n 1` end quietly", arguments: [
        ["run", "Examples/tour.api"], ["lesson", "0", "--handout"], ["run", "Examples/blog.api"],
    ])
    func examplesIntoHead(arguments: [String]) async throws {
        let (status, error) = try await intoHead(arguments)
        // Small outputs may fit in the pipe before `head` leaves: then the run simply succeeds.
        #expect(status == 0 || status == 141, "status \(status)")
        #expect(error.isEmpty, "\(error)")
    }

    @Test("Output onto a full disk is one line of error and status 74")
    func fullDisk() async throws {
        let typist = try Built.executable("typist").path
        let result = try await ProcessResult.run([
            "bash", "-c", "cd '\(Built.packageRoot.path)' && '\(typist)' run Examples/smoke.api >/dev/full",
        ])
        #expect(result.status == 74)
        #expect(result.output == "typist: cannot write to standard output: No space left on device\n")
    }
}
