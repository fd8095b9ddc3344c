import Foundation

/// The built binary in a real terminal, driven through tmux (send-keys, capture-pane).
final class TmuxSession {
    static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let socket = "typist-test-\(UUID().uuidString.prefix(8))"
    let home: URL

    /// Starts `command` in a 120×40 terminal; when it exits, the pane prints `EXIT=<status>`.
    init(_ command: String, home: URL) throws {
        self.home = home
        let line = "env HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' NO_COLOR=1 TERM=xterm \(command); echo EXIT=$?; sleep 60"
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", line], detached: true)
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Types text literally (no key names).
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

    /// Waits until the screen contains `text`, or fails after `seconds` with the screen.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(text: text, screen: last)
    }

    /// posix_spawn with /dev/null for every standard stream, then waitpid.
    private static func spawnAndWait(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { throw SpawnFailure(code: result) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    struct SpawnFailure: Error { let code: Int32 }

    /// Waits until the last line on screen is an empty prompt (after Ctrl-C: the signal travels by
    /// another path than typed keys, so typing on before the new prompt shows would race it).
    func waitForEmptyPrompt(seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            let lines = last.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if lines.last == "typist>" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(text: "an empty prompt", screen: last)
    }

    struct Timeout: Error, CustomStringConvertible {
        let text: String
        let screen: String
        var description: String { "'\(text)' did not appear; the screen was:\n\(screen)" }
    }

    /// Runs tmux. A call that starts the server gets no pipe: the server would inherit it and keep
    /// it open, and reading to its end would never finish.
    @discardableResult
    private func tmux(_ arguments: [String], detached: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-L", socket] + arguments
        if detached {
            try Self.spawnAndWait(["tmux", "-L", socket] + arguments)
            return ""
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
