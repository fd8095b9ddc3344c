import ArgumentParser
import DemoService
import Foundation

/// Runs the demo service on its own, for curl and other clients.
@main
struct DemoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-server",
        abstract: "Serve Typist's demo APIs (dogs, blog, GitHub search, accounts, faults) on loopback."
    )

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one.")
    var port = 8080

    @Flag(help: "Log every request.")
    var verbose = false

    func run() async throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("the port must be from 0 to 65535")
        }
        let server = try await DemoServer.start(host: host, port: port, logLevel: verbose ? .info : .warning)
        // Written unbuffered so that a script reading the port sees it at once.
        FileHandle.standardOutput.write(Data("DemoService listening on \(server.baseURL) (Ctrl-C stops it)\n".utf8))
        let signals = ShutdownSignals { Task { await server.stop() } }
        await server.waitUntilStopped()
        withExtendedLifetime(signals) {}
    }
}

/// Stops the server on SIGINT or SIGTERM.
final class ShutdownSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}
