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
                let route = routeTemplate(endpoint).map { "  \(style.dim($0))" } ?? ""
                lines.append("  " + endpoint.swiftSignature + route)
                if !endpoint.summary.isEmpty { lines.append("      " + style.dim(endpoint.summary)) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `GET /posts/{id}`, found by building the endpoint with recognisable argument values.
    func routeTemplate(_ endpoint: EndpointRegistration) -> String? {
        var values: [Value] = []
        var probes: [(String, String)] = []
        for (index, parameter) in endpoint.parameters.enumerated() {
            var value = ProbeValues.value(for: parameter.scriptType, index: index)
            if let defaultValue = parameter.defaultValue, case .bool = value { value = defaultValue }
            values.append(value)
            probes.append((ValueFormatter.description(value), "{\(parameter.name)}"))
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
                    probes[error.index].0 = probe
                } else {
                    return nil
                }
            } catch {
                return nil
            }
        }
        guard let plan, let request = try? plan.prepare(client, SessionCredentials(token: "token", apiKey: "key", username: "user", password: "password")) else {
            return nil
        }
        var text = request.method + " " + request.path
        if !request.queryItems.isEmpty {
            text += "?" + request.queryItems.filter { $0.name != "api_key" }.map { item in
                "\(item.name)=\(item.value ?? "")"
            }.joined(separator: "&")
        }
        for (probe, placeholder) in probes {
            text = text.replacingOccurrences(of: probe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? probe,
                                             with: placeholder)
            text = text.replacingOccurrences(of: probe, with: placeholder)
        }
        return text
    }

    func describe(_ name: String) -> Bool {
        guard !name.isEmpty else {
            fail("write :describe <endpoint or type>, such as :describe post")
            return false
        }
        guard let text = describeText(name) else {
            let names = registry.endpoints.map(\.name) + interpreter.recordTypes.keys
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
            if let route = routeTemplate(endpoint) { lines.append("  request:  " + route) }
            lines.append("  kind:     \(endpoint.kindName)" + (endpoint.kindName == "Bearer" ? " (sends `token` as Authorization: Bearer ••••)" : ""))
            for parameter in endpoint.parameters {
                let label = parameter.label ?? "_ \(parameter.name)"
                let defaultText = parameter.defaultValue.map { " = \(ValueFormatter.literal($0))" } ?? ""
                lines.append("  param:    \(label): \(parameter.swiftType)\(defaultText)")
            }
            lines.append("  response: \(endpoint.responseTypeName)")
            if case .record(let record) = endpoint.responseType.unwrapped { lines.append(contentsOf: fields(record, indent: "    ")) }
            if case .array(.record(let record)) = endpoint.responseType { lines.append(contentsOf: fields(record, indent: "    ")) }
            if endpoint.producesToken { lines.append("  stores the session token when it succeeds") }
            return lines.joined(separator: "\n")
        }
        if let record = interpreter.recordTypes[name] {
            return ([style.type(record.name)] + fields(record, indent: "  ")).joined(separator: "\n")
        }
        return nil
    }

    /// Each field with its Swift type as the model declares it, and the type it has in scripts
    /// where that differs (`id: UUID  (String here)`).
    private func fields(_ record: RecordType, indent: String) -> [String] {
        let declared = registry.bridge.declaredFieldTypes(of: record)
        return record.fields.enumerated().map { index, field in
            let script = "\(field.type)"
            guard let declared, index < declared.count, declared[index] != script else { return "\(indent)\(field.name): \(script)" }
            return "\(indent)\(field.name): \(declared[index])  (\(script) here)"
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
        let cookies = state.cookies.cookies()
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
