import APIScript
import TypistText

/// The prompt's loop: reads lines from a source, gathers unfinished input (an open `{`, `(`, `[` or
/// string) across lines, hands each whole input to the shell, and keeps the history free of secrets.
struct PromptLoop {
    let shell: Shell

    /// Reads inputs until the end or `:quit`, handling each; unfinished input (an open `{`, `(`, `[`
    /// or string) continues on the next line.
    ///
    /// - Parameters:
    ///   - source: Where lines come from.
    ///   - banner: Shown first, on a terminal.
    ///   - name: The prompt's name, the host's (`reading> `); continuation lines align under it.
    /// - Returns: The exit status: 0.
    func run(_ source: some LineSource, banner: String?, name: String) async -> Int32 {
        if source.isInteractive, let banner { shell.output.standard(banner + "\n") }
        await shell.oneInputAtATime {
            shell.readSecret = { [weak source] prompt in await source?.readSecret(prompt: prompt) }
            shell.lineSource = source
        }
        var pending: [String] = []
        let first = TerminalText.sanitized(name) + "> "
        let continuation = String(repeating: " ", count: max(0, first.count - 5)) + "...> "
        while !shell.wantsToQuit {
            let prompt = pending.isEmpty ? first : continuation
            switch await source.readLine(prompt: prompt) {
            case .end:
                return ExitStatus.success
            case .interrupt:
                pending = []
            case .line(let line):
                pending.append(line)
                let text = pending.joined(separator: "\n")
                if !text.hasPrefix(":"), shell.interpreter.needsMoreInput(text) { continue }
                pending = []
                let secretsBefore = shell.session.knownSecrets.count
                if !SecretFilter.carriesSecret(text), !shell.session.containsSecret(text) { source.remember(text) }
                if shell.commandNamed(in: text)?.readsTerminal == true {
                    // It reads from the terminal itself (`:token`'s hidden input), which hears Ctrl-C.
                    await shell.handle(text)
                } else {
                    // Code and commands alike: Ctrl-C cancels what they send or run (`:load`, `:model`).
                    await source.runInterruptible { _ = await shell.handle(text) }
                }
                // What a cassette recorded is on disk after each input, not only at the end.
                shell.saveCassette()
                if shell.session.knownSecrets.count != secretsBefore {
                    // A value just became a secret: earlier lines that held it leave the history.
                    let session = shell.session
                    source.forget { session.containsSecret($0) }
                }
            }
        }
        return ExitStatus.success
    }
}

extension Shell {
    /// Reads inputs until the end or `:quit`, handling each; unfinished input (an open `{`, `(`, `[`
    /// or string) continues on the next line.
    ///
    /// - Parameters:
    ///   - source: Where lines come from.
    ///   - banner: Shown first, on a terminal.
    ///   - name: The prompt's name, the host's (`reading> `); continuation lines align under it.
    /// - Returns: The exit status: 0.
    public func runPrompt(_ source: some LineSource, banner: String? = nil, name: String = "typist") async -> Int32 {
        await PromptLoop(shell: self).run(source, banner: banner, name: name)
    }
}
