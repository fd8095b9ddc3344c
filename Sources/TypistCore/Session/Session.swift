import APIScript
import Foundation
import Synchronization
import TypedAPI

/// The session: what one prompt or script run has learned and holds — credentials, the last result
/// and exchange, the last failure, the chosen environment, headers, cookies, the secrets seen and
/// the TLS sources — shared by the shell, its host functions and the client delegate, each part
/// behind its lock. It knows nothing of the shell that drives it.
///
/// ``Contents`` is what a failed input or a preview puts back as it was; the secrets the session
/// has seen are kept apart and only ever grow, so that an error printed after a rollback is
/// scrubbed of a token the rolled-back input had set.
final class Session: Sendable {
    struct Contents {
        var credentials = SessionCredentials()
        var last: Value = .null
        /// Whether the prompt has had a result (`last` is usable).
        var hasResult = false
        var lastExchange: Exchange?
        /// The last call that failed, for `:explain`; kept when a failed input is rolled back.
        var lastFailure: FailedCall?
        var environmentName: String?
        var userHeaders: [String: String] = [:]
    }

    /// A secret the session has seen, and the environment variable a saved script reads it from.
    struct KnownSecret: Sendable {
        let value: String
        let variable: String
    }

    /// A file `file(_:)` read: the path as the script gave it, for `:curl` to send it from.
    struct ReadFile: Sendable {
        let path: String
        let filename: String
        let size: Int
        let fingerprint: UInt64
    }

    private let contents = Mutex(Contents())
    /// The files read, the latest last (at most 32); never rolled back.
    private let readFiles = Mutex<[ReadFile]>([])
    /// The cookies servers set in this session; never rolled back, never saved.
    let cookies = CookieJar()
    private let secrets = Mutex<[KnownSecret]>([])
    /// The secrets as they were given (trimmed), without their escaped forms: for a cassette,
    /// which works out the forms itself.
    private let givenSecrets = Mutex<[String]>([])
    /// Where the session's TLS options come from; set once as the session starts.
    let tls = Mutex(SessionTLS())
    /// Whether an ``EndpointRegistration/unsecuredNote`` has been said; never rolled back.
    private let notedUnsecured = Atomic<Bool>(false)
    /// Whether the note about a call that sends none of the session's credentials is still to be
    /// said: true once a session, then false.
    func firstUnsecuredNote() -> Bool { !notedUnsecured.exchange(true, ordering: .relaxed) }
    /// Whether responses a document types are validated against it (`--validate`).
    let validatesResponses = Atomic<Bool>(false)
    /// The error text written while a lesson step waits for a refusal; `nil` when nobody listens.
    private let errorTap = Mutex<String?>(nil)

    /// Starts collecting the error text the shell writes.
    func startErrorTap() { errorTap.withLock { $0 = "" } }
    /// Stops collecting and returns what was written.
    func endErrorTap() -> String { errorTap.withLock { tapped in defer { tapped = nil }; return tapped ?? "" } }
    /// Adds error text, when collecting.
    func tapError(_ text: String) { errorTap.withLock { $0?.append(text) } }

    func read<T>(_ body: (Contents) -> T) -> T { contents.withLock { body($0) } }
    func update(_ body: (inout Contents) -> Void) { contents.withLock { body(&$0) } }

    package var credentials: SessionCredentials { read(\.credentials) }

    /// Every secret seen so far, as given (no escaped forms).
    var givenSecretValues: [String] { givenSecrets.withLock { $0 } }

    /// Every secret seen so far, longest first (so a secret inside another is masked as part of it).
    var knownSecrets: [KnownSecret] { secrets.withLock { $0 } }

    /// Replaces every whole occurrence of a secret the session has held with `••••`.
    ///
    /// This is for free text (results, errors, bodies), so it must never change what a server
    /// said: a secret is masked only where its full value stands, in its own letter case, not
    /// inside a longer word (`lovelace` is not masked in `ada-lovelace` or `Lovelace`), and only
    /// when it is at least ``freeTextMinimum`` characters long. Shorter secrets are masked only
    /// where they are credentials: `Secret` values, credential headers and parameters, cookies.
    func scrub(_ text: String) -> String {
        Redaction.masking(knownSecrets.map(\.value), in: text)
    }

    /// Whether a text holds a secret the session has seen.
    func containsSecret(_ text: String) -> Bool {
        knownSecrets.contains { text.range(of: $0.value, options: .caseInsensitive) != nil }
    }

    /// Remembers a file `file(_:)` read, so that `:curl` sends it from its path.
    func remember(upload file: UploadFile, path: String) {
        let read = ReadFile(path: path, filename: file.filename, size: file.data.count, fingerprint: MultipartEncoding.fingerprint(file.data))
        readFiles.withLock { files in
            files.removeAll { $0.path == read.path }
            files.append(read)
            if files.count > 32 { files.removeFirst(files.count - 32) }
        }
    }

    /// The file read with this name and these bytes, the latest first; nil when none was.
    func readFile(named filename: String?, data: Data) -> ReadFile? {
        let fingerprint = MultipartEncoding.fingerprint(data)
        return readFiles.withLock { files in
            files.last { (filename == nil || $0.filename == filename) && $0.size == data.count && $0.fingerprint == fingerprint }
        }
    }

    /// Remembers the values under secret names (`password`, `client_secret`, `api_key`) in the
    /// dictionaries of a call's argument — a form typed as a dictionary, a JSON body written as a
    /// literal, an untyped call's `json:`, `form:` or `query:` — as a labelled `password:` is.
    ///
    /// - Parameter isSecret: Which keys name a credential: by default any with a credential's word
    ///   (an untyped call's, a host's); for a document's argument only a password's or secret's
    ///   (``TypedAPI/Redaction/namesPasswordOrSecret(_:)``), as its own parameters.
    func rememberSecrets(inFieldsOf value: Value, isSecret: (String) -> Bool = Redaction.isSecretHeader, depth: Int = 0) {
        guard depth < 16 else { return }
        switch value {
        case .dictionary(let entries):
            for (key, entry) in entries {
                switch entry {
                case .string(let text), .secret(let text):
                    if isSecret(key) { remember(secret: text, as: "TYPIST_" + SecretNames.screamingSnakeCase(key)) }
                default:
                    rememberSecrets(inFieldsOf: entry, isSecret: isSecret, depth: depth + 1)
                }
            }
        case .array(let elements):
            for element in elements { rememberSecrets(inFieldsOf: element, isSecret: isSecret, depth: depth + 1) }
        default:
            break
        }
    }

    /// Remembers a secret so it is scrubbed from everything written, from then on, even after a
    /// rollback or once it is replaced. Values shorter than 4 characters are not masked (they
    /// would mask ordinary text).
    ///
    /// - Parameter variable: The environment variable a saved script reads it from.
    func remember(secret: String?, as variable: String) {
        guard let secret else { return }
        // Header values are sent without surrounding white space (a pasted token's `\r\n`): what
        // is sent is masked too.
        let sent = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard sent.count >= 4 else { return }
        // Also as it appears escaped: in a JSON body (`"it's \"x\""`) and in a URL (`a%20b`).
        givenSecrets.withLock { given in if !given.contains(sent) { given.append(sent) } }
        let forms = Set(Redaction.writtenForms(of: secret) + Redaction.writtenForms(of: sent))
        secrets.withLock { known in
            for form in forms where !known.contains(where: { $0.value == form }) {
                known.append(KnownSecret(value: form, variable: variable))
            }
            known.sort { $0.value.count > $1.value.count }
        }
    }
}
