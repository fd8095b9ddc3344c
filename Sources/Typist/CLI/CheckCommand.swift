import APIScript
import ArgumentParser
import Foundation
import TypedAPI

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report every static error of a script; nothing is sent.")

    @Argument(help: "The script, such as smoke.api.")
    var file: String

    @OptionGroup var options: SessionOptions
}
