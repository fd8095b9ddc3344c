import APIScript
import ArgumentParser
import Foundation
import TypedAPI

struct SwiftCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift-check", abstract: "Type-check Swift files against the built TypedAPI, and explain the common diagnostics.",
        discussion: "Exit status: 0 when the files type-check (with --expect-failure: when they do not), 1 otherwise.")

    @Argument(help: "The Swift files, checked together.")
    var files: [String]

    @Flag(help: "The files are a misuse the compiler must refuse.")
    var expectFailure = false
}
