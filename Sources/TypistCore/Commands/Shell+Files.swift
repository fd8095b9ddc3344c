import APIScript
import Foundation
import TypedAPI

/// `:load` and `:save`.
extension Shell {
    func load(_ path: String) async -> Bool {
        guard !path.isEmpty else {
            fail("write :load <file.api>")
            return false
        }
        let expanded = (path as NSString).expandingTildeInPath
        let text: String
        do {
            text = try ScriptFile.read(expanded)
        } catch {
            fail("cannot read '\(path)': \(error)")
            return false
        }
        // Named as typed, as `typist run` names a file: `sub/x.api:2:9`.
        let source = ScriptSource(name: path, text: text)
        return await runLoaded(source, intoSession: true) == ExitStatus.success
    }

    func save(_ path: String) -> Bool {
        guard !path.isEmpty else {
            fail("write :save <file.api>")
            return false
        }
        let text = SessionScript(entries: transcript, secrets: session.knownSecrets).render()
        do {
            try Self.writePrivately(text, to: (path as NSString).expandingTildeInPath)
            write("saved \(transcript.count) input\(transcript.count == 1 ? "" : "s") to \(path)")
            return true
        } catch {
            fail("cannot write '\(path)': \(error)")
            return false
        }
    }

    /// `:secrets FILE`: the session's credentials as `export TYPIST_…='…'` lines, in a file only
    /// its owner can read, for `source FILE` before a `:curl` line. Nothing is printed but names.
    func exportSecrets(_ path: String) -> Bool {
        guard !path.isEmpty else {
            fail("write :secrets <file>: it gets the session's credentials as export lines (mode 0600)")
            return false
        }
        let credentials = session.credentials
        var lines = ["# Written by typist's :secrets. Run `source` on this file, then the :curl line. Keep it private."]
        var names: [String] = []
        func add(_ variable: String, _ value: String?) {
            guard let value, !value.isEmpty, !names.contains(variable) else { return }
            lines.append("export \(variable)=\(CurlCommand.quote(value))")
            names.append(variable)
        }
        add("TYPIST_TOKEN", credentials.token)
        add("TYPIST_API_KEY", credentials.apiKey)
        add("TYPIST_PASSWORD", credentials.password)
        for (name, value) in session.read(\.userHeaders).sorted(by: { $0.key < $1.key }) where Redaction.isSecretHeader(name) {
            add("TYPIST_HEADER_" + SecretNames.screamingSnakeCase(name), value)
        }
        for cookie in session.cookies.cookies() { add("TYPIST_COOKIE_" + SecretNames.screamingSnakeCase(cookie.name), cookie.value) }
        guard !names.isEmpty else {
            write("the session holds no credential to write")
            return true
        }
        do {
            try Self.writePrivately(lines.joined(separator: "\n") + "\n", to: (path as NSString).expandingTildeInPath)
            write("wrote \(names.joined(separator: ", ")) to \(path) (mode 0600); `source \(path)` before running a :curl line")
            return true
        } catch {
            fail("cannot write '\(path)': \(error)")
            return false
        }
    }

    /// Why a private file could not be written, in words.
    /// Writes a file readable by its owner only (0600), also when it already exists; see
    /// `PrivateFile.write(_:to:)` (a failure leaves the old file as it was; only a regular file is
    /// replaced).
    static func writePrivately(_ text: String, to path: String) throws(PrivateFile.Failure) {
        try PrivateFile.write(text.utf8, to: path)
    }
}
