import APIScript
import ArgumentParser
import Foundation
import TypedAPI
import Typist
import TypistCore

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

    @Flag(help: "Replay the lesson's recorded exchanges (exchanges.har in its folder) instead of calling the demo service: no server, no network.")
    var offline = false

    @Option(help: "How the walk's results are shown: pretty, json or table; with --check, json is one object for the instructor to collect.")
    var format: String?

    @Option(help: ArgumentHelp("Record the walk's exchanges into this HAR file (how a lesson's exchanges.har is made; Scripts/record-lessons), or replay them from it.",
                               valueName: "file.har"))
    var cassette: String?

    @Option(name: .customLong("record-mode"),
            help: ArgumentHelp("With --cassette: once, new, none or all, as at the prompt.", valueName: "mode"))
    var recordMode: String?

    @Option(help: ArgumentHelp("The HTTP transport the walk's calls go through (default: the host's first; typist has curl and urlsession).",
                               valueName: "name"))
    var transport: String?

    @Flag(name: .customLong("no-color"), help: "Never use colour (NO_COLOR does the same).")
    var noColor = false
}

extension LessonCommand {
    func validate() throws {
        if offline, check != nil || start != nil {
            throw ValidationError("--offline replays the walk; the exercises are checked against the demo service, which runs on this machine with no network: drop --offline")
        }
        if offline, cassette != nil {
            throw ValidationError("--offline replays the lesson's own exchanges.har; --cassette names another: give one of them")
        }
    }

    /// How `lesson N` runs: at the prompt, by itself, or as a handout; or the exercises.
    enum Style: Equatable { case interactive, plain, handout, start(String), check(String) }

    var style: Style {
        if let check { .check(check) } else if let start { .start(start) } else if handout { .handout } else if plain { .plain }
        else { .interactive }
    }

    /// The session's options: the transport and colour asked for; with `--offline`, the lesson's
    /// cassette, replayed only, and no server.
    func sessionOptions(lessons: URL?) throws -> SessionOptions {
        // `--name=value`, so that no value is read as an option.
        var arguments: [String] = []
        if let transport { arguments.append("--transport=" + transport) }
        if noColor { arguments.append("--no-color") }
        if let format { arguments.append("--format=" + format) }
        if let cassette { arguments.append("--cassette=" + cassette) }
        if let recordMode { arguments.append("--record-mode=" + recordMode) }
        if offline, let number, let lessons {
            let cassette = lessons.appendingPathComponent("lesson-\(number)").appendingPathComponent(Self.cassetteName).path
            arguments += ["--cassette=" + cassette, "--record-mode=" + CassetteTransport.Mode.none.rawValue]
        }
        return try SessionOptions.parse(arguments)
    }

    /// The file in a lesson's folder that holds its exchanges with the demo service.
    static let cassetteName = "exchanges.har"

    /// The session this command runs.
    var mode: ShellCommandLine.Mode {
        let number = number
        let style = style
        let offline = offline
        return .custom(readsLines: number != nil && style == .interactive) { session, host, input in
            let shell = session.shell
            if offline {
                // The recording cannot grow in a room without network, and need not: the demo
                // service runs on this machine.
                shell.cassette?.adviseOnMiss("The lesson's recording (--offline) holds its walk's own steps; to try a line of your own, "
                    + "run the lesson without --offline: the demo service runs on this machine and needs no network")
            }
            guard let walk = LessonWalk.of(shell) else { return ExitStatus.software }
            guard let number else {
                return walk.lessonCommand("", shell, starting: { "\(host.name) lesson \($0)" }) ? ExitStatus.success : ExitStatus.usage
            }
            guard style == .interactive else {
                guard let lesson = walk.lessons(shell).first(where: { $0.number == number }) else {
                    shell.fail("no lesson \(number); `\(host.name) lesson` lists them")
                    return ExitStatus.usage
                }
                switch style {
                case .start(let folder): return shell.startExercises(lesson, in: folder)
                case .check(let folder): return await shell.checkExercises(lesson, in: folder)
                default: return await shell.runLesson(lesson, markdown: style == .handout)
                }
            }
            if offline, let cassette = shell.cassette {
                shell.write("Offline: every answer comes from lesson-\(number)/\(Self.cassetteName)"
                    + (cassette.recordedOrigin.map { ", recorded from the demo service at \($0)" } ?? "") + "; nothing is sent.")
            }
            guard walk.lessonCommand(String(number), shell) else { return ExitStatus.usage }
            return await ShellCommandLine.prompt(session, host, input: input, banner: nil)
        }
    }
}
