#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTypistPlatform
import Synchronization

/// A program started as a child of this process, without Foundation's `Process`.
///
/// On Linux, `Process.run()` of Swift 6.3's Foundation reads past the end of `readdir`'s buffer
/// while it scans `/proc/self/fd` for descriptors to close (swift-corelibs-foundation #5472, fixed
/// after 6.3.1): a process that starts children now and then crashes in it. This starts them with
/// `posix_spawn`, the way a shell does: an empty signal mask and default signal dispositions
/// (whatever the starting thread blocked or ignored), and no descriptor but the three standard
/// ones — a long-lived child that inherited another thread's pipe would keep that pipe's reader
/// from ever seeing the end of its output.
///
/// Its descriptors are this value's to close: ``wait()`` and ``end(_:grace:)`` close them,
/// ``closeInput()`` the input alone, and one let go without waiting closes them too (its child
/// then stays a zombie until this process ends: wait for every child started).
package final class ChildProcess: Sendable {
    /// How one of the child's standard streams is connected.
    package enum Stream: Sendable, Equatable {
        /// `/dev/null`.
        case null
        /// A pipe to this process: the input written with ``send(_:)``, output and error read from
        /// ``output`` and ``errors``.
        case pipe
        /// This process's own.
        case inherited
        /// For standard error: wherever standard output goes.
        case output
    }

    /// Why a child was not started.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(_ description: String) { self.description = description }

        static func system(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure("\(what): \(String(cString: strerror(code)))")
        }
    }

    /// The child.
    package let pid: pid_t
    /// The read end of its standard output's pipe, or -1.
    package let output: Int32
    /// The read end of its standard error's pipe, or -1.
    package let errors: Int32
    /// The write end of its standard input's pipe until closed, and whether the other two are closed.
    let state: Mutex<(input: Int32, closed: Bool)>

    /// Starts `arguments` (the first is searched for on `PATH` unless it holds a `/`).
    ///
    /// - Parameters:
    ///   - environment: The child's whole environment; nil for this process's.
    ///   - directory: Where it runs; nil for the current folder.
    ///   - input: Its standard input (``Stream/output`` is not one).
    ///   - output: Its standard output (``Stream/output`` is not one).
    ///   - errors: Its standard error.
    package init(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                 input: Stream = .null, output: Stream = .pipe, errors: Stream = .pipe) throws(Failure) {
        guard let command = arguments.first, !command.isEmpty else { throw Failure("no command to run") }
        guard input != .output, output != .output else { throw Failure("only standard error can go where standard output goes") }
        var pipes = PipeSet()
        do throws(Failure) {
            let inputPipe = input == .pipe ? try pipes.make() : nil
            let outputPipe = output == .pipe ? try pipes.make() : nil
            let errorPipe = errors == .pipe ? try pipes.make() : nil
            var file = try FileActions()
            defer { file.destroy() }
            try file.connect(0, input, pipeEnd: inputPipe?.read, writing: false)
            try file.connect(1, output, pipeEnd: outputPipe?.write, writing: true)
            if errors == .output {
                try file.duplicate(1, onto: 2)
            } else {
                try file.connect(2, errors, pipeEnd: errorPipe?.write, writing: true)
            }
            if let directory { try file.changeDirectory(to: directory) }
            file.closeTheRest()
            var child: pid_t = 0
            let settings = environment.map { $0.map { "\($0.key)=\($0.value)" } } ?? CStrings.environment()
            let spawned = CStrings.with(arguments) { argv in
                CStrings.with(settings) { envp in
                    SpawnAttributes.withClean { attributes in
                        command.contains("/")
                            ? posix_spawn(&child, command, &file.actions, &attributes, argv, envp)
                            : posix_spawnp(&child, command, &file.actions, &attributes, argv, envp)
                    }
                }
            }
            guard spawned == 0 else {
                throw Failure.system("cannot start \(command)" + (directory.map { " in '\($0)'" } ?? ""), spawned)
            }
            // The child's ends are the child's now.
            pipes.release([inputPipe?.read, outputPipe?.write, errorPipe?.write])
            pid = child
            state = Mutex((inputPipe?.write ?? -1, false))
            self.output = outputPipe?.read ?? -1
            self.errors = errorPipe?.read ?? -1
        } catch {
            pipes.releaseAll()
            throw error
        }
    }

    deinit { closeDescriptors() }

    /// Sends the child `signal`.
    package func signal(_ signal: Int32) { kill(pid, signal) }

    /// Closes the child's input: it reads the end.
    package func closeInput() {
        state.withLock { state in
            if state.input >= 0 { close(state.input) }
            state.input = -1
        }
    }

    /// Writes all of `bytes` to the child's input; false when the child no longer reads it (or
    /// its input is not a pipe, or is closed).
    ///
    /// A child that left before reading does not end this process: `SIGPIPE` is held back on this
    /// thread while writing, and one the write raised is taken off again.
    @discardableResult
    package func send(_ bytes: some Collection<UInt8>) -> Bool {
        state.withLock { state in
            guard state.input >= 0 else { return false }
            let input = state.input
            return BrokenPipe.withSignalHeld {
                Array(bytes).withUnsafeBytes { buffer in
                    var sent = 0
                    while sent < buffer.count {
                        let count = write(input, buffer.baseAddress.map { $0 + sent }, buffer.count - sent)
                        if count < 0 {
                            if errno == EINTR { continue }
                            return false
                        }
                        sent += count
                    }
                    return true
                }
            }
        }
    }

    /// Reads the child's output as it comes until `enough` holds for what was read, the output
    /// ends, or `limit` passes (a guard against a child that hangs, not a measure).
    ///
    /// - Returns: Everything read.
    package func readOutput(until enough: ([UInt8]) -> Bool, limit: Duration = .seconds(60)) -> [UInt8] {
        read(output, until: enough, limit: limit)
    }

    /// Reads the child's standard error as ``readOutput(until:limit:)`` reads its output.
    package func readErrors(until enough: ([UInt8]) -> Bool, limit: Duration = .seconds(60)) -> [UInt8] {
        read(errors, until: enough, limit: limit)
    }

    private func read(_ descriptor: Int32, until enough: ([UInt8]) -> Bool, limit: Duration) -> [UInt8] {
        var received: [UInt8] = []
        guard descriptor >= 0 else { return received }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while !enough(received), ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 1_000)
            if ready < 0, errno != EINTR { break }
            guard ready > 0 else { continue }
            let count = systemRead(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received
    }

    /// Waits for the child to end, then closes this side's descriptors.
    package func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        closeDescriptors()
        return Termination(waitStatus: status)
    }

    /// Sends the child `signal`, waits for it to end — up to `grace`, then kills it — and closes
    /// this side's descriptors.
    ///
    /// - Returns: How it ended, and whether it had to be killed.
    @discardableResult
    package func end(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(10)) -> (termination: Termination, killed: Bool) {
        kill(pid, signal)
        let deadline = ContinuousClock.now + grace
        var status: Int32 = 0
        var killed = false
        while true {
            let found = waitpid(pid, &status, WNOHANG)
            if found == pid || (found < 0 && errno != EINTR) { break }
            if !killed, ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(20_000)
        }
        closeDescriptors()
        return (Termination(waitStatus: status), killed)
    }

    private func closeDescriptors() {
        closeInput()
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            for descriptor in [output, errors] where descriptor >= 0 { close(descriptor) }
        }
    }
}

/// `read(2)`, under a name no method hides.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
