import APIScript
import Foundation

/// The Swift an app would write with the typed client to do what an expression does (`:swift`).
struct SwiftSnippet {
    let shell: Shell

    func render(_ text: String, untyped: [UntypedRequest] = []) -> String {
        if !untyped.isEmpty { return renderUntyped(untyped) }
        let calls = shell.interpreter.hostCalls(in: text)
        var swift = Array(text.utf8)
        var needsToken = false
        for call in calls.reversed() {
            guard let endpoint = shell.registry.endpoint(named: call.name) else { continue }
            let factory = endpoint.parameters.isEmpty ? ".\(call.name)" : ".\(call.name)(\(call.argumentText))"
            var replacement = "try await client.send(\(factory)"
            switch endpoint.kindName {
            case "Bearer":
                replacement += ", with: token"
                needsToken = true
            case "APIKey":
                replacement += ", with: apiKey"
            default: break
            }
            replacement += ")"
            let lower = max(0, min(call.span.start, swift.count))
            let upper = max(lower, min(call.span.end, swift.count))
            swift.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
        }
        var body = String(decoding: swift, as: UTF8.self)
        if calls.count == 1, body.hasPrefix("try await client.send("), body.hasSuffix(")") {
            // A lone call needs no parentheses around it.
        } else if calls.count > 0, !body.hasPrefix("try await") {
            body = body.replacingOccurrences(of: "try await client.send(", with: "(try await client.send(")
                .replacingOccurrences(of: ", with: token)", with: ", with: token))")
            body = Self.balanceCalls(body)
        }
        let type = (try? shell.interpreter.staticType(of: text).get()).map { ": \($0)" } ?? ""
        // The transport in use, as Swift names it: `TypedAPICurl.CurlTransport` → `CurlTransport()`.
        let qualified = _typeName(Swift.type(of: shell.client.transport), qualified: true).split(separator: ".")
        let module = qualified.count > 1 ? String(qualified[0]) : "TypedAPI"
        var lines = ["import TypedAPI"]
        if module != "TypedAPI" { lines.append("import \(module)") }
        lines += [
            "",
            "let client = APIClient(environment: try ServerEnvironment(url: \(ValueFormatter.quoted(shell.client.environment.baseURL))),",
            "                       transport: \(qualified.last ?? "URLSessionTransport")())",
        ]
        if needsToken { lines.append("let token = AccessToken(\"…\")   // from login(user:password:)") }
        lines.append("let result\(type) = \(body)")
        return lines.joined(separator: "\n")
    }

    /// Closes the parenthesis opened before each `try await client.send(` right after its call.
    private static func balanceCalls(_ text: String) -> String {
        var result = ""
        var pending: [Int] = []  // depth at which to close
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("(try await client.send(") {
                result += "(try await client.send("
                depth += 2
                pending.append(depth - 1)
                index = text.index(index, offsetBy: "(try await client.send(".count)
                continue
            }
            let character = text[index]
            result.append(character)
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if let last = pending.last, depth == last {
                    result.append(")")
                    depth -= 1
                    pending.removeLast()
                }
            }
            index = text.index(after: index)
        }
        return result
    }

    /// Untyped calls as the endpoints a host would declare for them, and the calls that send them.
    private func renderUntyped(_ requests: [UntypedRequest]) -> String {
        let kind = UntypedRequest.kind(for: shell.state.credentials)
        var lines = ["import Foundation", "import TypedAPI", "",
                     "// Endpoints for the untyped calls, to declare in a host: replace Data with a model (:model writes one)."]
        var names: [String] = []
        for request in requests {
            var name = Self.endpointName(request)
            while names.contains(name) { name += "2" }
            names.append(name)
            let query = request.query.map { "URLQueryItem(name: \(ValueFormatter.quoted($0.name)), value: \(ValueFormatter.quoted($0.value ?? "")))" }
            let queryText = "query: [" + query.joined(separator: ", ") + "]"
            let method: String = switch request.methodName {
            case "POST", "PUT", "PATCH":
                ".\(request.methodName.lowercased())(" + (request.jsonBody.map {
                    ".data(Data(\(ValueFormatter.quoted(String(decoding: $0, as: UTF8.self))).utf8), contentType: \"application/json\")"
                } ?? ".data(Data())") + ", \(queryText))"
            default: ".\(request.methodName.lowercased())(\(queryText))"
            }
            let headers = request.headers.map { header -> String in
                if case .custom(let name, let value) = header { return ".custom(name: \(ValueFormatter.quoted(name)), value: \(ValueFormatter.quoted(value)))" }
                return "\(header)"
            }
            lines.append("extension Endpoint where Kind == \(kind.rawValue), Response == Data {")
            lines.append("    /// \(request.methodName) \(request.path)")
            lines.append("    static var \(name): Self {")
            lines.append("        Endpoint(\(method), path: \(ValueFormatter.quoted(request.path))" + (headers.isEmpty ? ")" : ",\n                 headers: [" + headers.joined(separator: ", ") + "])"))
            lines.append("    }")
            lines.append("}")
            lines.append("")
        }
        let (transport, module) = transportName()
        if module != "TypedAPI" { lines.insert("import \(module)", at: 2) }
        lines.append("let client = APIClient(environment: try ServerEnvironment(url: \(ValueFormatter.quoted(shell.client.environment.baseURL))),")
        lines.append("                       transport: \(transport)())")
        let data: String = switch kind {
        case .bearer: ", with: AccessToken(\"…\")"
        case .basic: ", with: BasicCredentials(username: \"…\", password: \"…\")"
        case .apiKey: ", with: APIKeyCredential(\"…\")"
        case .public: ""
        }
        for (index, name) in names.enumerated() {
            lines.append("let data\(names.count > 1 ? String(index + 1) : ""): Data = try await client.send(.\(name)\(data))")
        }
        return lines.joined(separator: "\n")
    }

    /// `visits` for `GET /v1/visits`, `postAnything` for `POST /anything`.
    static func endpointName(_ request: UntypedRequest) -> String {
        let segment = request.path.split(separator: "/").reversed().first { segment in
            !segment.isEmpty && !segment.allSatisfy(\.isNumber) && !segment.hasPrefix("v") || segment.count > 3
        }.map(String.init) ?? "root"
        let base = SwiftModel.propertyName(segment)
        guard request.methodName != "GET" else { return base }
        return request.methodName.lowercased() + base.prefix(1).uppercased() + base.dropFirst()
    }


    private func transportName() -> (String, String) {
        let qualified = _typeName(Swift.type(of: shell.client.transport), qualified: true).split(separator: ".")
        return (String(qualified.last ?? "URLSessionTransport"), qualified.count > 1 ? String(qualified[0]) : "TypedAPI")
    }
}
