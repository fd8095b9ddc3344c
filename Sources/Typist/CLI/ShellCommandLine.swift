import APIScript
import ArgumentParser
import Foundation
import CTypistPlatform
import Synchronization
import TypedAPI
import TypistText

/// The command line a host's executable runs: the prompt, `run FILE.api` and `check FILE.api`.
///
/// ```swift
/// @main struct MyShell {
///     static func main() async { exit(await ShellCommandLine.main(ShellHost(name: "myshell", registry: { try myRegistry() }))) }
/// }
/// ```
public enum ShellCommandLine {
    /// Set by ``prepareProcess()``: the process exits as soon as `main` returns.
    static let processEndsAfterMain = Mutex(false)
    static let parkedSessions = Mutex<[Shell]>([])
    static let hostName = Mutex("typist")
    static let hostVersion = Mutex(TypistVersion.current)
    /// The subcommands the host's extensions add (the workshop's `lesson`, `swift-check`).
    static let extensionSubcommands = Mutex<[any ParsableCommand.Type]>([])

    /// Parses the arguments and runs; returns the exit status.
    ///
    /// It runs off the caller's actor: with the curl transport, the session runs on the thread that
    /// drives libcurl, so a call never switches threads.
    @concurrent
    public static func main(_ host: ShellHost, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            input: sending (any LineSource)? = nil, output: ShellOutput = .process) async -> Int32 {
        // A program ends when its output cannot be written; the library underneath does not.
        ProcessOutputPolicy.install()
        hostName.withLock { $0 = host.name }
        hostVersion.withLock { $0 = host.version }
        extensionSubcommands.withLock {
            $0 = host.extensions.flatMap { $0.commandLine?.subcommands ?? [] }
                + (host.extensions.contains { $0.generate != nil || $0.generateGraphQL != nil } ? [GenerateCommand.self] : [])
        }
        let command: any ParsableCommand
        // Help is answered here: ArgumentParser's parseAsRoot ends the process on `--help` for
        // this command tree instead of throwing its clean exit.
        if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
            let words = arguments.filter { !$0.hasPrefix("-") && $0 != "help" }
            // Each subcommand's own help (`typist lesson --help`, `typist help swift-check`).
            let command: any ParsableCommand.Type = RootCommand.configuration.subcommands
                .first { $0.configuration.commandName == words.first } ?? PromptCommand.self
            output.standard((command == PromptCommand.self ? RootCommand.promptHelp() : RootCommand.helpMessage(for: command)) + "\n")
            return ExitStatus.success
        }
        do {
            command = try RootCommand.parseAsRoot(RootCommand.subcommandFirst(arguments))
        } catch {
            let code = RootCommand.exitCode(for: error)
            let message = RootCommand.promptSpelled(RootCommand.fullMessage(for: error))
            if code == .success {
                output.standard(message + "\n")
                return ExitStatus.success
            }
            output.error(message + "\n")
            return ExitStatus.usage
        }
        let options: SessionOptions
        let mode: Mode
        switch command {
        case let run as RunCommand: (options, mode) = (run.options, .run(run.file))
        case let check as CheckCommand: (options, mode) = (check.options, .check(check.file))
        case let prompt as PromptCommand: (options, mode) = (prompt.options, .prompt)
        default:
            if let status = await runCassetteCommand(command, host, output: output) { return status }
            if let generate = command as? GenerateCommand {
                guard let request = generate.request(output: output) else { return ExitStatus.usage }
                let writers = host.extensions.map { request.graphQL == nil ? $0.generate : $0.generateGraphQL }
                guard let write = writers.compactMap({ $0 }).first else {
                    output.error("typist: this program writes no Swift for \(request.graphQL == nil ? "OpenAPI documents" : "GraphQL operations")\n")
                    return ExitStatus.usage
                }
                return await write(request, output)
            }
            switch host.extensions.firstNonNil({ $0.commandLine?.outcome(command, host, output) }) {
            case .finished(let status): return status
            case .running(let work): return await work()
            case .session(let extensionOptions, let extensionMode): (options, mode) = (extensionOptions, extensionMode)
            case nil: return ExitStatus.usage
            }
        }
        guard let transport = host.transport(named: options.transport) else {
            let names = host.transports.map(\.name).joined(separator: ", ")
            output.error("\(host.name): unknown transport '\(options.transport ?? "")'; choose \(names)\n")
            return ExitStatus.usage
        }
        // The session runs where its transport prefers (its own libcurl thread, so calls never
        // switch threads), or else on a thread of its own; both have stacks large enough for
        // scripts to recurse 10,000 calls deep.
        return await transport.withSession { made, executor in
            await withTaskExecutorPreference(executor ?? LargeStackExecutor.shared) {
                // A preference takes effect at the task's next suspension: until then it runs on the
                // caller's thread, whose small stack made the interpreter hand the whole session to
                // another thread (and every libcurl call then crossed threads twice). Yield once.
                await Task.yield()
                return await execute(host, options, transport: made, mode: mode, input: input, output: output)
            }
        }
    }
}

extension ShellCommandLine {
    /// Ends the process with 130 on SIGINT and 143 on SIGTERM, whatever the session is doing (a
    /// pure loop checks for nothing). A plain handler that calls `_exit`, not a dispatch source:
    /// whether a dispatch source sees a signal depends on which threads block it, and a parent
    /// (a CI runner, a test) may have left it blocked in some of ours. The signals are unblocked
    /// on this thread so that at least one thread takes them.
    ///
    /// With `beforeExit` (a cassette to write), the first signal wakes a thread of its own through a
    /// pipe — the handler only writes one byte, which is safe in a signal handler — and that thread
    /// runs `beforeExit` and then ends the process; a second signal ends it at once.
    static func exitOnSignals(_ endings: [(signal: Int32, status: Int32)],
                              beforeExit: (@Sendable () -> Void)? = nil) -> [Int32] {
        if let beforeExit {
            var ends: [Int32] = [0, 0]
            if pipe(&ends) == 0 {
                let reader = ends[0]
                Thread.detachNewThread {
                    var number: UInt8 = 0
                    while read(reader, &number, 1) < 0, errno == EINTR {}
                    beforeExit()
                    _exit(Self.exitStatus(forSignal: Int32(number)))
                }
                signalPipe.store(Int64(ends[1]), ordering: .sequentiallyConsistent)
            }
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for ending in endings {
            sigaddset(&unblock, ending.signal)
            signal(ending.signal) { number in
                let pipe = ShellCommandLine.signalPipe.load(ordering: .sequentiallyConsistent)
                if pipe >= 0, ShellCommandLine.signalsTaken.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue == 0 {
                    var byte = UInt8(truncatingIfNeeded: number)
                    if write(Int32(truncatingIfNeeded: pipe), &byte, 1) == 1 { return }
                }
                _exit(ShellCommandLine.exitStatus(forSignal: number))
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return endings.map(\.signal)
    }

    /// The write end of the pipe a signal wakes the `beforeExit` thread through; -1 when there is none.
    private static let signalPipe = Atomic<Int64>(-1)
    /// How many ending signals have arrived: the first may wait for `beforeExit`, a second does not.
    private static let signalsTaken = Atomic<Int>(0)

    /// 130 for SIGINT, 143 for SIGTERM, 128 + the number for others, as shells report them.
    private static func exitStatus(forSignal number: Int32) -> Int32 {
        number == SIGINT ? 130 : number == SIGTERM ? 143 : 128 + number
    }

    /// Prepares a process whose `main.swift` ends with `exit(await ShellCommandLine.main(…))`: call it
    /// first thing, before other threads start.
    ///
    /// - With glibc, it keeps one malloc arena and grows the heap 16 MiB at a time. Responses are read
    ///   into values on the libcurl thread, and glibc's arenas for threads other than the main one grow
    ///   a page at a time, a system call each: about 12% of the time a 10 MB response takes.
    /// - When `main` returns, the session's values are left for the process's exit to reclaim instead
    ///   of being freed one by one (milliseconds for a large response kept in a variable).
    ///
    /// - Returns: Whether the allocator took the settings (false where there is nothing to tune).
    /// With `TYPIST_PLAIN=1` in the environment it does neither (see `PlatformTuning`).
    @discardableResult
    public static func prepareProcess() -> Bool {
        guard PlatformTuning.isEnabled else { return false }
        processEndsAfterMain.withLock { $0 = true }
        return tuneAllocator()
    }

    static func tuneAllocator() -> Bool {
        typist_tune_malloc(Int32(PlatformTuning.heapTopPad)) == 1
    }
}
