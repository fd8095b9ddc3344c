import Foundation
import Typist
import TypistCore

/// The workshop: lessons walked at the prompt (`:lesson`, `:next`, `:back`), `:explain` in the
/// pattern's terms, `:glossary`, and the command line's `lesson` and `swift-check`.
///
/// Course material, not part of the shell: a host that embeds Typist ships none of it unless it
/// asks, with `ShellHost.withWorkshop()` for its command line or ``install(on:lessons:)``
/// for a shell of its own.
public enum Workshop {
    /// Adds the workshop's commands and help to a shell.
    ///
    /// - Parameters:
    ///   - shell: The session.
    ///   - lessons: A folder of lessons (`lesson-0/lesson.md`, …), read the first time a lesson
    ///     command needs them; `nil` for none (`:lesson` then says there are none).
    public static func install(on shell: Shell, lessons: URL?) {
        let walk = LessonWalk(folder: lessons)
        shell.add(commands: [explain] + walk.commands + [glossary], after: "source")
        shell.add(observer: walk)
        shell.add(helpProvider: { name in Glossary.entry(name).map(Glossary.text) })
    }

    static let explain = MetaCommand(
        "explain", usage: ":explain", "the last failed call in the pattern's terms: its APIError case, the check, the write-up"
    ) { shell, _ in
        guard let failure = shell.lastFailedCall else {
            shell.write("no call has failed yet in this session")
            return true
        }
        shell.write(FailureExplanation.text(failure, scrub: shell.masked))
        return true
    }

    static let glossary = MetaCommand(
        "glossary", usage: ":glossary", "the write-ups' names for the pattern's parts, and TypedAPI's"
    ) { shell, _ in
        shell.write(Glossary.listing)
        return true
    }
}

extension ShellHost {
    /// This host with the workshop: the prompt's `:lesson`, `:next`, `:back`, `:explain` and
    /// `:glossary` over the lessons in `lessonDirectory`, and the `lesson` and `swift-check`
    /// subcommands.
    public func withWorkshop() -> ShellHost {
        var host = self
        host.extensions.append(.workshop)
        return host
    }
}

extension HostExtension {
    static let workshop: HostExtension = {
        let commandLine = CommandLineExtension(
        subcommands: [LessonCommand.self, SwiftCheckCommand.self],
        outcome: { command, host, output in
            switch command {
            case let lesson as LessonCommand:
                do {
                    return .session(try lesson.sessionOptions(lessons: host.lessonDirectory), lesson.mode)
                } catch {
                    output.error("\(host.name): \(error)\n")
                    return .finished(ExitStatus.software)
                }
            case let check as SwiftCheckCommand:
                return .finished(SwiftCheckCommand.run(check.files, expectFailure: check.expectFailure, output: output))
            default:
                return nil
            }
        })
        var workshop = HostExtension(commandLine: commandLine, prepare: { shell, host in
            let folder = host.lessonDirectory.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
            Workshop.install(on: shell, lessons: folder)
        })
        workshop.providesLessons = true
        return workshop
    }()
}
