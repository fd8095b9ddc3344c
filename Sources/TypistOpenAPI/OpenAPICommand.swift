import APIScript
import Foundation
import TypistCore
import TypedAPI
import TypistText

/// `:openapi SPEC [--server URL|session] [--default-auth KIND] [--auth KIND]`: a document's
/// operations added to the session at the prompt, beside what it has, calling the document's
/// server (or `--server`'s; `session` for the session's base URL) while the session's own
/// endpoints keep theirs. `--auth` fetches a URL with one of the session's credentials.
enum OpenAPICommand {
    static let command = MetaCommand(
        "openapi", usage: ":openapi spec [--server url|session] [--default-auth kind] [--auth kind] [--server-var name=value …]",
        "add an OpenAPI document's operations (a file or an http(s) URL) to this session", argument: .file(extensions: ["yaml", "yml", "json"])
    ) { shell, text in
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let defaultAuth: String?
        var credential: DocumentCredential?
        let chosenServer: String?
        let serverVariables: [String: String]
        do {
            defaultAuth = try take("--default-auth", from: &words,
                                   missing: "--default-auth needs a kind: bearer, basic, none or apikey:header|query|cookie:NAME")
            if let kind = try take("--auth", from: &words,
                                   missing: "--auth needs a kind: \(DocumentCredential.spellings), sent with the session's token, password or API key") {
                let credentials = shell.credentials
                let secrets = ["token": credentials.token, "password": credentials.password, "apiKey": credentials.apiKey]
                credential = try DocumentCredential.parse(kind, username: credentials.username, secret: { secrets[$0] ?? nil },
                                                          missing: { "--auth \(kind) sends the session's \($0), and it has none: set \($0) = … first" })
            }
            chosenServer = try take("--server", from: &words,
                                    missing: "--server needs a URL: where the document's operations go (\"session\" for the session's base URL)")
            var pairs: [String] = []
            while let index = words.firstIndex(of: "--server-var") {
                pairs.append(index + 1 < words.count ? words[index + 1] : "")
                words.removeSubrange(index...min(index + 1, words.count - 1))
            }
            serverVariables = try NameValuePairs.parse(pairs, option: "--server-var")
        } catch {
            shell.fail("\(error)")
            return false
        }
        guard words.count == 1, let location = words.first else {
            shell.fail("write :openapi <file or URL> [--default-auth kind], such as :openapi petstore.yaml")
            return false
        }
        let document: OpenAPIDocument
        do {
            // Through the session's transport and TLS options, within one time limit; Ctrl-C cancels it.
            document = try await OpenAPIDocument.load(location, defaultAuth: defaultAuth, serverVariables: serverVariables,
                                                      transport: shell.documentTransport, tls: shell.client.environment.tls,
                                                      credential: credential)
        } catch is CancellationError {
            shell.fail("cancelled: \(OpenAPIDocument.shown(location)) was not read; the session is as it was")
            return false
        } catch {
            let shown = OpenAPIDocument.shown(location)
            let text = String(describing: error)
            shell.fail(text.contains(shown) ? text : "cannot read \(shown): \(text)")
            return false
        }
        // Where the operations go: the document's (first) server, which is what its load names,
        // unless `--server` says another or "session" (the session's base URL, followed as it changes).
        let session = shell.client.environment
        var server: ServerEnvironment?
        switch chosenServer ?? document.servers.first {
        case nil, "session"?: server = nil
        case let url?:
            do {
                var environment = try ServerEnvironment(name: document.title, url: url)
                environment.tls = session.tls
                server = environment.baseURL == session.baseURL ? nil : environment
            } catch {
                shell.fail("--server \(TerminalText.sanitized(url)): \(error)")
                return false
            }
        }
        do {
            let (added, warnings) = try shell.addEndpoints(document.registrations, server: server)
            let all = document.warnings + warnings
            for warning in all.prefix(10) { shell.write("warning: \(warning)") }
            if all.count > 10 { shell.write("warning: and \(all.count - 10) more like these (:endpoints lists every function by its name)") }
            let servers = document.servers.count > 1 ? " (its servers: " + document.servers.joined(separator: ", ") + ")" : ""
            let destination = server.map { "they call \($0.baseURL)\(servers); --server URL for another, --server session for the session's" }
                ?? (document.servers.isEmpty && chosenServer == nil ? "it names no server: they call the session's, \(session.baseURL)"
                    : "they call the session's base URL, \(session.baseURL)")
            shell.write("\(added.count) endpoints from \(document.title) (:endpoints lists them); \(destination)")
            return true
        } catch {
            shell.fail("cannot use \(OpenAPIDocument.shown(location)): \(error)")
            return false
        }
    }

    /// The word after `option` in `words`, both taken out; nil when `option` is not there.
    ///
    /// - Throws: `missing`, in words, when `option` is the last word.
    private static func take(_ option: String, from words: inout [String], missing: String) throws(OptionValueMissing) -> String? {
        guard let index = words.firstIndex(of: option) else { return nil }
        guard index + 1 < words.count else { throw OptionValueMissing(description: missing) }
        defer { words.removeSubrange(index...(index + 1)) }
        return words[index + 1]
    }

    /// An option written without its value.
    private struct OptionValueMissing: Error, CustomStringConvertible {
        var description: String
    }
}
