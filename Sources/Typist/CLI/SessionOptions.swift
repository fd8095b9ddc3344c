import APIScript
import ArgumentParser
import Foundation
import TypedAPI

/// The options shared by the prompt, `run` and `check`.
package struct SessionOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("base-url"), help: "Where requests go (default: the configured environment, or the built-in service).")
    var baseURL: String?

    @Option(name: .customLong("env"), help: "A named environment from typist.json.")
    var environment: String?

    @Option(name: .customLong("openapi"),
            help: ArgumentHelp("Endpoints from an OpenAPI document: a file or an http(s) URL, YAML or JSON, OpenAPI 3.0, 3.1 or Swagger 2.0. Requests go to its first server unless --base-url or --env says otherwise.",
                               valueName: "spec"))
    package var openAPI: String?

    @Option(name: .customLong("openapi-auth"),
            help: ArgumentHelp("Fetch a document URL (--openapi) with a credential from the environment, sent to its origin only: bearer ($TYPIST_TOKEN), basic:USER ($TYPIST_PASSWORD), apikey:header:NAME or apikey:query:NAME ($TYPIST_API_KEY).",
                               valueName: "kind"))
    package var openAPIAuth: String?

    /// What `--openapi-auth` sends, its secret read from the environment (never from the command
    /// line, where `ps` shows it); nil without the option.
    package func documentCredential(environment: [String: String]) throws -> DocumentCredential? {
        guard let kind = openAPIAuth else { return nil }
        let variables = ["token": "TYPIST_TOKEN", "password": "TYPIST_PASSWORD", "apiKey": "TYPIST_API_KEY"]
        do {
            return try DocumentCredential.parse(kind, secret: { variables[$0].flatMap { environment[$0] } }, missing: { name in
                "\(kind) sends $\(variables[name] ?? name), which is not set: export it first"
            })
        } catch {
            throw ValidationError("--openapi-auth: \(error)")
        }
    }

    @Option(name: .customLong("default-auth"),
            help: ArgumentHelp("What a document's operations send when it declares no security: bearer (token), basic (username and password), apikey:header:NAME, apikey:query:NAME or apikey:cookie:NAME (apiKey).",
                               valueName: "kind"))
    package var defaultAuth: String?

    @Option(name: .customLong("cassette"),
            help: ArgumentHelp("Record this session's exchanges into a HAR file, or replay them from it with no network (secrets are masked in the file).",
                               valueName: "file.har"))
    package var cassette: String?

    @Option(name: .customLong("record-mode"),
            help: ArgumentHelp("With --cassette: once (record if the file is missing, else replay only), new (replay what matches, record the rest), none (replay only), all (record again). Default: none when CI is set, else once.",
                               valueName: "mode"))
    package var recordMode: String?

    @Option(name: .customLong("match"),
            help: ArgumentHelp("With --cassette: what a request must share with a recorded one, from method, host, path, query, body (default: method,path,query,body).",
                               valueName: "parts"))
    var match: String?

    @Option(name: .customLong("server-var"),
            help: ArgumentHelp("A value for a variable of the document's server URLs (https://{hostname}/api/v3): --server-var hostname=github.example.com (repeatable).",
                               valueName: "name=value"))
    package var serverVariables: [String] = []

    /// `--server-var`s as a dictionary; one without `=` is an error that says how to write it.
    package func serverVariableValues() throws -> [String: String] {
        try Self.nameValuePairs(serverVariables, option: "--server-var")
    }

    /// `name=value` words as a dictionary.
    package static func nameValuePairs(_ words: [String], option: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for word in words {
            guard let (name, value) = nameValuePair(word) else {
                throw ValidationError("\(option) takes name=value, such as \(option) hostname=github.example.com; not '\(word)'")
            }
            values[name] = value
        }
        return values
    }

    /// `name=value` split at its first `=`; `nil` without one, or with no name before it.
    package static func nameValuePair(_ word: String) -> (name: String, value: String)? {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return nil }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    @Flag(name: .customLong("validate"),
          help: "Read every response a document (--openapi) types against its schema whole: keys it does not declare are warnings, and a response that cannot be typed names every departure.")
    package var validate = false

    @Option(name: .customLong("var"), help: ArgumentHelp("Declare a variable: --var name=value (repeatable).", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: "How results are shown: pretty, json or table.")
    var format: String = "pretty"

    @Option(help: ArgumentHelp("The HTTP transport (default: the host's first; typist has curl and urlsession).",
                               valueName: "name"))
    var transport: String?

    @Flag(name: .customLong("no-color"), help: "Never use colour (NO_COLOR does the same).")
    var noColor = false

    @Option(name: .customLong("cacert"),
            help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's: a private CA, a self-signed server (CURL_CA_BUNDLE or SSL_CERT_FILE do the same).",
                               valueName: "file"))
    var caBundle: String?

    @Option(name: .customLong("cert"),
            help: ArgumentHelp("Present this client certificate (PEM) to a server that asks for one (mutual TLS).", valueName: "file"))
    var clientCertificate: String?

    @Option(name: .customLong("key"),
            help: ArgumentHelp("The client certificate's private key (PEM), when it is not in the --cert file.", valueName: "file"))
    var clientKey: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")],
          help: "Do not check the server's certificate (a warning says so whenever it is in effect; never with real credentials).")
    var insecure = false

    /// The cassette options, read: the file, the mode and what is matched; nil without `--cassette`.
    func cassetteSettings() throws(ShellCommandLine.StartFailure)
        -> (path: String, mode: CassetteTransport.Mode, matching: CassetteMatching?)?
    {
        guard let cassette else {
            if recordMode != nil || match != nil {
                throw ShellCommandLine.StartFailure(message: "--record-mode and --match go with --cassette FILE")
            }
            return nil
        }
        var mode = CassetteTransport.Mode.default()
        if let recordMode {
            guard let named = CassetteTransport.Mode(rawValue: recordMode) else {
                throw ShellCommandLine.StartFailure(message: "unknown record mode " + recordMode + "; choose once, new, none or all")
            }
            mode = named
        }
        var matching: CassetteMatching?
        if let match {
            switch CassetteMatching.parse(match) {
            case .success(let parts): matching = parts
            case .failure(let error): throw ShellCommandLine.StartFailure(message: error.reason)
            }
        }
        return (cassette, mode, matching)
    }

    /// The TLS options given here, relative paths made absolute against the current directory.
    var tls: TLSOptions {
        func absolute(_ path: String?) -> String? {
            guard let path else { return nil }
            let expanded = (path as NSString).expandingTildeInPath
            return expanded.hasPrefix("/") ? expanded
                : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        }
        return TLSOptions(certificateAuthorities: absolute(caBundle), clientCertificate: absolute(clientCertificate),
                          clientKey: absolute(clientKey), verifiesServer: !insecure)
    }
}
