import APIScript

/// One of the prompt's own commands, `:name argument`: everything about it in one place — its
/// names, what its argument is (for completion), its usage and help, and what it does.
package struct MetaCommand: Sendable {
    /// What a command's argument is, so Tab can offer the right things.
    package enum Argument: Sendable {
        case none
        /// A help topic: a command, an endpoint, a model or a built-in.
        case topic
        /// An endpoint or a model type.
        case endpointOrType
        /// An expression of the language.
        case expression
        /// A file path; `extensions` limits the files offered (directories are always offered).
        case file(extensions: [String])
        /// A configured environment.
        case environment
        /// One of fixed words.
        case choice([String])
        /// Free text, nothing to offer.
        case text
    }

    let name: String
    let aliases: [String]
    let usage: String
    let summary: String
    let argument: Argument
    /// Whether ``InputObserver``s hear of it (not the lesson walk's own `:lesson`, `:next`, `:back`).
    let isObserved: Bool
    /// Whether it reads from the terminal itself (`:token`'s hidden input), so it is not run as an
    /// operation Ctrl-C cancels: the read hears Ctrl-C.
    var readsTerminal: Bool { name == "token" }
    /// Runs the command with its argument (trimmed); `false` when it failed.
    let run: @Sendable (Shell, String) async -> Bool

    package init(_ name: String, aliases: [String] = [], usage: String, _ summary: String, argument: Argument = .none,
                 isObserved: Bool = true, run: @escaping @Sendable (Shell, String) async -> Bool) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.argument = argument
        self.isObserved = isObserved
        self.run = run
    }

    /// The core's commands, in the order `:help` lists them.
    static let all: [MetaCommand] = [
        MetaCommand("help", aliases: ["h", "?"], usage: ":help [topic]",
                    "overview, or help on a command, endpoint, type or built-in", argument: .topic) { shell, topic in
            shell.writeOwnText(shell.help(topic))
            return true
        },
        MetaCommand("endpoints", usage: ":endpoints", "every endpoint with its Swift signature, method and path") { shell, _ in
            shell.write(shell.endpointsListing())
            return true
        },
        MetaCommand("describe", usage: ":describe name", "an endpoint's signature, request and response; or a model's fields",
                    argument: .endpointOrType) { shell, name in shell.describe(name) },
        MetaCommand("type", usage: ":type expr", "the static type of an expression, nothing sent",
                    argument: .expression) { shell, text in shell.typeCommand(text) },
        MetaCommand("curl", usage: ":curl expr", "the request(s) an expression would send, as curl commands, nothing sent",
                    argument: .expression) { shell, text in await shell.curl(text) },
        MetaCommand("swift", usage: ":swift [--publisher] expr", "the same call written with the typed client, as in an app (--publisher: as a Combine publisher)",
                    argument: .expression) { shell, text in await shell.swift(text) },
        MetaCommand("source", usage: ":source name", "the Swift an endpoint or model is declared with: registration, factory, model",
                    argument: .endpointOrType) { shell, text in shell.source(text) },
        MetaCommand("model", usage: ":model [Name =] expr", "Decodable Swift structs for a JSON value, such as an untyped call's json",
                    argument: .expression) { shell, text in await shell.model(text) },
        MetaCommand("last", usage: ":last", "the last request and response, headers included, secrets redacted") { shell, _ in
            shell.write(shell.lastExchange())
            return true
        },
        MetaCommand("base", usage: ":base [url]", "show or set the base URL", argument: .text) { shell, url in shell.base(url) },
        MetaCommand("token", usage: ":token [value]", "show or set the token (asked for without echo when no value is given)",
                    argument: .text) { shell, value in await shell.token(value) },
        MetaCommand("env", usage: ":env [name]", "list the environments, or switch to one",
                    argument: .environment) { shell, name in await shell.environment(name) },
        MetaCommand("cookies", usage: ":cookies", "the cookies servers have set, values redacted; `cookies = [:]` clears them") { shell, _ in
            shell.write(shell.cookiesListing())
            return true
        },
        MetaCommand("vars", usage: ":vars", "the names bound in this session with their types") { shell, _ in
            shell.write(shell.variablesListing())
            return true
        },
        MetaCommand("history", usage: ":history [N | search word]", "the last N inputs (20 by default), or those containing a word",
                    argument: .text) { shell, text in shell.historyCommand(text) },
        MetaCommand("clear", usage: ":clear", "clear the screen (Ctrl-L clears it while typing)") { shell, _ in
            shell.lineSource?.clearScreen()
            return true
        },
        MetaCommand("load", usage: ":load file.api", "run a script into this session",
                    argument: .file(extensions: ["api"])) { shell, path in await shell.load(path) },
        MetaCommand("save", usage: ":save file.api", "save this session's successful inputs as a script (secrets left out)",
                    argument: .file(extensions: ["api"])) { shell, path in shell.save(path) },
        MetaCommand("record", usage: ":record [file.har | stop]", "record this session's exchanges into a HAR cassette (secrets masked); stop writes it",
                    argument: .file(extensions: ["har"])) { shell, argument in shell.recordCommand(argument) },
        MetaCommand("secrets", usage: ":secrets file", "write the session's credentials as `export TYPIST_…` lines (mode 0600) for a :curl line",
                    argument: .file(extensions: [])) { shell, path in shell.exportSecrets(path) },
        MetaCommand("format", usage: ":format pretty|json|table", "how results are shown",
                    argument: .choice(OutputFormat.allCases.map(\.rawValue))) { shell, name in shell.setFormat(name) },
        MetaCommand("quit", aliases: ["q", "exit"], usage: ":quit", "leave (Ctrl-D does too)") { shell, _ in
            shell.wantsToQuit = true
            return true
        },
    ]

    /// The command a name or alias stands for, among `commands`.
    static func named(_ name: String, in commands: [MetaCommand]) -> MetaCommand? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }
}
