import Foundation
import Synchronization
import Testing
import TypistProcess

/// The one way Typist starts programs (the workshop's swift-check, TypistTesting's commands, the
/// tests' servers and terminals): posix_spawn, not Foundation's Process, whose launch crashed
/// processes that spawn often (swift-corelibs-foundation #5472).
@Suite("Child processes")
struct ChildProcessTests {
    @Test("Output, error, input, the folder and the environment are the child's as asked")
    func streams() throws {
        let merged = try ChildProcess.run(["sh", "-c", "echo a; echo b >&2; echo c"], mergeErrors: true)
        #expect(String(decoding: merged.output, as: UTF8.self) == "a\nb\nc\n")
        #expect(merged.errors.isEmpty && merged.termination == .exited(0))

        let apart = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(String(decoding: apart.output, as: UTF8.self) == "out\n")
        #expect(String(decoding: apart.errors, as: UTF8.self) == "err\n")
        #expect(apart.termination == .exited(3) && apart.status == 3)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-child-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let there = try ChildProcess.run(["/bin/sh", "-c", "pwd -P"], directory: folder.path)
        #expect(String(decoding: there.output, as: UTF8.self) == folder.resolvingSymlinksInPath().path + "\n")

        let environment = try ChildProcess.run(["/usr/bin/env"], environment: ["ONLY": "this one", "EMPTY": ""])
        #expect(Set(String(decoding: environment.output, as: UTF8.self).split(separator: "\n")) == ["ONLY=this one", "EMPTY="])
        // Without one given, this process's own.
        let inherited = try ChildProcess.run(["/usr/bin/env"])
        #expect(String(decoding: inherited.output, as: UTF8.self).contains("PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "")\n"))
    }

    @Test("A child that writes while it reads gets all its input, and its output is read whole (more than a pipe holds, both ways)")
    func largeInputAndOutput() throws {
        let input = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // cat writes back as it reads: feeding the input without reading would fill both pipes.
        let echoed = try ChildProcess.run(["cat"], input: input)
        #expect(echoed.output == input)
        #expect(echoed.termination == .exited(0))
        // Output and error, each more than a pipe's 64 KiB, read together.
        let both = try ChildProcess.run(["sh", "-c", "head -c 300000 /dev/zero >&2; head -c 200000 /dev/zero"])
        #expect(both.errors.count == 300_000 && both.output.count == 200_000)
    }

    @Test("A child that leaves without reading its input does not end this process, and the writer's signal mask is as it was")
    func childThatLeaves() throws {
        let raised = try BrokenPipeProbe.run {
            // `true` exits without reading: writing more than a pipe holds meets a closed pipe.
            let finished = try ChildProcess.run(["true"], input: [UInt8](repeating: 65, count: 1 << 20))
            #expect(finished.termination == .exited(0))
            let child = try ChildProcess(["true"], input: .pipe, output: .null, errors: .null)
            _ = child.readOutput(until: { _ in false }) // no output pipe: returns at once
            var sent = true
            for _ in 0..<64 where sent { sent = child.send([UInt8](repeating: 66, count: 1 << 16)) }
            #expect(!sent, "a child that left takes no input")
            #expect(child.wait() == .exited(0))
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            #expect(sigismember(&mask, SIGPIPE) == 0, "SIGPIPE is left blocked")
        }
        #expect(!raised, "SIGPIPE reached the writing thread")
    }

    @Test("A child starts with no blocked signal, whatever the starting thread blocks")
    func cleanSignalMask() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGHUP)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let status = try ChildProcess.run(["grep", "SigBlk", "/proc/self/status"])
        #expect(String(decoding: status.output, as: UTF8.self) == "SigBlk:\t0000000000000000\n")
    }

    @Test("A child holds no descriptor of this process but the three it was given")
    func noInheritedDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0) // not close-on-exec: only the spawn's own closing keeps it from the child
        defer { close(ends[0]); close(ends[1]) }
        let listing = try ChildProcess.run(["ls", "/proc/self/fd"])
        // 0, 1, 2, and the descriptor ls opened to read the folder.
        let descriptors = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.filter { $0 > 3 }.isEmpty, "\(descriptors)")
    }

    @Test("How a child ended: its status, or the signal; one that ignores SIGTERM is killed")
    func termination() throws {
        let signalled = try ChildProcess.run(["sh", "-c", "kill -TERM $$"])
        #expect(signalled.termination == .signalled(SIGTERM) && signalled.status == 143)
        let stubborn = try ChildProcess(["sh", "-c", "trap '' TERM; echo ready; exec sleep 600"], output: .pipe, errors: .null)
        _ = stubborn.readOutput(until: { $0.contains(UInt8(ascii: "\n")) })
        let ended = stubborn.end(SIGTERM, grace: .milliseconds(200))
        #expect(ended.killed && ended.termination == .signalled(SIGKILL))
        let willing = try ChildProcess(["sleep", "600"], output: .null, errors: .null)
        let stopped = willing.end(SIGTERM, grace: .seconds(60))
        #expect(!stopped.killed && stopped.termination == .signalled(SIGTERM))
    }

    @Test("A program that cannot start, or a folder that does not exist, is one clear error")
    func failures() throws {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run([]) }
        do {
            _ = try ChildProcess.run(["typist-no-such-program"])
            Issue.record("a missing program started")
        } catch {
            #expect(error.description == "cannot start typist-no-such-program: No such file or directory")
        }
        do {
            _ = try ChildProcess.run(["/bin/sh", "-c", "true"], directory: "/no/such/folder")
            Issue.record("a child started in a missing folder")
        } catch {
            #expect(error.description == "cannot start /bin/sh in '/no/such/folder': No such file or directory")
        }
    }
}

/// Whether a `SIGPIPE` reaches the thread that runs `body`: a handler stands in for the default
/// action (which would end the test process) and notes a signal taken on that thread.
enum BrokenPipeProbe {
    private static let target = Atomic<UInt>(0)
    private static let raised = Atomic<Bool>(false)
    private static let lock = Mutex(())

    static func run(_ body: () throws -> Void) throws -> Bool {
        try lock.withLock { _ in
            target.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
            raised.store(false, ordering: .sequentiallyConsistent)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                if UInt(pthread_self()) == BrokenPipeProbe.target.load(ordering: .sequentiallyConsistent) {
                    BrokenPipeProbe.raised.store(true, ordering: .sequentiallyConsistent)
                }
            }
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(SIGPIPE, &action, &previous)
            defer { sigaction(SIGPIPE, &previous, nil) }
            try body()
            return raised.load(ordering: .sequentiallyConsistent)
        }
    }
}
