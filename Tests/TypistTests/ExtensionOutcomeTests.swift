import ArgumentParser
import Synchronization
import Testing
@testable import Typist
import TypistCore
import TypistTesting

/// A host's command-line extension is asked for its outcome once per command: for `swift-check`
/// the asking is the compile (it ran twice, printing every verdict twice).
@Suite("Command-line extensions")
struct ExtensionOutcomeTests {
    struct Counted: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "counted")
    }

    final class Calls: Sendable {
        let count = Mutex(0)
    }

    @Test("An extension's command runs once")
    func runsOnce() async throws {
        let calls = Calls()
        var host = ShellHost(name: "counting", registry: { try EndpointRegistry {} })
        let asked: @Sendable (any ParsableCommand, ShellHost, ShellOutput) -> CommandLineExtension.Outcome? = { command, _, output in
            guard command is Counted else { return nil }
            calls.count.withLock { $0 += 1 }
            output.standard("ran\n")
            return .finished(7)
        }
        host.extensions = [HostExtension(commandLine: CommandLineExtension(subcommands: [], outcome: { _, _, _ in nil }), prepare: { _, _ in }),
                           HostExtension(commandLine: CommandLineExtension(subcommands: [Counted.self], outcome: asked), prepare: { _, _ in })]
        let output = CapturedOutput()
        let status = await ShellCommandLine.main(host, arguments: ["counted"], output: output.shellOutput)
        #expect(status == 7, "\(output.error)")
        #expect(calls.count.withLock { $0 } == 1)
        #expect(output.standard == "ran\n")
    }
}
