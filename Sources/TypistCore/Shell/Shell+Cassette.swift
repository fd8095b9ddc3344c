import Foundation
import TypedAPI

/// Record and replay: the session's exchanges into a HAR cassette, or answered from one.
extension Shell {
    /// The cassette the session records into or replays from, if any.
    package var cassette: CassetteTransport? { sessionTransport.cassette }

    /// Records into or replays from the HAR file at `path` from now on (`--cassette`).
    ///
    /// - Parameters:
    ///   - path: The cassette.
    ///   - mode: When to record and when to replay.
    ///   - matching: What a request must share with a recorded one; nil for the file's own setting.
    /// - Throws: ``CassetteError`` when the file cannot be read.
    package func useCassette(_ path: String, mode: CassetteTransport.Mode, matching: CassetteMatching? = nil) throws(CassetteError) {
        sessionTransport.cassette = try Self.cassetteTransport(path, mode: mode, matching: matching, forwardingTo: sessionTransport.base)
    }

    /// Records into or replays from `cassette`, one made before the shell (with
    /// ``cassetteTransport(_:mode:matching:forwardingTo:)``, forwarding to the shell's transport)
    /// that has already carried an exchange: the document a session starts from.
    package func useCassette(_ cassette: CassetteTransport) {
        sessionTransport.cassette = cassette
    }

    /// The cassette at `path` (`~` expanded), forwarding what it does not answer to `live`.
    package static func cassetteTransport(_ path: String, mode: CassetteTransport.Mode, matching: CassetteMatching?,
                                          forwardingTo live: any HTTPTransport) throws(CassetteError) -> CassetteTransport {
        try CassetteTransport(path: (path as NSString).expandingTildeInPath, mode: mode, matching: matching, forwardingTo: live,
                              creator: ("Typist", TypistVersion.current))
    }

    /// Writes what the cassette recorded since it was last written, with every secret the session
    /// has seen masked; an error is written, and `false` returned, when the file cannot be.
    @discardableResult
    package func saveCassette() -> Bool {
        guard let cassette, cassette.records else { return true }
        let credentials = session.credentials
        cassette.addSecrets(session.givenSecretValues + [credentials.token, credentials.apiKey, credentials.password].compactMap { $0 })
        do {
            try cassette.save()
            return true
        } catch {
            fail("\(error)")
            return false
        }
    }

    /// Writes what the cassette recorded for the last time and lets another program record into
    /// its file: the session is ending.
    @discardableResult
    package func finishCassette() -> Bool {
        let saved = saveCassette()
        cassette?.close()
        return saved
    }

    /// `:record FILE` records every exchange from now on into FILE (replacing what it held);
    /// `:record stop` writes it and stops; `:record` alone says what is recorded where.
    func recordCommand(_ argument: String) -> Bool {
        switch argument {
        case "":
            guard let cassette else {
                write("not recording; :record FILE.har records this session's exchanges")
                return true
            }
            let what = cassette.records ? "recording (mode \(cassette.mode.rawValue))" : "replaying"
            write("\(what) \(cassette.path): \(cassette.recordedExchanges.count) exchange(s) recorded in this session")
            return true
        case "stop":
            guard let cassette else {
                fail("not recording")
                return false
            }
            guard finishCassette() else { return false }
            sessionTransport.cassette = nil
            write("stopped; \(cassette.recordedExchanges.count) exchange(s) in \(cassette.path)")
            return true
        default:
            if cassette != nil, !saveCassette() { return false }
            do {
                try useCassette(argument, mode: .all)
            } catch {
                fail("\(error)")
                return false
            }
            write("recording into \(argument) (secrets are masked; :record stop writes it)")
            return true
        }
    }
}
