import APIScript
import Foundation

extension Shell {
    /// Runs a whole text in this session, as piped input (`typist < file.api`) and `:load` do, so
    /// that they mean what `typist run` means: the text is parsed as one script (member chains
    /// continue across lines, `"""` strings span them, diagnostics name their lines), checked
    /// before anything runs, and stopped at the first runtime error. Each top-level expression's
    /// value is shown, as at the prompt.
    ///
    /// - Parameter intoSession: `:load`: names the session already has may be declared again, as
    ///   at the prompt. Piped input is checked exactly as `typist run` checks a file.
    /// - Returns: 0; 1 for a runtime error or failed `expect`; 65 for syntax or check errors
    ///   (nothing ran); 130 when cancelled.
    func runLoaded(_ source: ScriptSource, intoSession: Bool) async -> Int32 {
        if !intoSession {
            let problems = checkScript(source, credentials: false)
            if problems.contains(where: { $0.severity == .error }) {
                report(problems)
                return ExitStatus.dataError
            }
        }
        var shown: (Value, ScriptType)?
        let result = await evaluate(source, isPrompt: intoSession) { [self] value, type in
            if case .stream(let stream) = value, case .stream(let itemType) = type {
                shown = (.array(try await showItems(of: stream, itemType: itemType)), .array(itemType))
                return
            }
            if value != .void { output.standard(render(value, type: type) + "\n") }
            shown = (value, type)
        }
        report(result.diagnostics)
        if result.failed {
            return result.errors.contains { $0.kind == .cancelled } ? ExitStatus.interrupted
                : result.errors.contains { $0.kind == .syntax || $0.kind == .check || $0.kind == .unexpectedEnd }
                ? ExitStatus.dataError : ExitStatus.failure
        }
        if let (value, type) = shown { setLast(value, type: type) }
        transcript.append(TranscriptEntry(text: source.text, producedResult: shown != nil))
        return ExitStatus.success
    }

    /// Runs piped input (`typist < file.api`): code runs as scripts, `:commands` as at the
    /// prompt, and the first failure ends the run.
    ///
    /// Input is taken as it arrives: all that is available at once is one script (a file is read
    /// whole), and a tool that writes a statement and waits for its answer gets it.
    ///
    /// - Returns: The exit status, as for `typist run`; a failed command gives 1.
    public func runPiped(_ input: PipedInput, name: String = "<stdin>") async -> Int32 {
        await oneInputAtATime {
            var runner = PipedRunner(shell: self, name: name)
            while let chunk = await input.next() {
                if let status = await runner.feed(chunk.text, moreWaiting: chunk.moreWaiting) { return status }
            }
            return await runner.finish()
        }
    }

    /// Runs a whole piped text; see ``runPiped(_:name:)``.
    public func runPiped(_ text: String, name: String = "<stdin>") async -> Int32 {
        await oneInputAtATime {
            var runner = PipedRunner(shell: self, name: name)
            if let status = await runner.feed(text + "\n", moreWaiting: false) { return status }
            return await runner.finish()
        }
    }
}

/// Splits piped text into stretches of code and `:command` lines, keeping line numbers.
struct PipedRunner {
    let shell: Shell
    let name: String
    private var partial = ""
    private var code: [String] = []
    private var codeStart = 0
    private var lineNumber = 0
    /// The last line of the input that has run (0 before any).
    private var ranThrough = 0

    init(shell: Shell, name: String) {
        self.shell = shell
        self.name = name
    }

    /// Takes more text; runs what is complete. Returns a status when the run has ended.
    mutating func feed(_ text: String, moreWaiting: Bool) async -> Int32? {
        // Line breaks are found among scalars, not Characters ("\r\n" is one Character, so a
        // Windows file was one line), and in the new text only: a line of many chunks (a 50 MB
        // literal) was scanned again, whole, at each one.
        let scalars = text.unicodeScalars
        guard let lastBreak = scalars.lastIndex(of: "\n") else {
            partial += text
            return nil
        }
        let complete = partial + String(scalars[..<lastBreak])
        partial = String(scalars[scalars.index(after: lastBreak)...])
        for line in complete.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            if let status = await take(Self.withoutCarriageReturn(line)) { return status }
        }
        // Nothing more is waiting: run the code so far if it is complete, so a tool that writes
        // one statement at a time gets each answer.
        if !moreWaiting, !code.isEmpty, !shell.interpreter.needsMoreInput(code.joined(separator: "\n")) {
            let status = await flush()
            if status != ExitStatus.success { return status }
        }
        return nil
    }

    /// Runs what is left at the end of the input.
    mutating func finish() async -> Int32 {
        if !partial.isEmpty, let status = await take(Self.withoutCarriageReturn(partial.unicodeScalars[...])) { return status }
        partial = ""
        return await flush()
    }

    /// What `CharacterSet.whitespaces` holds: a space separator or a tab.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || (scalar.value >= 0x80 && scalar.properties.generalCategory == .spaceSeparator)
    }

    /// A line as the script reads it: a CRLF line's "\r" is part of its break.
    private static func withoutCarriageReturn(_ line: Substring.UnicodeScalarView) -> String {
        String(line.last == "\r" ? line.dropLast() : line)
    }

    private mutating func take(_ line: String) async -> Int32? {
        defer { lineNumber += 1 }
        // Looked at by scalars from the start: trimming a 50 MB line through Foundation took seconds.
        let first = line.unicodeScalars.first { !Self.isBlank($0) }
        if first == ":", code.isEmpty || !shell.interpreter.needsMoreInput(code.joined(separator: "\n")) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let status = await flush()
            if status != ExitStatus.success { return status }
            guard await shell.handle(trimmed) else { return ExitStatus.failure }
            ranThrough = lineNumber + 1
            return shell.wantsToQuit ? ExitStatus.success : nil
        }
        if code.isEmpty { codeStart = lineNumber }
        code.append(line)
        return nil
    }

    private mutating func flush() async -> Int32 {
        defer { code = [] }
        guard code.contains(where: { $0.unicodeScalars.contains { !Self.isBlank($0) } }) else { return ExitStatus.success }
        let padding = String(repeating: "\n", count: codeStart)
        let status = await shell.runLoaded(ScriptSource(name: name, text: padding + code.joined(separator: "\n")), intoSession: false)
        if status == ExitStatus.dataError, ranThrough > 0 {
            // "Checked before anything runs" held for this piece only: say what had already run.
            shell.output.error("note: the input arrived in pieces: lines 1–\(ranThrough) had already run (and sent their requests) before line \(codeStart + 1) arrived; nothing from line \(codeStart + 1) on ran\n")
        }
        if status == ExitStatus.success || status == ExitStatus.failure { ranThrough = codeStart + code.count }
        return status
    }
}
