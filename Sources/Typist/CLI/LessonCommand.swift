import APIScript
import ArgumentParser
import Foundation
import TypedAPI

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
