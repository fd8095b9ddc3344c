import APIScript
import Foundation
import Synchronization
import TypedAPI

/// The Swift an app would write with the typed client to do what an expression does (`:swift`).
struct SwiftSnippet {
    let shell: Shell

    /// A Swift file's parts: imports, declarations for endpoints registered as closures, the
    /// client and credentials, and the statements.
    struct Parts: Sendable {
        var imports: [String]
        var declarations: [String]
        var setup: [String]
        var body: [String]

        /// The whole file, as `:swift` prints it.
        var text: String {
            var lines = imports + [""]
            if !declarations.isEmpty { lines += declarations + [""] }
            return (lines + setup + body).joined(separator: "\n")
        }
    }

    /// `:swift`: the Swift for a prompt line, or why there is none.
    func render(_ text: String, untyped: [UntypedRequest] = []) -> Result<String, SwiftTranslationFailure> {
        if !untyped.isEmpty { return .success(renderUntyped(untyped)) }
        return parts(for: text, isPrompt: true).map(\.text)
    }

    /// The Swift for a prompt line or a whole script, in parts.
    func parts(for text: String, isPrompt: Bool) -> Result<Parts, SwiftTranslationFailure> {
        let endpoints = Dictionary(shell.registry.endpoints.map { ($0.name, EndpointWriting($0)) }) { first, _ in first }
        // Endpoints sent to a server of their own (a document added with :openapi): a client for
        // each such server, beside the session's.
        let servers = Self.serverClients(shell.registry.endpoints)
        // Endpoints a call site made for itself (an inline GraphQL operation): written as registered ones are.
        let adHoc = Mutex<(writings: [EndpointWriting], servers: Set<String>)>(([], []))
        let writing = SwiftHostWriting(
            call: { function, arguments in
                if let endpoint = endpoints[function.name] {
                    return endpoint.call(arguments, client: servers.byEndpoint[function.name]?.name ?? "client")
                }
                if let endpoint = function.swiftEndpoint as? EndpointRegistration {
                    // Its first argument is the text the endpoint was made from; the rest are its parameters.
                    let written = EndpointWriting(endpoint)
                    let server = endpoint.server.map { url in servers.all.first { $0.url == url.baseURL } ?? ("adHocClient", url.baseURL) }
                    adHoc.withLock {
                        $0.writings.append(written)
                        if let server { $0.servers.insert(server.url) }
                    }
                    return written.call(Array(arguments.dropFirst()), client: server?.name ?? "client")
                }
                return function.isSynchronous && function.name == "file" ? Self.readingFile(arguments) : nil
            },
            global: Self.read(global:),
            assignment: Self.assign(global:value:),
            note: { function in
                endpoints[function.name]?.producesToken == true
                    ? "// the shell keeps the token \(function.name)(…) answers with; in Swift: token = AccessToken(<answer>.token)"
                    : nil
            },
            unsupported: { function in
                if endpoints[function.name] == nil, function.swiftEndpoint == nil, let reason = function.swiftUnsupported { return reason }
                guard endpoints[function.name] == nil, function.name == Shell.pagesName else { return nil }
                return "pages { … } follows a service's next pages in the shell, and TypedAPI has no such call: in Swift, "
                    + "send the call, read the next page's link or cursor from its answer, and send again "
                    + "(:curl pages { … } shows the first page's request)"
            })
        return shell.interpreter.swift(for: text, isPrompt: isPrompt, host: writing).map { program in
            let (adHocWritings, adHocServers) = adHoc.withLock { ($0.writings, $0.servers) }
            let used = program.functions.compactMap { endpoints[$0] } + adHocWritings
            let (transport, transportModule) = transportName()
            var imports = ["import Foundation", "import TypedAPI"]
            // A call of the host's own factory (`.deletePost(id:)`) needs the module that declares
            // it, which its types may not name (a Void answer): the modules of the host's models.
            let factoryModules = used.contains { $0.declaration == nil }
                ? shell.registry.endpoints.flatMap(\.modules) : []
            for module in [transportModule] + used.flatMap(\.modules) + factoryModules where !imports.contains("import \(module)") {
                imports.append("import \(module)")
            }
            var setup = [
                "let client = APIClient(environment: try ServerEnvironment(url: \(ValueFormatter.quoted(shell.client.environment.baseURL))),",
                "                       transport: \(transport)())",
            ]
            for server in servers.all where program.functions.contains(where: { servers.byEndpoint[$0]?.name == server.name })
                || adHocServers.contains(server.url) {
                setup.append("let \(server.name) = client.replacingEnvironment(with: try ServerEnvironment(url: \(ValueFormatter.quoted(server.url))))")
            }
            for url in adHocServers.sorted() where !servers.all.contains(where: { $0.url == url }) {
                setup.append("let adHocClient = client.replacingEnvironment(with: try ServerEnvironment(url: \(ValueFormatter.quoted(url))))")
            }
            let kinds = Set(used.map(\.kindName))
            // `var` where the script assigns it, `let` where it only reads it.
            func binding(_ names: String...) -> String {
                program.lines.contains { line in names.contains { line.trimmingCharacters(in: .whitespaces).hasPrefix("\($0) = ") } }
                    ? "var" : "let"
            }
            if kinds.contains("Bearer") || program.globals.contains("token") {
                setup.append("\(binding("token")) token = AccessToken(\"…\")   // from login(user:password:), or the session's token")
            }
            if kinds.contains("Basic") || program.globals.contains("username") || program.globals.contains("password") {
                setup.append("\(binding("username", "password")) username = \"…\", password = \"…\"")
            }
            if kinds.contains("APIKey") || program.globals.contains("apiKey") {
                setup.append("\(binding("apiKey")) apiKey = \"…\"")
            }
            if program.globals.contains("response") {
                setup.append("var response: APIResponse<Data>? = nil   // the shell's last exchange; in an app, send an endpoint .includingResponse()")
            }
            let declarations = Self.distinct(used.compactMap(\.declaration)) + program.helpers
            for variable in program.sessionVariables {
                setup.append("// uses the session's \(variable.name) (\(variable.type)): declare it as the prompt line that made it did")
            }
            return Parts(imports: imports, declarations: declarations, setup: setup, body: program.lines)
        }
    }

    /// A client's name for each server endpoints are sent to instead of the session's
    /// (`documentClient`, then `documentClient2` …), in the order the registry first names them.
    static func serverClients(_ endpoints: [EndpointRegistration]) -> (all: [(name: String, url: String)], byEndpoint: [String: (name: String, url: String)]) {
        var all: [(name: String, url: String)] = []
        var byEndpoint: [String: (name: String, url: String)] = [:]
        for endpoint in endpoints {
            guard let url = endpoint.server?.baseURL else { continue }
            let client = all.first { $0.url == url } ?? (all.isEmpty ? "documentClient" : "documentClient\(all.count + 1)", url)
            if !all.contains(where: { $0.url == url }) { all.append(client) }
            byEndpoint[endpoint.name] = client
        }
        return (all, byEndpoint)
    }

    /// Declarations without the top-level ones an earlier one has: two operations of a document
    /// each declare the models they use (`Pet`, `JSONValue`), which a program declares once.
    static func distinct(_ declarations: [String]) -> [String] {
        var seen: Set<Substring> = []
        return declarations.compactMap { declaration in
            // A top-level declaration starts after a blank line, not indented (its doc comment first).
            let fresh = declaration.split(separator: /\n\n(?=\S)/).filter { seen.insert($0).inserted }
            return fresh.isEmpty ? nil : fresh.joined(separator: "\n\n")
        }
    }

    /// A session property read in Swift.
    @Sendable private static func read(global name: String) -> String? {
        switch name {
        case "baseURL": "client.environment.baseURL"
        case "token": "Optional(token)"
        case "username": "Optional(username)"
        case "password": "Optional(password)"
        case "apiKey": "Optional(apiKey)"
        case "response": "response"
        default: nil
        }
    }

    /// `ProcessInfo.processInfo.environment["TYPIST_TOKEN"] ?? ""`: a secret, read where `:curl` reads it.
    static func environment(_ variable: String) -> String {
        "ProcessInfo.processInfo.environment[\"\(variable)\"] ?? \"\""
    }

    /// A session property set in Swift; a secret written as a literal is read from the environment.
    @Sendable private static func assign(global name: String, value: String) -> String? {
        let secret = value.hasPrefix("\"") && ["token", "password", "apiKey"].contains(name)
            ? environment("TYPIST_" + SecretNames.screamingSnakeCase(name)) : value
        return switch name {
        case "baseURL": "client.environment = try ServerEnvironment(url: \(value))"
        case "token": "token = AccessToken(\(secret))"
        case "username": "username = \(value)"
        case "password", "apiKey": "\(name) = \(secret)"
        case "timeout": "client.timeout = .seconds(\(value))"
        case "headers": "client.defaultHeaders = \(value).map { HTTPHeader.custom(name: $0.key, value: $0.value) }"
        default: nil
        }
    }

    /// Untyped calls as the endpoints a host would declare for them, and the calls that send them.
    private func renderUntyped(_ requests: [UntypedRequest]) -> String {
        let kind = UntypedRequest.kind(for: shell.session.credentials)
        var lines = ["import Foundation", "import TypedAPI", "",
                     "// Endpoints for the untyped calls, to declare in a host: replace Data with a model (:model writes one)."]
        var names: [String] = []
        for request in requests {
            var name = Self.endpointName(request)
            while names.contains(name) { name += "2" }
            names.append(name)
            let query = request.query.map { "URLQueryItem(name: \(ValueFormatter.quoted($0.name)), value: \(ValueFormatter.quoted($0.value ?? "")))" }
            let queryText = "query: [" + query.joined(separator: ", ") + "]"
            let (payload, throwing) = bodyText(request.body)
            let method: String = switch request.methodName {
            case "POST", "PUT", "PATCH": ".\(request.methodName.lowercased())(\(payload), \(queryText))"
            default: ".\(request.methodName.lowercased())(\(queryText))"
            }
            let headers = request.headers.map { ".custom(name: \(ValueFormatter.quoted($0.name)), value: \(ValueFormatter.quoted($0.value)))" }
            lines.append("extension Endpoint where Kind == \(kind.rawValue), Response == Data {")
            lines.append("    /// \(request.methodName) \(request.path)")
            // A file read from disk: the factory reads it, and may throw.
            lines.append(throwing ? "    static func \(name)() throws -> Self {" : "    static var \(name): Self {")
            if throwing { names[names.count - 1] += "()" }
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
        case .apiKey: ", with: APIKeyCredential(value: \"…\")"
        case .public: ""
        }
        for (index, name) in names.enumerated() {
            lines.append("let data\(names.count > 1 ? String(index + 1) : ""): Data = try await client.send(.\(name)\(data))")
        }
        return lines.joined(separator: "\n")
    }

    /// `file(path, contentType:)` in Swift: the file read with TypedAPI's `UploadFile`.
    @Sendable private static func readingFile(_ arguments: [SwiftArgument?]) -> String? {
        guard let path = arguments.first??.text else { return nil }
        var type = ""
        if let given = arguments.dropFirst().first??.text { type = ", contentType: " + given }
        return "UploadFile(contentsOf: URL(fileURLWithPath: \(path))\(type))"
    }

    /// An untyped call's body as a `RequestBody` expression, and whether it reads a file (`try`).
    private func bodyText(_ body: UntypedRequest.Body) -> (String, Bool) {
        let quoted = ValueFormatter.quoted
        switch body {
        case .none: return (".data(Data())", false)
        case .json(let data): return (".data(Data(\(quoted(String(decoding: data, as: UTF8.self))).utf8), contentType: \"application/json\")", false)
        case .form(let items):
            return (".form([" + items.map { "URLQueryItem(name: \(quoted($0.name)), value: \(quoted($0.value ?? "")))" }.joined(separator: ", ") + "])", false)
        case .multipart(let parts):
            var throwing = false
            let written = parts.map { part -> String in
                guard let filename = part.filename else {
                    let text = quoted(String(decoding: part.data, as: UTF8.self))
                    return ".text(\(quoted(part.name)), \(text)\(part.contentType.map { ", contentType: \(quoted($0))" } ?? ""))"
                }
                let type = quoted(part.contentType ?? UploadFile.contentType(forFilename: filename))
                // From the file `file(_:)` read; bytes from elsewhere as they are.
                if let read = shell.session.readFile(named: filename, data: part.data) {
                    throwing = true
                    return ".file(\(quoted(part.name)), try UploadFile(contentsOf: URL(fileURLWithPath: \(quoted(read.path))), contentType: \(type)))"
                }
                return ".file(\(quoted(part.name)), UploadFile(filename: \(quoted(filename)), contentType: \(type), "
                    + "data: Data(base64Encoded: \(quoted(part.data.base64EncodedString()))) ?? Data()))"
            }
            return (".multipart([" + written.joined(separator: ", ") + "])", throwing)
        }
    }

    /// `visits` for `GET /v1/visits`, `postAnything` for `POST /anything`.
    static func endpointName(_ request: UntypedRequest) -> String {
        let segment = request.path.split(separator: "/").reversed().first { segment in
            !segment.isEmpty && !segment.allSatisfy(\.isNumber) && !segment.hasPrefix("v") || segment.count > 3
        }.map(String.init) ?? "root"
        let base = SwiftNames.property(segment)
        guard request.methodName != "GET" else { return base }
        return request.methodName.lowercased() + base.prefix(1).uppercased() + base.dropFirst()
    }


    private func transportName() -> (String, String) {
        let qualified = SwiftTypeName.qualified(Swift.type(of: shell.sessionTransport.base)).split(separator: ".")
        return (String(qualified.last ?? "URLSessionTransport"), qualified.count > 1 ? String(qualified[0]) : "TypedAPI")
    }
}
