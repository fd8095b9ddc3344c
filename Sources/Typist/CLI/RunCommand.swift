import APIScript
import ArgumentParser
import Foundation
import TypedAPI

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Check a script, then run it.",
        discussion: "Exit status: 0 when it ran, 1 on a failed expect or runtime error, 65 on syntax or check errors, 64 on usage errors.")

    @Argument(help: "The script, such as smoke.api.")
    var file: String

    @OptionGroup var options: SessionOptions
}
