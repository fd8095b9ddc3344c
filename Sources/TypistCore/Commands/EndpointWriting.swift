import APIScript
import Foundation
import Synchronization

/// How `:swift` writes one registered endpoint: a call of the host's factory when the registration
/// closure only calls one (`{ id in Endpoint.post(id: id) }` → `.post(id: 1)`), else an
/// `extension Endpoint` declaring a factory of the endpoint's name with the closure's body as
/// written in the host, so that what `:swift` prints compiles against the host's module.
struct EndpointWriting: Sendable {
    let name: String
    let kindName: String
    let producesToken: Bool
    /// Whether a call reads a stream (`client.stream(…)`), not one response.
    let streams: Bool
    let modules: [String]
    let parameters: [ParameterInfo]
    /// Whether the factory is called with parentheses (a `static func`, not a `static var`).
    let factoryIsFunction: Bool
    /// A declaration of the factory, when the host's registration builds the endpoint itself.
    let declaration: String?
    /// The host's own factory, when the registration calls one: a call leaves out none of the
    /// parameters it declares without a default.
    let hostFactory: (file: String, name: String)?

    init(_ endpoint: EndpointRegistration) {
        name = endpoint.name
        kindName = endpoint.kindName
        producesToken = endpoint.producesToken
        streams = endpoint.streams
        modules = endpoint.modules
        parameters = endpoint.parameters
        if let declare = endpoint.swiftDeclaration {
            // Generated, not written: a `static func` factory with its models (a `static var` when
            // it takes nothing).
            factoryIsFunction = !endpoint.parameters.isEmpty
            hostFactory = nil
            declaration = declare()
            return
        }
        guard let closure = Self.registrationClosure(path: endpoint.source.path, line: endpoint.source.line) else {
            hostFactory = nil
            factoryIsFunction = !endpoint.parameters.isEmpty
            // The source is here but the registration has no closure to copy (a function passed
            // as `endpoint:`): say so, rather than call a factory that may not exist.
            declaration = Self.unseenFactory(endpoint)
            return
        }
        if let factory = closure.body.wholeMatch(of: /Endpoint\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\([\s\S]*\))?/),
            factory.1 == endpoint.name
        {
            factoryIsFunction = factory.2 != nil
            declaration = nil
            hostFactory = (endpoint.source.path, endpoint.name)
            return
        }
        factoryIsFunction = !endpoint.parameters.isEmpty
        hostFactory = nil
        declaration = Self.declaration(endpoint, closure: closure)
    }

    /// `client.send(.post(id: 1))`, with the request data its kind needs, through `client` (a
    /// client for the endpoint's own server when it has one).
    func call(_ arguments: [SwiftArgument?], client: String = "client") -> String {
        var written: [String] = []
        // Read from the host's source only when a call leaves a labelled argument out.
        let omitsSome = parameters.indices.contains { ($0 >= arguments.count || arguments[$0] == nil) && parameters[$0].label != nil }
        let required = omitsSome ? hostFactory.map {
            Self.parametersWithoutDefault(factory: $0.name, registrationFile: $0.file, labels: parameters.compactMap(\.label))
        } ?? [] : []
        for (index, parameter) in parameters.enumerated() {
            let given = index < arguments.count ? arguments[index] : nil
            let text: String
            if let given {
                text = Self.converted(given, to: parameter, declared: declaration != nil)
            } else if let label = parameter.label, required.contains(label) {
                // Left out in the script, but the host's factory has no default for it.
                text = parameter.defaultLiteral ?? "nil"
            } else {
                continue
            }
            written.append(parameter.label.map { "\($0): \(text)" } ?? text)
        }
        let factory = factoryIsFunction ? ".\(name)(\(written.joined(separator: ", ")))" : ".\(name)"
        let data = switch kindName {
        case "Bearer": ", with: token"
        case "Basic": ", with: BasicCredentials(username: username, password: password)"
        case "APIKey": ", with: APIKeyCredential(value: apiKey)"
        default: ""
        }
        return "\(client).\(streams ? "stream" : "send")(\(factory)\(data))"
    }

    /// A literal in the parameter's Swift type: `UUID(uuidString: "…")!`, an enum's `.case`.
    private static func converted(_ argument: SwiftArgument, to parameter: ParameterInfo, declared: Bool) -> String {
        // Any JSON, in a factory `:swift` declares with its `JSONValue`: a literal is one (its
        // literal conformances); a model or a variable is what it encodes as.
        if declared, parameter.scriptType.unwrapped == .any, !argument.isLiteral {
            return "try JSONValue(encoding: \(argument.text))"
        }
        // `["OPEN", "CLOSED"]` for an array of an enum: its cases, as Swift takes them.
        if case .array(let elements)? = argument.literal, let enumeration = parameter.enumeration, !elements.isEmpty {
            let cases = elements.compactMap { enumeration.matching($0).map { "." + $0.name } }
            if cases.count == elements.count { return "[" + cases.joined(separator: ", ") + "]" }
        }
        guard case .string(let text)? = argument.literal else { return argument.text }
        // A password or token written in the line is read from the environment, as `:curl` does.
        if parameter.carriesSecret { return SwiftSnippet.environment(parameter.environmentVariable) }
        if let enumeration = parameter.enumeration, let match = enumeration.matching(.string(text)) { return "." + match.name }
        if parameter.swiftType.trimmingCharacters(in: CharacterSet(charactersIn: "?")) == "UUID" {
            return "UUID(uuidString: \(ValueFormatter.quoted(text)))!"
        }
        return argument.text
    }

    // MARK: The registration as written

    struct Closure {
        /// The closure's parameter names, in order.
        var parameters: [String]
        /// Its body, trimmed.
        var body: String
    }

    /// The trailing closure of the `Register(…)` (or `RegisterStream(…)`) call at a file's line,
    /// read from the host's source.
    static func registrationClosure(path: String, line: Int) -> Closure? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.utf8.count < 1 << 20 else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let declaration = SourceLocator.declaration(in: lines, at: line).joined(separator: "\n")
        guard let start = declaration.firstMatch(of: /Register(?:Stream)?\(/)?.range else { return nil }
        let characters = Array(declaration[start.upperBound...])
        // The call's closing parenthesis, then the trailing closure's braces.
        guard var index = Self.closing(")", opening: "(", in: characters, from: 0) else { return nil }
        while index < characters.count, characters[index] != "{" {
            guard characters[index].isWhitespace else { return nil }
            index += 1
        }
        guard index < characters.count else { return nil }
        let bodyStart = index + 1
        guard let end = Self.closing("}", opening: "{", in: characters, from: bodyStart) else { return nil }
        index = end
        var body = String(characters[bodyStart..<(index - 1)])
        var names: [String] = []
        if let header = body.prefixMatch(of: /\s*\(?\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\)?\s+in\b/) {
            names = header.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            body = String(body[header.range.upperBound...])
        }
        return Closure(parameters: names, body: body.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The position just after the bracket that closes one already open at `start`, skipping
    /// brackets inside string literals; nil when it is never closed.
    private static func closing(_ close: Character, opening open: Character, in characters: [Character], from start: Int) -> Int? {
        var index = start
        var depth = 1
        var inString = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            if inString {
                if character == "\\" { index += 1 } else if character == "\"" { inString = false }
                continue
            }
            if character == "\"" { inString = true }
            if character == open { depth += 1 }
            if character == close {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The labels of `labels` that the host's factory `name` declares without a default value
    /// (`author: String?` with no `= nil`); empty when its declaration is not found.
    private static func parametersWithoutDefault(factory name: String, registrationFile: String, labels: [String]) -> Set<String> {
        // Each factory is looked up once a process: finding it reads the host's sources.
        let key = registrationFile + "\u{0}" + name
        if let known = requiredParameters.withLock({ $0[key] }) { return known }
        let found = lookUpParametersWithoutDefault(factory: name, registrationFile: registrationFile, labels: labels)
        requiredParameters.withLock { $0[key] = found }
        return found
    }

    private static let requiredParameters = Mutex<[String: Set<String>]>([:])

    private static func lookUpParametersWithoutDefault(factory name: String, registrationFile: String, labels: [String]) -> Set<String> {
        guard let found = SourceLocator(registrationFile: registrationFile).factory(named: name) else { return [] }
        let text = found.lines.joined(separator: " ")
        guard let open = text.range(of: "static func \(name)(") else { return [] }
        // The parameter list: up to the parenthesis that closes it.
        var depth = 1
        var end = open.upperBound
        while end < text.endIndex, depth > 0 {
            if text[end] == "(" || text[end] == "[" { depth += 1 }
            if text[end] == ")" || text[end] == "]" { depth -= 1 }
            if depth > 0 { end = text.index(after: end) }
        }
        var required: Set<String> = []
        var current = ""
        var nesting = 0
        for character in text[open.upperBound..<end] + "," {
            if "([".contains(character) { nesting += 1 }
            if ")]".contains(character) { nesting -= 1 }
            if character == ",", nesting == 0 {
                let label = current.split(separator: ":").first.map { $0.split(separator: " ").first.map(String.init) ?? "" } ?? ""
                if labels.contains(label), !current.contains("=") { required.insert(label) }
                current = ""
            } else {
                current.append(character)
            }
        }
        return required
    }

    /// For a registration whose source is on this machine but whose endpoint comes from a function
    /// (`Register("books", …, endpoint: makeBooks)`): a comment that says what `:swift` cannot
    /// show and the factory the line below calls; nil when the source is not here (the host's own
    /// factory is then assumed to bear the endpoint's name).
    private static func unseenFactory(_ endpoint: EndpointRegistration) -> String? {
        guard let text = try? String(contentsOfFile: endpoint.source.path, encoding: .utf8), text.utf8.count < 1 << 20 else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let registration = SourceLocator.declaration(in: lines, at: endpoint.source.line).joined(separator: "\n")
        let function = registration.firstMatch(of: /endpoint\s*:\s*([A-Za-z_][A-Za-z0-9_.]*)/).map { String($0.1) }
        let place = "\(URL(fileURLWithPath: endpoint.source.path).lastPathComponent):\(endpoint.source.line)"
        let signature = endpoint.parameters.map { ($0.label ?? "_") + ": " + $0.swiftType }.joined(separator: ", ")
        return [
            "// \(endpoint.name) is registered at \(place) with \(function.map { "the function '\($0)'" } ?? "code :swift cannot read"),",
            "// so :swift cannot show how its Endpoint is built. Declare the factory the line below calls:",
            "// extension Endpoint where Kind == \(endpoint.kindName), Response == \(endpoint.responseTypeName) {",
            "//     static \(endpoint.parameters.isEmpty ? "var \(endpoint.name): Self" : "func \(endpoint.name)(\(signature)) -> Self") { … }",
            "// }",
        ].joined(separator: "\n")
    }

    /// `extension Endpoint where Kind == …, Response == … { static func name(…) -> Self { body } }`.
    private static func declaration(_ endpoint: EndpointRegistration, closure: Closure) -> String {
        let parameters = endpoint.parameters.enumerated().map { index, parameter -> String in
            let inner = index < closure.parameters.count ? closure.parameters[index] : parameter.name
            let label = parameter.label ?? "_"
            let defaultText = parameter.defaultLiteral.map { " = " + $0 } ?? ""
            return (label == inner ? inner : "\(label) \(inner)") + ": " + parameter.swiftType + defaultText
        }
        let head = endpoint.parameters.isEmpty
            ? "    static var \(endpoint.name): Self {"
            : "    static func \(endpoint.name)(\(parameters.joined(separator: ", "))) -> Self {"
        let body = closure.body.split(separator: "\n", omittingEmptySubsequences: false)
        let dedent = Shell.dedented(Array(body.dropFirst()))
        let lines = [String(body.first ?? "")] + body.dropFirst().map { dedent(String($0)) }
        return (["// registered as a closure (\(URL(fileURLWithPath: endpoint.source.path).lastPathComponent):\(endpoint.source.line)): its endpoint as a factory",
                 "extension Endpoint where Kind == \(endpoint.kindName), Response == \(endpoint.responseTypeName) {", head]
                + lines.map { "        " + $0 } + ["    }", "}"]).joined(separator: "\n")
    }
}
