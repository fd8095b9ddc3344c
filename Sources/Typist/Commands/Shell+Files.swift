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
        guard let text = try? String(contentsOfFile: expanded, encoding: .utf8) else {
            fail("cannot read '\(path)'")
            return false
        }
        let source = ScriptSource(name: (expanded as NSString).lastPathComponent, text: text)
        return await runLoaded(source, intoSession: true) == ExitStatus.success
    }

    func save(_ path: String) -> Bool {
        guard !path.isEmpty else {
            fail("write :save <file.api>")
            return false
        }
        let text = SessionScript(entries: transcript, secrets: state.knownSecrets).render()
        do {
            try Self.writePrivately(text, to: (path as NSString).expandingTildeInPath)
            write("saved \(transcript.count) input\(transcript.count == 1 ? "" : "s") to \(path)")
            return true
        } catch {
            fail("cannot write '\(path)': \(error)")
            return false
        }
    }

    /// Writes a file readable by its owner only (0600), also when it already exists.
    static func writePrivately(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }
}
