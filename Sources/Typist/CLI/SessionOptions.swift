import APIScript
import ArgumentParser
import Foundation
import TypedAPI

/// The options shared by the prompt, `run` and `check`; `generate`, `cassette` and `lesson` take
/// only the ones they use (``DocumentOptions``; the workshop's `lesson`, its own).
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

    @Option(name: .customLong("graphql"),
            help: ArgumentHelp("A GraphQL service's URL: its schema read by introspection (with $TYPIST_TOKEN as a bearer token when set), its operations sent there.",
                               valueName: "url"))
    package var graphQL: String?

    @Option(name: .customLong("graphql-schema"),
            help: ArgumentHelp("A GraphQL schema in a file: SDL (.graphql) or a saved introspection answer (.json); operations go to --graphql's URL, else the base URL's /graphql.",
                               valueName: "file"))
    package var graphQLSchema: String?

    @Option(name: .customLong("graphql-operations"),
            help: ArgumentHelp("A .graphql file of named queries and mutations, each a function whose labels are its variables (repeatable).",
                               valueName: "file"))
    package var graphQLOperations: [String] = []

    /// How the document is read and what its operations send: `--openapi-auth`, `--default-auth`, `--server-var`.
    @OptionGroup package var document: DocumentOptions

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

    @Flag(name: .customLong("validate"),
          help: "Read every response a document (--openapi) types against its schema whole: keys it does not declare are warnings, and a response that cannot be typed names every departure.")
    package var validate = false

    @Option(name: .customLong("var"), help: ArgumentHelp("Declare a variable: --var name=value (repeatable).", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: "How results are shown: pretty, json or table.")
    var format: String = "pretty"

    @Option(help: ArgumentHelp("The HTTP transport (default: the host's first; typist has curl and urlsession).",
                               valueName: "name"))
    package var transport: String?

    @Flag(name: .customLong("no-color"), help: "Never use colour (NO_COLOR does the same).")
    package var noColor = false

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

    /// `--openapi-auth`.
    package var openAPIAuth: String? { document.openAPIAuth }
    /// `--default-auth`.
    package var defaultAuth: String? { document.defaultAuth }

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
