import APIScript
import ArgumentParser
import Foundation
import CTypistPlatform
import Synchronization
import TypedAPI
import LineEditor

/// What a host gives the command line: its name, its endpoints, the transports `--transport`
/// offers, and optionally a service to start when no base URL is configured (as `typist` starts
/// the demo service).
public struct ShellHost: Sendable {
    /// The executable's name, for usage and messages.
    public var name: String
    /// Its version.
    public var version: String
    /// Builds the registry.
    public var registry: @Sendable () throws -> EndpointRegistry
    /// Starts a default service and returns its base URL and how to stop it.
    public var defaultService: (@Sendable () async throws -> (baseURL: String, stop: @Sendable () async -> Void))?
    /// The transports `--transport` chooses from; the first is the default.
    public var transports: [TransportOption]
    /// Headers sent with every request (a product token, an API version); the session's
    /// `headers` and an endpoint's own come after them.
    public var headers: [HTTPHeader] = []
    /// The host's client delegate: signs, retries and observes every request the shell sends.
    public var delegate: (any APIClientDelegate)?
    /// A folder of lessons (`lesson-0/lesson.md`, …) for `:lesson` and `lesson N`; `nil` for none.
    public var lessonDirectory: URL?
    /// TLS options for every request, such as the CA bundle of the company whose services the
    /// host calls; the environment's (`typist.json`) and the command line's win over them, field by field.
    public var tls: TLSOptions = .system

    /// Creates a host description.
    public init(name: String, version: String = TypistVersion.current,
                registry: @escaping @Sendable () throws -> EndpointRegistry,
                transports: [TransportOption] = [.urlSession],
                defaultService: (@Sendable () async throws -> (baseURL: String, stop: @Sendable () async -> Void))? = nil) {
        self.name = name
        self.version = version
        self.registry = registry
        self.transports = transports.isEmpty ? [.urlSession] : transports
        self.defaultService = defaultService
    }
}

extension ShellHost {
    /// `reading/1.2 typist/0.3.0`: the host and the shell, for the `User-Agent` header.
    public static func userAgent(name: String, version: String) -> String {
        name == "typist" ? "typist/\(version)" : "\(name)/\(version) typist/\(TypistVersion.current)"
    }

    /// The host's headers for every request, with a `User-Agent` naming the host unless it gave one.
    var requestHeaders: [HTTPHeader] { Self.headers(headers, withUserAgentOf: name, version: version) }

    /// `headers` with a `User-Agent` for `name` first, unless one is there: the one place it is added.
    static func headers(_ headers: [HTTPHeader], withUserAgentOf name: String, version: String) -> [HTTPHeader] {
        if headers.contains(where: { $0.name.lowercased() == "user-agent" }) { return headers }
        return [.custom(name: "User-Agent", value: userAgent(name: name, version: version))] + headers
    }

    /// The transport `--transport name` chooses: the first when no name is given.
    func transport(named name: String?) -> TransportOption? {
        guard let name else { return transports.first }
        return transports.first { $0.name == name }
    }
}

/// Typist's version.
public enum TypistVersion {
    /// The version string.
    public static let current = "0.3.0"
}

/// The options shared by the prompt, `run` and `check`.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("base-url"), help: "Where requests go (default: the configured environment, or the built-in service).")
    var baseURL: String?

    @Option(name: .customLong("env"), help: "A named environment from typist.json.")
    var environment: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("Declare a variable: --var name=value (repeatable).", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: "How results are shown: pretty, json or table.")
    var format: String = "pretty"

    @Option(help: ArgumentHelp("The HTTP transport (default: the host's first; typist has curl and urlsession).",
                               valueName: "name"))
    var transport: String?

    @Flag(name: .customLong("no-color"), help: "Never use colour (NO_COLOR does the same).")
    var noColor = false

    @Option(name: .customLong("cacert"),
            help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's: a private CA, a self-signed server (CURL_CA_BUNDLE or SSL_CERT_FILE do the same).",
                               valueName: "file"))
    var caBundle: String?

    @Option(name: .customLong("cert"),
            help: ArgumentHelp("Present this client certificate (PEM) to a server that asks for one (mutual TLS).", valueName: "file"))
    var clientCertificate: String?

    @Option(name: .customLong("key"),
            help: ArgumentHelp("The client certificate's private key (PEM), when it is not in the --cert file.", valueName: "file"))
    var clientKey: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")],
          help: "Do not check the server's certificate (a warning says so whenever it is in effect; never with real credentials).")
    var insecure = false

    /// The TLS options given here, relative paths made absolute against the current directory.
    var tls: TLSOptions {
        func absolute(_ path: String?) -> String? {
            guard let path else { return nil }
            let expanded = (path as NSString).expandingTildeInPath
            return expanded.hasPrefix("/") ? expanded
                : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        }
        return TLSOptions(certificateAuthorities: absolute(caBundle), clientCertificate: absolute(clientCertificate),
                          clientKey: absolute(clientKey), verifiesServer: !insecure)
    }
}

struct PromptCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ShellCommandLine.hostName.withLock { $0 },
            abstract: "A typed API shell: call endpoints as functions, navigate results like Swift values.",
            discussion: "With no subcommand, opens the prompt. Tokens come from TYPIST_TOKEN or the session, never from arguments.",
            version: ShellCommandLine.hostVersion.withLock { $0 },
            subcommands: [RunCommand.self, CheckCommand.self, LessonCommand.self, SwiftCheckCommand.self])
    }

    @OptionGroup var options: SessionOptions
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Check a script, then run it.",
        discussion: "Exit status: 0 when it ran, 1 on a failed expect or runtime error, 65 on syntax or check errors, 64 on usage errors.")

    @Argument(help: "The script, such as smoke.api.")
    var file: String

    @OptionGroup var options: SessionOptions
}

struct LessonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson", abstract: "List the lessons, or walk through lesson N at the prompt.",
        discussion: "At the prompt, :next and :back move between steps. --plain runs the walk by itself (for a projector; exit 1 when a step's check fails); --handout prints it as Markdown with every output.")

    @Argument(help: "The lesson's number; without one, the lessons are listed.")
    var number: Int?

    @Flag(help: "Run every step by itself and show what it prints, without a prompt.")
    var plain = false

    @Flag(help: "Print the walk, with every step's output, as a Markdown handout.")
    var handout = false

    @Option(help: ArgumentHelp("Copy the lesson's exercises into a folder to work in.", valueName: "folder"))
    var start: String?

    @Option(help: ArgumentHelp("Check the exercises in a folder: the Swift design against its usage and misuse, the .api exercise with the hidden checks.", valueName: "folder"))
    var check: String?

    @OptionGroup var options: SessionOptions
}

struct SwiftCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift-check", abstract: "Type-check Swift files against the built TypedAPI, and explain the common diagnostics.",
        discussion: "Exit status: 0 when the files type-check (with --expect-failure: when they do not), 1 otherwise.")

    @Argument(help: "The Swift files, checked together.")
    var files: [String]

    @Flag(help: "The files are a misuse the compiler must refuse.")
    var expectFailure = false
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report every static error of a script; nothing is sent.")

    @Argument(help: "The script, such as smoke.api.")
    var file: String

    @OptionGroup var options: SessionOptions
}

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

    /// Parses the arguments and runs; returns the exit status.
    ///
    /// It runs off the caller's actor: with the curl transport, the session runs on the thread that
    /// drives libcurl, so a call never switches threads.
    @concurrent
    public static func main(_ host: ShellHost, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            input: sending (any LineSource)? = nil, output: ShellOutput = .process) async -> Int32 {
        hostName.withLock { $0 = host.name }
        hostVersion.withLock { $0 = host.version }
        let command: any ParsableCommand
        // Help is answered here: ArgumentParser's parseAsRoot ends the process on `--help` for
        // this command tree instead of throwing its clean exit.
        if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
            let words = arguments.filter { !$0.hasPrefix("-") && $0 != "help" }
            // Each subcommand's own help (`typist lesson --help`, `typist help swift-check`).
            let command: any ParsableCommand.Type = PromptCommand.configuration.subcommands
                .first { $0.configuration.commandName == words.first } ?? PromptCommand.self
            output.standard(PromptCommand.helpMessage(for: command) + "\n")
            return ExitStatus.success
        }
        do {
            command = try PromptCommand.parseAsRoot(arguments)
        } catch {
            let code = PromptCommand.exitCode(for: error)
            let message = PromptCommand.fullMessage(for: error)
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
        case let lesson as LessonCommand:
            let style: LessonStyle = if let folder = lesson.check { .check(folder) } else if let folder = lesson.start { .start(folder) }
                else if lesson.handout { .handout } else if lesson.plain { .plain } else { .interactive }
            (options, mode) = (lesson.options, .lesson(lesson.number, style))
        case let check as SwiftCheckCommand:
            return SwiftCheckCommand.run(check.files, expectFailure: check.expectFailure, output: output)
        default: return ExitStatus.usage
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
    static func exitOnSignals(_ endings: [(signal: Int32, status: Int32)]) -> [Int32] {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for ending in endings {
            sigaddset(&unblock, ending.signal)
            signal(ending.signal) { number in _exit(number == SIGINT ? 130 : number == SIGTERM ? 143 : 128 + number) }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return endings.map(\.signal)
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
    @discardableResult
    public static func prepareProcess() -> Bool {
        processEndsAfterMain.withLock { $0 = true }
        return tuneAllocator()
    }

    static func tuneAllocator() -> Bool {
        typist_tune_malloc(16 << 20) == 1
    }
}
