import APIScript
import Foundation
import TypedAPI
import TypistText

/// `:help`: commands, endpoints, types, session properties and the language's built-ins.
extension Shell {
    func help(_ topic: String) -> String {
        let style = TerminalStyle(enabled: colors)
        if topic.isEmpty {
            var lines = [style.bold("Typist") + " — call typed endpoints as functions; navigate results like Swift values.", ""]
            lines.append("  posts().filter { $0.userId == 1 }.map(\\.title)")
            lines.append("  let p = post(id: 1); print(p.title)")
            lines.append("  token = login(user: \"ada\", password: \"lovelace\").token")
            lines.append("")
            lines.append(style.bold("Commands"))
            // A usage longer than the column puts its summary on the next line, as --help does.
            let column = 28
            for command in commandList {
                let usage = "  " + command.usage
                lines.append(usage.count < column + 2 ? usage.padding(toLength: column + 2, withPad: " ", startingAt: 0) + command.summary
                             : usage + "\n" + String(repeating: " ", count: column + 2) + command.summary)
            }
            lines.append("")
            lines.append(sessionHelpLine())
            lines.append("Endpoints: \(registry.endpoints.count) in \(registry.groups.count) groups — :endpoints lists them.")
            lines.append("Untyped: httpGet, httpPost, httpPut, httpPatch, httpDelete, httpHead (\"/path\", query:, headers:, json:, form:, multipart:); "
                + "httpStream(\"/path\") reads an event stream; :model turns JSON into Swift.")
            lines.append("More: :help <endpoint>, :help <Model>, :help String, :help print; topics: "
                + HelpTopic.allCases.map(\.rawValue).joined(separator: ", "))
            return lines.joined(separator: "\n")
        }
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        if let command = MetaCommand.named(name, in: commandTable) {
            let aliases = command.aliases.isEmpty ? "" : "\n  also: " + command.aliases.map { ":" + $0 }.joined(separator: ", ")
            return "\(command.usage)\n  \(command.summary)" + aliases
        }
        if registry.endpoint(named: name) != nil || interpreter.recordTypes[name] != nil {
            return describeText(name) ?? ""
        }
        if let call = Self.untypedCalls.first(where: { $0.name == name }) {
            let hasBody = UntypedRequest.bodyMethods.contains(call.method)
            let body = hasBody ? ", json: Any = nil, form: [String: Any]? = nil, multipart: [String: Any]? = nil" : ""
            let bodyLine = hasBody
                ? "\n  One body at most: json: any value; form: fields, sent form-encoded; multipart: fields and file(\"…\")s, sent as multipart/form-data."
                : ""
            return """
                \(name)(_ path: String, query: [String: String] = [:], headers: [String: String] = [:]\(body), crossOrigin: Bool = false) -> HTTPResult
                  An untyped \(call.method) to a path under baseURL, with the session's headers, cookies and credential
                  (its token, else username and password, else apiKey). Any status is an answer, not an error.
                  A URL on baseURL's origin works as its path; another origin needs crossOrigin: true and gets no credential.\(bodyLine)
                  HTTPResult: status: Int, headers: [String: String], text: String?, json: Any (nil unless JSON), size: Int
                  Then: :model \(name)("/path").json prints Swift models for it; :curl shows the request.
                """
        }
        if name == Self.untypedStreamName {
            return """
                \(name)(_ path: String, query: [String: String] = [:], headers: [String: String] = [:], crossOrigin: Bool = false) -> AsyncThrowingStream<Any, any Error>
                  An untyped GET whose answer is an event stream (text/event-stream) or JSON Lines, with the session's headers,
                  cookies and credential, read as it arrives: each item the JSON its event's data (or its line) is, else its text.
                  For a service whose document does not say it streams, or that has none. At the prompt its items print as
                  they come (Ctrl-C ends it); in a script: for try await item in \(name)("/events") { … }.
                  An answer of another type is read line by line, as curl -N shows it (Kubernetes' watches answer JSON lines
                  as application/json); an error status is an error with its body. :curl shows the request (curl -N).
                """
        }
        if let topic = HelpTopic.named(name) { return topic.text }
        let members = BuiltinHelp.members(ofType: name).map { "\n" + $0 } ?? ""
        if let builtin = BuiltinHelp.text(for: name) { return builtin + (Self.typeHelp[name].map { "\n" + $0 } ?? "") + members }
        if name.hasPrefix(QualifiedName.session + "."), let global = interpreter.global(named: name) {
            return "\(name): \(global.type)\(global.set == nil ? " (read-only)" : "")\n  \(global.summary)"
        }
        if let global = interpreter.global(named: name) {
            return "\(global.name): \(global.type)\(global.set == nil ? " (read-only)" : "")\n  \(global.summary)"
        }
        if let type = Self.typeHelp[name] { return type + members }
        if let entry = TypedAPIHelp.entry(name) {
            // A TypedAPI name the write-ups also use (Endpoint, EndpointKind): both readings.
            return TypedAPIHelp.text(entry) + (moreHelp(name).map { "\n" + $0 } ?? "")
        }
        if let text = moreHelp(name) { return text }
        // A request body's type (`PostDraft`), which `:describe` knows from the endpoints that send it.
        if let text = describeText(name) { return text }
        return "no help on '\(topic)'; try :help, :endpoints, or :describe <name>"
    }

    /// Help a module adds on `name` (the workshop's glossary), if any.
    func moreHelp(_ name: String) -> String? { helpProviders.firstNonNil { $0(name) } }

    /// The language's own types, for `:help Int` and the like (models answer from the registry).
    static let typeHelp: [String: String] = [
        "Int": "Int — a whole number (64 bits); arithmetic that overflows is an error, not a wrap",
        "Double": "Double — a floating-point number",
        "Bool": "Bool — true or false",
        "String": "String — text; \"\\(expression)\" interpolates",
        "Secret": "Secret — text that prints as •••• (token, apiKey, password arguments); use it like a String",
        "Bytes": "Bytes — raw data (an endpoint's or a field's Data): count, b[i] (0…255), prefix, base64, hex, utf8 (String?); prints as <64 bytes: 1f8b08…>",
        "Array": "Array — [T], elements in order: a[0], a.count, for x in a; [Int] and [Post] are checked element by element",
        "Dictionary": "Dictionary — [String: T], values by key: d[\"k\"] (an optional), d.keys, for (k, v) in d",
        "Range": "Range — 0..<n and 1...n, Ints in order: for i in 0..<3, (1...5).map { $0 * 2 }",
        "Any": "Any — a value whose type is known only when it runs (JSON from json(_:)); members are checked then",
    ]

    /// The session's properties as `:help` lists them: each by its bare name, or, where an endpoint
    /// took that name, as `session.name` with a word on which is which.
    func sessionHelpLine() -> String {
        let taken = Set(registry.endpoints.map(\.name))
        func spell(_ name: String) -> String { taken.contains(name) ? "session.\(name)" : name }
        // Each property the session registers, settable or not as it is registered.
        let names = Shell.sessionGlobalOrder.filter { $0 != "_" }
        let settable = names.filter { interpreter.global(named: QualifiedName.session + "." + $0)?.set != nil }
        let readOnly = names.filter { !settable.contains($0) }.map { $0 == "last" ? spell($0) + " (_)" : spell($0) }
        var line = "Session: \(settable.map(spell).joined(separator: ", ")); read-only: \(readOnly.joined(separator: ", "))."
        let shadowed = Shell.sessionGlobalNames.filter(taken.contains).sorted()
        if !shadowed.isEmpty {
            line += "\n  " + shadowed.map { "\($0)(…) is this host's endpoint" }.joined(separator: ", ")
                + "; the session's properties are always session.name too (session.token)."
        } else {
            line += " Each is also session.name (session.token)."
        }
        return line
    }
}
