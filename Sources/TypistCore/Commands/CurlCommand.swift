import Foundation
import TypedAPI

/// A prepared request as a curl command that runs, with no secret in it: each secret the
/// session knows is read from the environment variable `:save` also uses for it
/// (`"Authorization: Bearer ${TYPIST_TOKEN}"`, `-u "ada:${TYPIST_PASSWORD}"`), and a secret header
/// the session knows nothing of from `TYPIST_HEADER_<NAME>`. `:secrets FILE` writes those variables
/// for `source FILE`.
enum CurlCommand {
    /// The command and the environment variables it reads, in order of first use.
    struct Rendered {
        var text: String
        var variables: [String]
    }

    /// The file `file(_:)` read that a part or body came from (by its name, when it has one, and
    /// its bytes), so that curl sends it from its path.
    typealias FileLookup = (_ filename: String?, _ data: Data) -> Session.ReadFile?

    static func render(_ request: PreparedRequest, secrets: [Session.KnownSecret], files: FileLookup = { _, _ in nil }) -> Rendered {
        var variables: [String] = []
        func argument(_ text: String, wholeValueVariable: String? = nil, prefix: String = "") -> String {
            var pieces = substitute(text, secrets)
            if let wholeValueVariable, !pieces.contains(where: \.isVariable) {
                pieces = [.init(text: wholeValueVariable, isVariable: true)]
            }
            pieces.insert(.init(text: prefix, isVariable: false), at: 0)
            for piece in pieces where piece.isVariable && !variables.contains(piece.text) { variables.append(piece.text) }
            return quote(pieces)
        }
        var parts = ["curl"]
        var comments: [String] = []
        // A stream's items show as they arrive, not when curl's buffer fills.
        if request.asksForStream { parts.append("-N") }
        if request.method != "GET" { parts.append("-X \(request.method)") }
        // A query value that holds a secret goes by `--url-query`, which curl percent-encodes:
        // `${TYPIST_API_KEY}` written into the URL would send a `+`, `&` or `=` in it raw.
        let (url, secretQuery) = splitSecretQuery(request.url, secrets: secrets)
        parts.append(argument(url))
        for (name, value) in secretQuery { parts.append("--url-query " + argument(name + "=" + value)) }
        // The session's TLS options, as curl's own — for an https URL only: a plain http one has
        // no use for them (curl ignores them there), and they would print this machine's paths.
        let tls = request.environment.scheme.lowercased() == "https" ? request.environment.tls : .system
        func path(_ text: String) -> String { quote([Piece(text: text, isVariable: false)]) }
        if let bundle = tls.certificateAuthorities { parts.append("--cacert " + path(bundle)) }
        if let certificate = tls.clientCertificate { parts.append("--cert " + path(certificate)) }
        if let key = tls.clientKey { parts.append("--key " + path(key)) }
        if !tls.verifiesServer { parts.append("--insecure") }
        let contentType = request.headers.value(named: "Content-Type") ?? ""
        let multipart = MultipartEncoding.boundary(inContentType: contentType).flatMap { MultipartEncoding.parts(of: request.body ?? Data(), boundary: $0) }
        for (name, value) in request.sentHeaders.map({ ($0.name, $0.value) }) {
            // curl writes a multipart body's type itself, with its own boundary.
            if multipart != nil, name.lowercased() == "content-type" { continue }
            // HTTP Basic as curl users write it, the password read from the variable `:save` uses.
            if name.lowercased() == "authorization", let (user, password) = basicCredentials(value) {
                var pieces = substitute(password, secrets)
                if !pieces.contains(where: \.isVariable) { pieces = [.init(text: "TYPIST_PASSWORD", isVariable: true)] }
                pieces.insert(.init(text: user + ":", isVariable: false), at: 0)
                for piece in pieces where piece.isVariable && !variables.contains(piece.text) { variables.append(piece.text) }
                parts.append("-u " + quote(pieces))
                continue
            }
            let fallback = request.isSensitive(header: name) ? "TYPIST_HEADER_" + SecretNames.screamingSnakeCase(name) : nil
            parts.append("-H " + argument(value, wholeValueVariable: fallback, prefix: "\(name): "))
        }
        if let multipart {
            // Each field as curl sends it: text as it is (`--form-string`), a file from its path.
            for part in multipart {
                if let filename = part.filename {
                    let path = files(filename, part.data)?.path
                    var spec = part.name + "=@" + formQuoted(path ?? filename)
                    if let path, (path as NSString).lastPathComponent != filename { spec += ";filename=" + formQuoted(filename) }
                    if let type = part.contentType { spec += ";type=" + type }
                    parts.append("-F " + argument(spec))
                } else if let type = part.contentType {
                    parts.append("-F " + argument(part.name + "=" + formQuoted(String(decoding: part.data, as: UTF8.self)) + ";type=" + type))
                } else {
                    parts.append("--form-string " + argument(part.name + "=" + String(decoding: part.data, as: UTF8.self)))
                }
            }
        } else if let body = request.body, !body.isEmpty {
            let text = String(decoding: body, as: UTF8.self)
            // A form's fields each as curl encodes them, so a secret read from the environment is
            // encoded too (`--data-raw "password=${TYPIST_PASSWORD}"` would send its `&` raw).
            let isForm = contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
            if isForm, let fields = formFields(text) {
                parts += fields.map { "--data-urlencode " + argument($0.name + "=" + $0.value) }
            } else if let file = files(nil, body) {
                // A file's bytes, from the file.
                parts.append("--data-binary " + argument("@" + file.path))
            } else if String(data: body, encoding: .utf8) == nil {
                // Bytes that are not text cannot be written into a command.
                comments.append("# the body is \(body.count) bytes that are not text: give them on standard input")
                parts.append("--data-binary @-")
            } else {
                parts.append("--data-raw " + argument(text))
            }
        }
        return Rendered(text: (comments + [parts.joined(separator: " \\\n  ")]).joined(separator: "\n"), variables: variables)
    }

    /// The URL without the query items whose values hold a known secret, and those items (each
    /// name as the URL writes it, each value decoded), in order.
    static func splitSecretQuery(_ url: String, secrets: [Session.KnownSecret]) -> (url: String, items: [(String, String)]) {
        guard !secrets.isEmpty, let mark = url.firstIndex(of: "?") else { return (url, []) }
        let fragmentStart = url[mark...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: mark)..<fragmentStart]
        var kept: [Substring] = []
        var moved: [(String, String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, let value = String(parts[1]).removingPercentEncoding,
               substitute(value, secrets).contains(where: \.isVariable) {
                moved.append((String(parts[0]), value))
            } else {
                kept.append(pair)
            }
        }
        guard !moved.isEmpty else { return (url, []) }
        let base = String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + url[fragmentStart...]
        return (base, moved)
    }

    /// A form body's fields: each name escaped (curl sends it as it is), each value decoded (a
    /// `+` is a space in a form); nil when an escape is broken.
    static func formFields(_ body: String) -> [(name: String, value: String)]? {
        QueryEncoding.parse(body.replacingOccurrences(of: "+", with: "%20"))?
            .map { (QueryEncoding.escape($0.name), $0.value ?? "") }
    }

    /// A value of `-F` in double quotes, as curl reads them: `;` and `,` inside are the value's.
    static func formQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The user and password of an `Authorization: Basic …` value.
    static func basicCredentials(_ value: String) -> (user: String, password: String)? {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// Several requests, in the order an expression sends them, with a line that names the
    /// variables they read and, for more than one, how many there are.
    static func render(_ requests: [PreparedRequest], secrets: [Session.KnownSecret], files: FileLookup = { _, _ in nil },
                       perElement: Bool = false) -> String {
        let rendered = requests.map { render($0, secrets: secrets, files: files) }
        var lines: [String] = []
        if requests.count > 1 { lines.append("# \(requests.count) requests, in the order the expression sends them") }
        if perElement {
            lines.append("# a call made for each element of an answer is shown once, for a placeholder element")
            lines.append("# (its arguments are placeholders too): the real run makes one per element")
        }
        var variables: [String] = []
        for name in rendered.flatMap(\.variables) where !variables.contains(name) { variables.append(name) }
        if !variables.isEmpty {
            lines.append("# reads " + variables.map { "$" + $0 }.joined(separator: ", ") + " from the environment (export \(variables.count == 1 ? "it" : "them") first)")
        }
        return (lines + rendered.map(\.text)).joined(separator: "\n")
    }

    struct Piece {
        var text: String
        var isVariable: Bool
    }

    /// `text` cut where a known secret stands, each secret becoming its variable.
    static func substitute(_ text: String, _ secrets: [Session.KnownSecret]) -> [Piece] {
        var pieces = [Piece(text: text, isVariable: false)]
        for secret in secrets {  // longest first, so a secret inside another goes as part of it
            pieces = pieces.flatMap { piece -> [Piece] in
                guard !piece.isVariable, piece.text.contains(secret.value) else { return [piece] }
                var result: [Piece] = []
                for (index, part) in piece.text.components(separatedBy: secret.value).enumerated() {
                    if index > 0 { result.append(Piece(text: secret.variable, isVariable: true)) }
                    if !part.isEmpty { result.append(Piece(text: part, isVariable: false)) }
                }
                return result
            }
        }
        return pieces
    }

    /// Single quotes for a POSIX shell, or double quotes with `${NAME}` where a variable stands.
    static func quote(_ pieces: [Piece]) -> String {
        guard pieces.contains(where: \.isVariable) else { return quote(pieces.map(\.text).joined()) }
        var text = "\""
        for piece in pieces {
            if piece.isVariable {
                text += "${\(piece.text)}"
            } else {
                for character in piece.text {
                    if "\\\"$`".contains(character) { text += "\\" }
                    text.append(character)
                }
            }
        }
        return text + "\""
    }

    /// Single quotes for a POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
