import ArgumentParser
import Foundation
import TypedAPI
import TypistCore

/// `typist cassette show FILE` and `typist cassette verify FILE`.
struct CassetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cassette", abstract: "Read a recorded HAR cassette: list its exchanges, or check them against today's types.",
        subcommands: [CassetteShowCommand.self, CassetteVerifyCommand.self])
}

struct CassetteShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "A table of the cassette's exchanges: method, path, status, Swift type, size.")

    @Argument(help: "The cassette, such as session.har.")
    var file: String
}

struct CassetteVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Decode every recorded response through today's Swift types, with no network; exit 1 when one no longer decodes.")

    @Argument(help: "The cassette, such as session.har.")
    var file: String
}

extension ShellCommandLine {
    /// Runs `cassette show` or `cassette verify`; nil for any other command.
    static func runCassetteCommand(_ command: any ParsableCommand, _ host: ShellHost, output: ShellOutput) async -> Int32? {
        let path: String
        let verifies: Bool
        switch command {
        case let show as CassetteShowCommand: (path, verifies) = (show.file, false)
        case let verify as CassetteVerifyCommand: (path, verifies) = (verify.file, true)
        default: return nil
        }
        let cassette: Cassette
        do {
            cassette = try Cassette(contentsOf: (path as NSString).expandingTildeInPath)
        } catch {
            output.error("\(host.name): \(error)\n")
            return ExitStatus.dataError
        }
        guard verifies else {
            output.standard(CassetteReport.show(cassette))
            return ExitStatus.success
        }
        let registry: EndpointRegistry
        do {
            registry = try host.registry()
        } catch {
            output.error("\(host.name): cannot start: \(error)\n")
            return ExitStatus.software
        }
        let report = CassetteReport.render(await CassetteReport.verify(cassette, registry: registry))
        output.standard(report.text)
        return report.clean ? ExitStatus.success : ExitStatus.failure
    }
}
