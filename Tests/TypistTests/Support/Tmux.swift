import FaultServer
import Foundation
import Testing
import TypistProcess

/// The built binary in a real terminal, driven through tmux (send-keys, capture-pane).
///
/// Every session runs on its own tmux server. ``close()`` ends the server and every process
/// under the pane (the shell, `typist`, its in-process demo service) and reports any that
/// outlived it; the tests call it and expect nothing left. `deinit` closes too, for a test that
/// threw half-way; and a test process that crashes or is killed takes its servers with it (see
/// ``warden``).
final class TmuxSession {
    static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let socket = "typist-test-\(UUID().uuidString.prefix(8))"
    let home: URL
    /// The process tmux started in the pane.
    private(set) var panePID: pid_t = 0
    private var closed = false

    /// Whether ``close()`` removes ``home`` (a session's own; a home shared by sessions is kept).
    private let removesHome: Bool

    /// A shell that ends the tmux server once its input ends: at ``close()``, or when the test
    /// process dies and its descriptors close (tmux's server is a daemon, and a killed test run
    /// left every terminal it had open running, `typist` in each).
    let warden: ChildProcess

    /// Starts `command` in a 120×40 terminal; when it exits, the pane prints `EXIT=<status>`.
    /// With `removingHome`, ``close()`` removes `home` once everything under the pane has ended.
    init(_ command: String, home: URL, removingHome: Bool = false) throws {
        self.home = home
        removesHome = removingHome
        warden = try ChildProcess(["sh", "-c", "cat >/dev/null; exec tmux -L \(socket) kill-server"], input: .pipe, output: .null, errors: .null)
        let line = "env HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' NO_COLOR=1 TERM=xterm \(command); echo EXIT=$?; sleep 60"
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", line], detached: true)
        let reported = try tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        panePID = pid_t(reported) ?? 0
    }

    deinit {
        _ = close()
    }

    /// Ends the tmux server and everything under the pane; returns the processes still alive
    /// after that (empty when all is well).
    @discardableResult
    func close() -> [pid_t] {
        guard !closed else { return [] }
        closed = true
        let tree = panePID > 0 ? ProcessTree.descendants(of: panePID) + [panePID] : []
        _ = try? tmux(["kill-server"])
        warden.closeInput()
        _ = warden.wait()
        for pid in tree { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        var alive = tree.filter(ProcessTree.isAlive)
        while !alive.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            alive = alive.filter(ProcessTree.isAlive)
        }
        // What ignored SIGTERM is reported, then killed, so that no run leaves it behind.
        for pid in alive { kill(pid, SIGKILL) }
        if removesHome { try? FileManager.default.removeItem(at: home) }
        return alive
    }

    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Types text literally (no key names).
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

    /// Waits until the screen contains `text`, or fails after `seconds` with the screen: a guard
    /// against a prompt that never comes, far above any start-up on a loaded machine.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            // Polls without holding a concurrency-pool thread: in-process servers need them.
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Timeout(text: text, screen: last, location: sourceLocation)
    }

    /// Waits until the last line on screen is an empty prompt (after Ctrl-C: the signal travels by
    /// another path than typed keys, so typing on before the new prompt shows would race it).
    func waitForEmptyPrompt(seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            let lines = last.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if lines.last == "typist>" { return }
            // Polls without holding a concurrency-pool thread: in-process servers need them.
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Timeout(text: "an empty prompt", screen: last, location: sourceLocation)
    }

    /// Clears the line with one Ctrl-C and waits for the empty prompt.
    func clearLine(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try send("C-c")
        try await waitForEmptyPrompt(sourceLocation: sourceLocation)
    }

    struct Timeout: Error, CustomStringConvertible {
        let text: String
        let screen: String
        /// Where the test waited.
        let location: SourceLocation
        var description: String { "'\(text)' did not appear (waited at \(location)); the screen was:\n\(screen)" }
    }

    /// Runs tmux. A call that starts the server gets no pipe: the server would inherit it and keep
    /// it open, and reading to its end would never finish.
    @discardableResult
    private func tmux(_ arguments: [String], detached: Bool = false) throws -> String {
        if detached {
            _ = try ChildProcess(["tmux", "-L", socket] + arguments, input: .null, output: .null, errors: .null).wait()
            return ""
        }
        let result = try ChildProcess.run(["tmux", "-L", socket] + arguments, mergeErrors: true)
        return String(decoding: result.output, as: UTF8.self)
    }
}

/// The process tree under a process, read from /proc.
enum ProcessTree {
    /// Every live descendant of `root`.
    static func descendants(of root: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry), let parent = parentPID(of: pid) else { continue }
            children[parent, default: []].append(pid)
        }
        var result: [pid_t] = []
        var pending = [root]
        while let next = pending.popLast() {
            for child in children[next] ?? [] where !result.contains(child) {
                result.append(child)
                pending.append(child)
            }
        }
        return result
    }

    static func parentPID(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // "pid (comm) state ppid …": the command may hold spaces and parentheses.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// Whether a process exists and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
