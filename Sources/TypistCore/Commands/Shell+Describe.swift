import APIScript
import Foundation
import TypedAPI

/// `:endpoints`, `:describe`, `:type` and `:vars`: what the session offers, from the types.
extension Shell {
    func endpointsListing() -> String {
        let style = TerminalStyle(enabled: colors)
        var lines: [String] = []
        for group in registry.groups {
            lines.append(style.bold(group))
            for endpoint in registry.endpoints where endpoint.group == group {
                let route = (routeTemplate(endpoint).map { "  \(style.dim($0))" } ?? "") + (endpoint.streams ? "  " + style.dim("(stream)") : "")
                lines.append("  " + endpoint.swiftSignature + route)
                if !endpoint.summary.isEmpty { lines.append("      " + style.dim(endpoint.summary)) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `GET /posts/{id}`, found by building the endpoint with recognisable argument values.
    func routeTemplate(_ endpoint: EndpointRegistration) -> String? { routeProbe(endpoint)?.text }

    /// The request line with a placeholder for every parameter, and the plan it came from.
    ///
    /// Parameters whose values can be recognised (numbers, strings) get marker values that are
    /// then replaced by `{name}`. Those that cannot (a `Bool`, an enum's cases) are found by
    /// difference: the endpoint is built again with another value for just that parameter, and
    /// the query items that change are its own.
    func routeProbe(_ endpoint: EndpointRegistration) -> (text: String, plan: CallPlan, headers: [String])? {
        var values: [Value] = []
        var probes: [(String, String)] = []
        var alternatives: [(index: Int, value: Value)] = []
        for (index, parameter) in endpoint.parameters.enumerated() {
            let value: Value
            if let choices = parameter.choices?.filter({ !$0.isNull }), let first = choices.first {
                value = first
                alternatives.append((index, choices.dropFirst().first ?? .null))
            } else if parameter.scriptType.unwrapped == .bool {
                value = .bool(true)
                alternatives.append((index, .bool(false)))
            } else {
                value = ProbeValues.value(for: parameter.scriptType, index: index)
                probes.append((ValueFormatter.description(value), "{\(parameter.name)}"))
            }
            values.append(value)
        }
        // A value the parameter's type rejects is replaced by its default, nil, or a UUID, in turn.
        var plan: CallPlan?
        for _ in 0...values.count {
            do {
                plan = try endpoint.plan(values)
                break
            } catch let error as ArgumentError where error.index < values.count {
                let parameter = endpoint.parameters[error.index]
                if let defaultValue = parameter.defaultValue, values[error.index] != defaultValue {
                    values[error.index] = defaultValue
                } else if parameter.swiftType == "UUID" {
                    let probe = String(format: "00000000-0000-0000-0000-%012d", 900_001 + error.index)
                    values[error.index] = .string(probe)
                    probes.append((probe, "{\(parameter.name)}"))
                } else {
                    return nil
                }
            } catch {
                return nil
            }
        }
        let credentials = SessionCredentials(token: "token", apiKey: "key", username: "user", password: "password")
        guard let plan, let request = try? plan.prepare(client, credentials) else { return nil }
        func substituted(_ text: String) -> String {
            var text = text
            for (probe, placeholder) in probes {
                text = text.replacingOccurrences(of: probe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? probe,
                                                 with: placeholder)
                text = text.replacingOccurrences(of: probe, with: placeholder)
            }
            return text
        }
        var items = request.queryItems.filter { $0.name != "api_key" }.map { (name: $0.name, value: substituted($0.value ?? "")) }
        // The headers a parameter sets (`If-Match: {ifMatch}`), so that `:describe` says which
        // arguments travel as headers; fixed ones (Accept, the kind's credentials) are not the caller's.
        var headers = request.headers.compactMap { header -> String? in
            let value = substituted(header.value)
            return value == header.value ? nil : "\(header.name): \(value)"
        }
        // A parameter of few values (an enum, a flag): what changes when it takes another is its.
        let before = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        func header(_ name: String, in list: [HTTPHeader]) -> String? { list.first { $0.isNamed(name) }?.value }
        for (index, alternative) in alternatives {
            var changed = values
            changed[index] = alternative
            guard let other = try? endpoint.plan(changed).prepare(client, credentials) else { continue }
            let placeholder = "{\(endpoint.parameters[index].name)}"
            let after = Dictionary(other.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            for position in items.indices where after[items[position].name] != before[items[position].name] {
                items[position].value = placeholder
            }
            // An item sent only with the other value (a flag that is sent when false).
            for item in other.queryItems where before[item.name] == nil && !items.contains(where: { $0.name == item.name }) {
                items.append((item.name, placeholder))
            }
            for changedHeader in request.headers + other.headers
            where header(changedHeader.name, in: request.headers) != header(changedHeader.name, in: other.headers)
                && !headers.contains(where: { $0.lowercased().hasPrefix(changedHeader.name.lowercased() + ":") }) {
                headers.append("\(changedHeader.name): \(placeholder)")
            }
        }
        var text = request.method + " " + substituted(request.path)
        if !items.isEmpty { text += "?" + items.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
        return (text, plan, headers)
    }

    func describe(_ name: String) -> Bool {
        guard !name.isEmpty else {
            fail("write :describe <endpoint or type>, such as :describe post")
            return false
        }
        guard let text = describeText(name) else {
            let names = registry.endpoints.map(\.name) + interpreter.recordTypes.keys
                + registry.endpoints.flatMap { $0.parameters.filter { $0.choices != nil }.map { $0.swiftType.replacingOccurrences(of: "?", with: "") } }
                + registry.endpoints.compactMap { routeProbe($0)?.plan.body.map { SwiftTypeName.of(type(of: $0)) } }
            let suggestion = Suggestions.nearest(to: name, in: names)
            fail("no endpoint or type named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            return false
        }
        write(text)
        return true
    }

    func describeText(_ name: String) -> String? {
        let style = TerminalStyle(enabled: colors)
        if let endpoint = registry.endpoint(named: name) {
            var lines = [style.bold(endpoint.swiftSignature)]
            if !endpoint.summary.isEmpty { lines.append("  " + endpoint.summary) }
            let probe = routeProbe(endpoint)
            if let server = endpoint.server { lines.append("  server:   " + server.baseURL + "  (its document's; the session's is \(client.environment.baseURL))") }
            if let route = probe?.text { lines.append("  request:  " + route) }
            for header in probe?.headers ?? [] { lines.append("  header:   " + header) }
            if let body = probe?.plan.body {
                lines.append("  body:     \(SwiftTypeName.of(type(of: body))) (JSON)")
                lines.append(contentsOf: Self.bodyFields(body, indent: "    "))
            }
            lines.append("  kind:     \(endpoint.kindName)" + Self.kindNote(endpoint.kindName))
            for parameter in endpoint.parameters {
                let label = parameter.label ?? "_ \(parameter.name)"
                let defaultText = parameter.defaultLiteral.map { " = \($0)" } ?? ""
                let choices = parameter.enumeration.map { "  (one of " + $0.cases.map { "." + $0.name }.joined(separator: ", ") + ")" }
                    ?? parameter.choices.map { "  (one of " + $0.map(ValueFormatter.literal).joined(separator: ", ") + ")" } ?? ""
                let rules = parameter.rules.map { "  (\($0))" } ?? ""
                lines.append("  param:    \(label): \(parameter.swiftType)\(defaultText)\(choices)\(rules)")
            }
            if endpoint.streams {
                lines.append("  items:    \(endpoint.responseTypeName), one per event (text/event-stream) or line (JSON Lines), as they arrive")
            } else {
                lines.append("  response: \(endpoint.responseTypeName)"
                             + (probe?.plan.envelopeKey.map { "  (under \"\($0)\" in the JSON)" } ?? ""))
            }
            if let failure = endpoint.shapeFailure { lines.append("    (its shape cannot be read: \(failure))") }
            if case .record(let record) = endpoint.responseType.unwrapped { lines.append(contentsOf: fields(record, indent: "    ")) }
            if case .array(.record(let record)) = endpoint.responseType { lines.append(contentsOf: fields(record, indent: "    ")) }
            if case .stream(.record(let record)) = endpoint.responseType { lines.append(contentsOf: fields(record, indent: "    ")) }
            if endpoint.producesToken { lines.append("  stores the session token when it succeeds") }
            return lines.joined(separator: "\n")
        }
        if let record = interpreter.recordTypes[name] {
            return ([style.type(record.name)] + fields(record, indent: "  ")).joined(separator: "\n")
        }
        // A request body's type.
        for endpoint in registry.endpoints {
            guard let body = routeProbe(endpoint)?.plan.body, SwiftTypeName.of(type(of: body)) == name else { continue }
            return ([style.type(name) + "  (a request body, sent as JSON)"] + Self.bodyFields(body, indent: "  ")
                    + ["  sent by: " + endpointsSending(name).joined(separator: ", ")]).joined(separator: "\n")
        }
        // An argument type with named values: a raw-value enum.
        for endpoint in registry.endpoints {
            for parameter in endpoint.parameters {
                guard let enumeration = parameter.enumeration, enumeration.typeName == name else { continue }
                let users = registry.endpoints.filter { $0.parameters.contains { $0.enumeration?.typeName == name } }
                return ([style.type("enum \(name)") + "  (an argument is written .case, or its raw value as a String)"]
                        + enumeration.cases.map { "  case \($0.name)" + ($0.value == .string($0.name) ? "" : " = \(ValueFormatter.literal($0.value))") }
                        + ["  used by: " + users.map(\.name).joined(separator: ", ")]).joined(separator: "\n")
            }
        }
        // An extension's own (a GraphQL schema's types and root fields).
        return moreHelp(name)
    }

    /// A body's stored properties with their Swift types, as declared.
    static func bodyFields(_ body: Any, indent: String) -> [String] {
        Mirror(reflecting: body).children.map { child in
            "\(indent)\(child.label ?? "_"): \(SwiftTypeName.of(type(of: child.value)))"
        }
    }

    private func endpointsSending(_ typeName: String) -> [String] {
        registry.endpoints.filter { endpoint in
            routeProbe(endpoint)?.plan.body.map { SwiftTypeName.of(type(of: $0)) == typeName } ?? false
        }.map(\.name)
    }

    /// What a built-in kind asks of the session; custom kinds say nothing more.
    static func kindNote(_ kind: String) -> String {
        switch kind {
        case "Bearer": " (sends `token` as Authorization: Bearer ••••)"
        case "APIKey": " (sends `apiKey` ••••)"
        case "Basic": " (sends `username` and `password` as Authorization: Basic ••••)"
        case "Public": " (no credentials)"
        default: " (a kind of the host's own)"
        }
    }

    /// Each field with its Swift type as the model declares it, and the type it has in scripts
    /// where that differs (`id: UUID  (String here)`).
    private func fields(_ record: RecordType, indent: String) -> [String] {
        let declared = registry.bridge.declaredFieldTypes(of: record)
        return record.fields.enumerated().map { index, field in
            let script = "\(field.type)"
            // A document's default fills an absent key: `data: [Bucket] = []`.
            let filled = field.defaultValue.map { " = " + ValueFormatter.literal($0) } ?? ""
            guard let declared, index < declared.count, declared[index] != script else { return "\(indent)\(field.name): \(script)\(filled)" }
            return "\(indent)\(field.name): \(declared[index])\(filled)  (\(script) here)"
        }
    }

    func typeCommand(_ text: String) -> Bool {
        switch interpreter.staticType(of: text) {
        case .success(let type):
            var line = "\(type)"
            if case .record(let record) = type.unwrapped { line += "  " + TerminalStyle(enabled: colors).dim(record.description) }
            write(line)
            return true
        case .failure(let error):
            report(error.diagnostics)
            return false
        }
    }

    /// `:cookies`: name, where it goes, until when, and its flags; never the value.
    func cookiesListing() -> String {
        let cookies = session.cookies.cookies()
        guard !cookies.isEmpty else { return "no cookies" }
        let width = cookies.map(\.name.count).max() ?? 0
        return cookies.map { cookie in
            var line = cookie.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(Redaction.mask)  "
                + (cookie.hostOnly ? cookie.domain : "." + cookie.domain) + cookie.path
            if let expires = cookie.expires { line += "  until " + expires.formatted(.iso8601) }
            if cookie.secure { line += "  Secure" }
            if cookie.httpOnly { line += "  HttpOnly" }
            return line
        }.joined(separator: "\n")
    }

    func variablesListing() -> String {
        let variables = interpreter.variables
        if variables.isEmpty { return "no variables yet; declare one with let or var" }
        let width = variables.map(\.name.count).max() ?? 0
        return variables.map { "\($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.type)" }
            .joined(separator: "\n")
    }
}
