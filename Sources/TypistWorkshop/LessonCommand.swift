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

    @OptionGroup var options: SessionOptions
}

extension LessonCommand {
    /// How `lesson N` runs: at the prompt, by itself, or as a handout; or the exercises.
    enum Style: Equatable { case interactive, plain, handout, start(String), check(String) }

    var style: Style {
        if let check { .check(check) } else if let start { .start(start) } else if handout { .handout } else if plain { .plain }
        else { .interactive }
    }

    /// The session's options: with `--offline`, the lesson's cassette, replayed only, and no server.
    func sessionOptions(lessons: URL?) -> SessionOptions {
        guard offline, let number, let lessons else { return options }
        var options = options
        options.cassette = lessons.appendingPathComponent("lesson-\(number)").appendingPathComponent(Self.cassetteName).path
        options.recordMode = CassetteTransport.Mode.none.rawValue
        return options
    }

    /// The file in a lesson's folder that holds its exchanges with the demo service.
    static let cassetteName = "exchanges.har"

    /// The session this command runs.
    var mode: ShellCommandLine.Mode {
        let number = number
        let style = style
        return .custom(readsLines: number != nil && style == .interactive) { session, host, input in
            let shell = session.shell
            guard let walk = LessonWalk.of(shell) else { return ExitStatus.software }
            guard let number else { return walk.lessonCommand("", shell) ? ExitStatus.success : ExitStatus.usage }
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
            guard walk.lessonCommand(String(number), shell) else { return ExitStatus.usage }
            return await ShellCommandLine.prompt(session, host, input: input, banner: nil)
        }
    }
}
