import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// Reads a document's operations — OpenAPI 3.0 and 3.1, and Swagger 2.0's equivalents — into
/// ``SpecOperation``s, building the type model of their bodies and responses as it goes.
struct OperationReader {
    private let document: SpecNode
    private let isSwagger: Bool
    private let defaultCredentials: [SpecCredential]
    private let schemes: [String: SpecCredential]
    /// The paths of OAuth 2 token endpoints the security schemes name (`tokenUrl` of a password or
    /// client-credentials flow, or Swagger 2's), without a leading `/`: `token`, `oauth/token`.
    private let tokenPaths: [String]
    /// The names, lower-cased, that the security schemes send API keys under (`api_key`,
    /// `X-API-Key`): a parameter of such a name is a credential.
    private let apiKeyNames: Set<String>
    var types: SchemaTypes
    private(set) var warnings: [String] = []
    /// JSON bodies with at most this many fields are flattened into labels.
    static let flattenedBodyLimit = 8

    init(document: SpecNode, defaultAuth: SpecCredential?) {
        self.document = document
        isSwagger = document["swagger"] != nil
        types = SchemaTypes(document: document)
        var schemes: [String: SpecCredential] = [:]
        let definitions = isSwagger ? document["securityDefinitions"] : document["components"]?["securitySchemes"]
        var unsupported: [String] = []
        var tokenURLs: [String] = []
        var apiKeyNames: Set<String> = []
        for (name, scheme) in definitions?.entries ?? [] {
            let resolved = scheme["$ref"]?.string.flatMap(types.resolve) ?? scheme
            if resolved["type"]?.string == "apiKey", let key = resolved["name"]?.string { apiKeyNames.insert(key.lowercased()) }
            if let credential = SpecCredential(scheme: resolved) { schemes[name] = credential } else { unsupported.append(name) }
            let flows = resolved["flows"]
            tokenURLs += [resolved["tokenUrl"], flows?["password"]?["tokenUrl"], flows?["clientCredentials"]?["tokenUrl"]].compactMap { $0?.string }
        }
        tokenPaths = tokenURLs.map { url in
            let path = url.contains("://") ? (URL(string: url)?.path ?? url) : String(url.prefix { $0 != "?" })
            return String(path.drop { $0 == "/" })
        }
        self.schemes = schemes
        self.apiKeyNames = apiKeyNames
        if !unsupported.isEmpty {
            warnings.append("security schemes Typist cannot send are left out: \(unsupported.map { TerminalText.sanitized($0) }.joined(separator: ", "))")
        }
        let documentWide = document["security"]?.array
        if let documentWide {
            defaultCredentials = Self.alternatives(documentWide, schemes: schemes)
        } else {
            defaultCredentials = [defaultAuth ?? .none]
        }
    }

    /// Every operation, in the document's order.
    ///
    /// - Throws: `CancellationError` once the task reading it is cancelled (Ctrl-C during
    ///   `:openapi`): a large document is thousands of operations, each a moment's work.
    mutating func operations() throws -> [SpecOperation] {
        var result: [SpecOperation] = []
        for (path, item) in document["paths"]?.entries ?? [] {
            try Task.checkCancellation()
            let pathItem = item["$ref"]?.string.flatMap(types.resolve) ?? item
            let shared = pathItem["parameters"]?.array ?? []
            for method in specMethods {
                guard let operation = pathItem[method], case .object = operation else { continue }
                guard sendableSpecMethods.contains(method) else {
                    // Sent as another method, its answer would be another operation's.
                    warnings.append("\(method.uppercased()) \(TerminalText.sanitized(path)) is left out: Typist sends GET, HEAD, POST, PUT, PATCH and DELETE")
                    continue
                }
                result.append(read(operation, method: method.uppercased(), path: path, shared: shared))
            }
        }
        // The inline records many operations share are named now that every use is known.
        types.nameSharedRecords()
        // A shared enum's type is one only where every use allows the same values and no model has
        // its name; else each operation keeps its own.
        var uses: [String: Set<String>] = [:]
        for operation in result {
            for argument in operation.arguments {
                if let name = argument.sharedTypeName, let choices = argument.choices {
                    uses[name, default: []].insert(choices.map(ValueFormatter.literal).joined(separator: "\u{0}"))
                }
            }
        }
        let models = Set(types.records.map(\.name))
        for index in result.indices {
            for position in result[index].arguments.indices {
                guard let name = result[index].arguments[position].sharedTypeName else { continue }
                if uses[name]?.count != 1 || models.contains(name) { result[index].arguments[position].sharedTypeName = nil }
            }
        }
        return result
    }

    private mutating func read(_ operation: SpecNode, method: String, path: String, shared: [SpecNode]) -> SpecOperation {
        let name = SpecOperation.functionName(operationId: operation["operationId"]?.string, method: method, path: path)
        let group = operation["tags"]?.array?.first?.string.map(TerminalText.sanitized) ?? "Endpoints"
        // None when the document gives none: the method and path are shown beside it anyway.
        let summary = (operation["summary"]?.string ?? operation["description"]?.string)
            .map { String($0.split(whereSeparator: \.isNewline).first ?? "") }
            .map(TerminalText.sanitized) ?? ""
        var arguments: [SpecOperation.Argument] = []
        var labels: Set<String> = []
        func add(_ argument: SpecOperation.Argument) {
            var argument = argument
            while labels.contains(argument.label) { argument.label += "_" }
            labels.insert(argument.label)
            arguments.append(argument)
        }
        // Operation parameters override the path item's of the same name and place.
        var parameters: [(node: SpecNode, sharedName: String?)] = []
        let own = (operation["parameters"]?.array ?? []).map(withSharedName)
        for parameter in shared.map(withSharedName) where !own.contains(where: { Self.sameParameter($0.node, parameter.node) }) {
            parameters.append(parameter)
        }
        parameters += own
        var bodyNode: SpecNode?
        var formParameters: [(key: String, node: SpecNode)] = []
        for (parameter, sharedParameter) in parameters {
            guard let key = parameter["name"]?.string, !key.isEmpty else { continue }
            let place = parameter["in"]?.string ?? ""
            let required = place == "path" || parameter["required"]?.bool == true
            switch place {
            case "path", "query", "header":
                if place == "header", ["accept", "content-type", "authorization"].contains(key.lowercased()) { continue }
                // Swagger 2 puts the schema's keywords on the parameter itself.
                let schema = isSwagger ? parameter : (parameter["schema"] ?? .object([]))
                var type = types.type(of: schema, name: SwiftNames.type(key), direction: .request)
                if case .record = type.unwrapped { type = .any }
                // `anyOf: [T, {type: null}]` (FastAPI's optional parameters) is T for its values.
                let inner = SchemaTypes.nonNullMember(of: resolved(schema)) ?? schema
                let resolvedSchema = resolved(inner)
                let choices = (resolvedSchema["enum"]?.array).map { $0.map(\.value).filter { !$0.isNull } }
                // A required parameter that allows one value (TomTom's `versionNumber`, `enum: [2]`)
                // has it as its default: nothing else can be sent.
                let only = required && choices?.count == 1 ? choices?.first : nil
                var defaultValue = only ?? (required ? nil : (resolved(schema)["default"]?.value ?? resolvedSchema["default"]?.value ?? .null))
                if let given = defaultValue, !Self.value(given, fits: type.unwrapped)
                    || !given.isNull && choices.map({ !$0.isEmpty && !$0.contains(given) }) == true {
                    // Sent as it is, it would be a value the parameter's own type rules out (and
                    // `generate` would write Swift that does not compile).
                    warnings.append("\(name): the default of '\(TerminalText.sanitized(key))' (\(TerminalText.sanitized(ValueFormatter.literal(given)))) is not \(choices?.isEmpty == false ? "one of its values" : Self.withArticle("\(type.unwrapped)")): left out, so nothing is sent unless a script gives one")
                    defaultValue = .null
                }
                // Declared once and shared: by its schema's name, else the shared parameter's.
                let sharedName = (inner["$ref"]?.string).flatMap(Self.componentName) ?? sharedParameter
                // `x-typist-label`: the label scripts write where the wire's name is not it (`q` → `query:`).
                let label = SwiftNames.property(parameter["x-typist-label"]?.string ?? key)
                var argument = SpecOperation.Argument(
                    key: key, label: label, place: place == "path" ? .path : place == "query" ? .query : .header,
                    // A default is what leaving it out sends: `perPage: Int = 30`, as Swift writes it.
                    type: required || !(defaultValue?.isNull ?? true) ? type.unwrapped : type.optional, defaultValue: defaultValue,
                    choices: choices?.isEmpty == false ? choices : nil,
                    sharedTypeName: choices?.isEmpty == false ? sharedName.map { types.typeName(forSchema: $0) } : nil,
                    constraints: ValueConstraints(schema: resolvedSchema))
                argument.isSecret = isSecret(key, schema: resolvedSchema)
                argument.listStyle = Self.listStyle(of: parameter, place: place, swagger: isSwagger)
                add(argument)
            case "body":
                bodyNode = .object([("required", .bool(parameter["required"]?.bool == true)),
                                    ("content", .object([("application/json", .object([("schema", parameter["schema"] ?? .object([]))]))]))])
            case "formData" where isSwagger:
                // Swagger 2's form fields (httpbin's `POST /redirect-to`) and files: a form body below.
                formParameters.append((key, parameter))
            default:
                warnings.append("\(name): the \(TerminalText.sanitized(place)) parameter '\(TerminalText.sanitized(key))' is not sent (Typist sends path, query and header parameters, bodies, forms and files; not cookies)")
            }
        }
        // A template in the path that no parameter declares (httpbin's `/etag/{etag}`): a required
        // String, said, rather than a function that cannot be called.
        // Placed after the declared path parameters, before the rest: path arguments come first.
        let declared = Set(arguments.filter { $0.place == .path }.map(\.key))
        let position = (arguments.lastIndex { $0.place == .path }).map { $0 + 1 } ?? 0
        let before = arguments.count
        for template in Self.templates(in: path) where !declared.contains(template) {
            warnings.append("\(name): the path's {\(TerminalText.sanitized(template))} has no parameter in the document: it is a String argument")
            add(.init(key: template, label: SwiftNames.property(template), place: .path, type: .string, defaultValue: nil, choices: nil))
        }
        let undeclared = arguments[before...]
        arguments.removeSubrange(before...)
        arguments.insert(contentsOf: undeclared, at: position)
        if bodyNode == nil, !formParameters.isEmpty {
            let consumes = (operation["consumes"] ?? document["consumes"])?.array?.compactMap(\.string).map(Self.essence) ?? []
            let multipart = consumes.contains("multipart/form-data") && !consumes.contains("application/x-www-form-urlencoded")
                || formParameters.contains { $0.node["type"]?.string == "file" }
            bodyNode = Self.formBody(formParameters, multipart: multipart)
        }
        if let body = (operation["requestBody"].map(resolved)) ?? bodyNode {
            for argument in bodyArguments(body, operation: name, labels: labels) { add(argument) }
        }
        var (responseType, isJSON) = response(of: operation, name: name)
        // A response that is only a stream: its items, each of the type it declares.
        let stream = isJSON || responseType == .void ? nil : streamResponse(of: operation, name: name)
        if let stream { responseType = stream }
        let envelope = isJSON ? extensionField("x-typist-envelope", of: operation, in: responseType, operation: name) : nil
        // The value inside: an answer without it is an error when called, so not optional here.
        if let envelope { responseType = envelope.type.unwrapped }
        let token = isJSON ? extensionField("x-typist-token", of: operation, in: responseType, operation: name, ofType: .string)
            ?? issuedToken(method: method, path: path, responseType: responseType) : nil
        var credentials = defaultCredentials
        if let security = operation["security"]?.array { credentials = Self.alternatives(security, schemes: schemes) }
        var specOperation = SpecOperation(
            name: name, operationId: operation["operationId"]?.string, group: group, summary: summary, method: method, path: path,
            arguments: arguments, responseType: responseType, responseIsJSON: isJSON, credentials: credentials,
            deprecated: operation["deprecated"]?.bool == true, envelopeKey: envelope?.key, tokenKey: token?.name)
        specOperation.streams = stream != nil
        specOperation.declaresNotModified = operation["responses"]?["304"] != nil
        return specOperation
    }

    /// The `access_token` field of an OAuth 2 token endpoint's answer (a `POST` to a security
    /// scheme's `tokenUrl`, FastAPI's `OAuth2PasswordBearer(tokenUrl="token")`), which the session
    /// keeps as its token as it keeps a login's; nil for any other operation.
    private func issuedToken(method: String, path: String, responseType: ScriptType) -> RecordType.Field? {
        let operationPath = String(path.drop { $0 == "/" })
        guard method == "POST", !operationPath.isEmpty,
              tokenPaths.contains(where: { $0 == operationPath || $0.hasSuffix("/" + operationPath) || operationPath.hasSuffix("/" + $0) }),
              case .record(let record) = responseType.unwrapped
        else { return nil }
        return record.fields.first { $0.key == "access_token" && $0.type.unwrapped == .string }
    }

    /// The names of a path template's expressions, in order: `/repos/{owner}/{repo}` → owner, repo.
    static func templates(in path: String) -> [String] {
        var names: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !name.isEmpty, !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The media types a stream comes as: server-sent events, and the forms of JSON Lines.
    static func isStream(_ mediaType: String) -> Bool {
        let type = mediaType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return ["text/event-stream", "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/json-seq"]
            .contains(type)
    }

    /// The item type of a success response that is a stream and has no JSON form: its
    /// `itemSchema` (OpenAPI 3.2), else its `schema` (how 3.0 and 3.1 documents describe one
    /// event's data), else `Any`; nil when the response is not a stream.
    private mutating func streamResponse(of operation: SpecNode, name: String) -> ScriptType? {
        guard !isSwagger else { return nil }
        let responses = operation["responses"]?.entries ?? []
        guard let (_, node) = responses.filter({ $0.key.hasPrefix("2") }).sorted(by: { $0.key < $1.key }).first else { return nil }
        let content = resolved(node)["content"]?.entries ?? []
        guard let stream = content.first(where: { Self.isStream($0.key) }) else { return nil }
        guard let schema = stream.value["itemSchema"] ?? stream.value["schema"] else { return .any }
        return types.type(of: schema, name: SwiftNames.type(name) + "Item", direction: .response)
    }

    /// The field a vendor extension names by its key (`x-typist-envelope: result`), when the
    /// response's record has it (of `fieldType`, when given); a warning, and nil, when it does not.
    private mutating func extensionField(_ name: String, of operation: SpecNode, in type: ScriptType, operation function: String,
                                         ofType fieldType: ScriptType? = nil) -> RecordType.Field? {
        guard let node = operation[name] else { return nil }
        guard let key = node.string, case .record(let record) = type.unwrapped,
              let field = record.fields.first(where: { $0.key == key }),
              fieldType.map({ field.type.unwrapped == $0 }) ?? true
        else {
            let wanted = fieldType.map { " a \($0) field" } ?? " a field"
            warnings.append("\(function): \(name) names\(wanted) the response's \(type) does not have; left out")
            return nil
        }
        return field
    }

    /// A parameter, resolved, with the name it is shared under (`#/components/parameters/direction`).
    private func withSharedName(_ node: SpecNode) -> (node: SpecNode, sharedName: String?) {
        (resolved(node), (node["$ref"]?.string).flatMap(Self.componentName))
    }

    /// `direction` for `#/components/parameters/direction` (or `#/definitions/…`, `#/parameters/…`).
    private static func componentName(_ reference: String) -> String? {
        guard reference.hasPrefix("#/"), let last = reference.split(separator: "/").last, !last.isEmpty else { return nil }
        return String(last).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    private func resolved(_ node: SpecNode) -> SpecNode {
        node["$ref"]?.string.flatMap(types.resolve) ?? node
    }

    private static func sameParameter(_ a: SpecNode, _ b: SpecNode) -> Bool {
        a["name"]?.string == b["name"]?.string && a["in"]?.string == b["in"]?.string
    }

    /// A body's arguments. JSON: its fields as labels when it is a small object (a field that
    /// is not a simple value takes any JSON), else one `body:` argument that takes any JSON value. A form
    /// (`application/x-www-form-urlencoded`, OAuth 2's token requests, FastAPI's `Form`): its
    /// fields as labels, however many, when they are simple. Multipart (`multipart/form-data`,
    /// uploads): its fields as labels, a file an `UploadFile`, anything not simple JSON. A form
    /// or multipart body whose schema is a map (`additionalProperties` alone): `body:` a
    /// dictionary, each entry a field. Text
    /// (`text/*`, XML): `body: String`; any other media type (`application/octet-stream`,
    /// `image/png`): `body: UploadFile`, its bytes sent as they are.
    ///
    /// A field the schema requires is a required argument even when the document leaves the
    /// body optional (GitHub's and APIFlask's documents mark no body `required`): the fields are
    /// always sent as one object, and one without them is what the schema rules out.
    private mutating func bodyArguments(_ body: SpecNode, operation: String, labels: Set<String>) -> [SpecOperation.Argument] {
        let required = body["required"]?.bool == true
        let content = body["content"]?.entries ?? []
        var whole = [SpecOperation.Argument(key: "body", label: "body", place: .body, type: .any, defaultValue: required ? nil : .null, choices: nil)]
        if let json = content.first(where: { Self.isJSON($0.key) }) {
            let schema = json.value["schema"] ?? .object([])
            let type = types.type(of: schema, name: SwiftNames.type(operation) + "Body", direction: .request)
            if let fields = fieldArguments(schema, operation: operation, labels: labels, place: .bodyField, limit: Self.flattenedBodyLimit, type: type) {
                return fields
            }
            // The whole body as any JSON, checked against its schema's type.
            whole[0].schemaType = type.unwrapped == .any ? nil : type
            return whole
        }
        if let form = content.first(where: { Self.isForm($0.key) }),
           var fields = fieldArguments(form.value["schema"] ?? .object([]), operation: operation, labels: labels, place: .formField, limit: .max)
                ?? mapArgument(form.value["schema"], operation: operation, place: .formMap, required: required)
        {
            // A list field goes as its `encoding` says (`style`, `explode`: each element under the
            // name by default, as a query's; Swagger 2's `collectionFormat`, csv by default).
            for index in fields.indices where fields[index].place == .formField {
                fields[index].listStyle = Self.listStyle(of: form.value["encoding"]?[fields[index].key] ?? .object([]), place: "query", swagger: false)
            }
            return fields
        }
        let multipart = content.first { Self.essence($0.key) == "multipart/form-data" }
        if let multipart, let map = mapArgument(multipart.value["schema"], operation: operation, place: .multipartMap, required: required) {
            return map
        }
        if let multipart,
           var fields = fieldArguments(multipart.value["schema"] ?? .object([]), operation: operation, labels: labels,
                                       place: .multipartField, limit: .max)
        {
            // A text part's own type (`encoding: {sdp: {contentType: application/sdp}}`); the first
            // of a list. A file goes with its own.
            for index in fields.indices where fields[index].type.unwrapped != UploadFile.scriptType {
                let declared = multipart.value["encoding"]?[fields[index].key]?["contentType"]?.string
                let first = declared?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
                if let first, !first.isEmpty, !first.contains("*"), first.lowercased() != "text/plain" {
                    fields[index].partType = TerminalText.sanitized(first)
                }
            }
            return fields
        }
        guard let other = content.first?.key else { return [] }
        let mediaType = Self.essence(other)
        if mediaType.hasPrefix("multipart/") || mediaType == "application/x-www-form-urlencoded" {
            warnings.append("\(operation): its \(TerminalText.sanitized(other)) body is sent as JSON from `body:` (its fields are not an object Typist can send)")
            return whole
        }
        let type: ScriptType = Self.isText(mediaType) ? .string : UploadFile.scriptType
        return [SpecOperation.Argument(key: "body", label: "body", place: .rawBody(mediaType: mediaType.isEmpty ? "application/octet-stream" : mediaType),
                                       type: required ? type : type.optional, defaultValue: required ? nil : .null, choices: nil)]
    }

    /// A body's fields as labels, when `schema` is an object of at most `limit` fields whose
    /// names no other argument has (a form's all simple); nil otherwise. A JSON body's field that
    /// is not a simple value (an object, a list of them) takes any JSON. A multipart body's
    /// fields may be of any type: a binary string is a file (`UploadFile`), a list of them files,
    /// and anything not simple is any JSON (sent as an `application/json` part).
    private mutating func fieldArguments(_ schema: SpecNode, operation: String, labels: Set<String>, place: SpecOperation.Argument.Place,
                                         limit: Int, type known: ScriptType? = nil) -> [SpecOperation.Argument]? {
        let type = known ?? types.type(of: schema, name: SwiftNames.type(operation) + "Body", direction: .request)
        // A form's field of a type the document does not say (httpbin's `type: int`) is text.
        guard case .record(let record) = type, record.fields.count <= limit,
              place != .formField || record.fields.allSatisfy({ Self.isSimple($0.type) || $0.type.unwrapped == .any }),
              record.fields.allSatisfy({ !labels.contains($0.name) })
        else { return nil }
        let properties = resolved(schema)["properties"]
        let requiredKeys = Set(resolved(schema)["required"]?.array?.compactMap(\.string) ?? [])
        return record.fields.map { field in
            let property = properties?[field.key].map { SchemaTypes.nonNullMember(of: resolved($0)) ?? $0 }
            var fieldType = field.type
            var schemaType: ScriptType?
            if place == .multipartField {
                fieldType = Self.multipartType(of: field.type, schema: property.map(resolved))
            } else if !Self.isSimple(fieldType), !Self.isSimpleMap(fieldType) {
                // An object, a list of them: any JSON (a dictionary literal, or a value a
                // response gave), checked against the document's type before it is sent.
                schemaType = field.type.unwrapped == .any ? nil : field.type
                fieldType = .any
            }
            // `Any` holds nil already: whether it may be left out is the schema's `required`.
            // A field with a default may be left out too: the service fills it.
            let optional = fieldType.isOptional || field.defaultValue != nil || (fieldType == .any && !requiredKeys.contains(field.key))
            // An enum field takes only its values, as an enum parameter does (`kind: .book`).
            let choices = property.flatMap { resolved($0)["enum"]?.array }.map { $0.map(\.value).filter { !$0.isNull } }
            let sharedName = (property?["$ref"]?.string).flatMap(Self.componentName)
            var argument = SpecOperation.Argument(
                key: field.key, label: field.name, place: place,
                type: optional ? fieldType.optional : fieldType, defaultValue: optional ? .null : nil,
                choices: choices?.isEmpty == false ? choices : nil,
                sharedTypeName: choices?.isEmpty == false ? sharedName.map { types.typeName(forSchema: $0) } : nil,
                constraints: property.flatMap { ValueConstraints(schema: resolved($0)) })
            argument.isSecret = isSecret(field.key, schema: property.map(resolved))
            argument.schemaType = schemaType
            return argument
        }
    }

    /// Whether the document makes a value a credential: its schema's `format: password`, a name
    /// its security schemes send an API key under, or a name that says password or secret
    /// (``TypedAPI/Redaction/namesPasswordOrSecret(_:)``). Other words in a name (`token`, `key`)
    /// do not: what a document calls a secret is what it says is one.
    private func isSecret(_ key: String, schema: SpecNode?) -> Bool {
        schema?["format"]?.string == "password" || apiKeyNames.contains(key.lowercased()) || Redaction.namesPasswordOrSecret(key)
    }

    /// A form's or multipart body's one `body:` argument when its schema names no fields, only
    /// `additionalProperties` (Litestar's `dict[str, str]`): a dictionary whose entries are the
    /// fields, of simple values (a form) or of files, simple values and JSON (multipart); nil
    /// for any other schema.
    private mutating func mapArgument(_ schema: SpecNode?, operation: String, place: SpecOperation.Argument.Place,
                                      required: Bool) -> [SpecOperation.Argument]? {
        guard let schema,
              case .dictionary(let value) = types.type(of: schema, name: SwiftNames.type(operation) + "Body", direction: .request).unwrapped
        else { return nil }
        let element: ScriptType
        if place == .multipartMap {
            element = Self.multipartType(of: value, schema: resolved(schema)["additionalProperties"].map(resolved))
        } else {
            guard Self.isSimple(value) || value.unwrapped == .any else { return nil }
            element = value
        }
        let type = ScriptType.dictionary(element)
        return [SpecOperation.Argument(key: "body", label: "body", place: place, type: required ? type : type.optional,
                                       defaultValue: required ? nil : .null, choices: nil)]
    }

    /// A multipart field's type: a file for a binary string (`format: binary`, or OpenAPI 3.1's
    /// `contentMediaType` without a `contentEncoding`), files for a list of them, simple types as
    /// they are, anything else any JSON.
    private static func multipartType(of type: ScriptType, schema: SpecNode?) -> ScriptType {
        func isFile(_ type: ScriptType, _ schema: SpecNode?) -> Bool {
            type.unwrapped == .bytes
                || (type.unwrapped == .string && schema?["contentMediaType"] != nil && schema?["contentEncoding"] == nil)
        }
        let wrap: (ScriptType) -> ScriptType = { type.isOptional ? $0.optional : $0 }
        if isFile(type, schema) { return wrap(UploadFile.scriptType) }
        if case .array(let element) = type.unwrapped, isFile(element, schema?["items"]) { return wrap(.array(UploadFile.scriptType)) }
        return isSimple(type) ? type : .any
    }

    /// Swagger 2's `formData` parameters as the form body OpenAPI 3 would write: one object
    /// schema, each parameter's keywords its field's (a `type: file` a binary string), as a
    /// multipart body when it has a file or the operation consumes only that.
    private static func formBody(_ parameters: [(key: String, node: SpecNode)], multipart: Bool) -> SpecNode {
        let notSchema: Set<String> = ["name", "in", "required", "description", "allowEmptyValue", "collectionFormat"]
        let properties = parameters.map { parameter in
            let keywords = (parameter.node.entries ?? []).filter { !notSchema.contains($0.key) }
            let schema: [(key: String, value: SpecNode)] = parameter.node["type"]?.string == "file"
                ? [("type", .string("string")), ("format", .string("binary"))] : keywords
            return (parameter.key, SpecNode.object(schema))
        }
        let required = parameters.filter { $0.node["required"]?.bool == true }.map { SpecNode.string($0.key) }
        let schema = SpecNode.object([("type", .string("object")), ("properties", .object(properties)), ("required", .array(required))])
        // A list field's `collectionFormat` (default `csv`) as OpenAPI 3 writes it in `encoding`
        // (`tsv`, which has no OpenAPI 3 style, under a name of our own).
        let encoding: [(key: String, value: SpecNode)] = parameters.compactMap { parameter in
            guard parameter.node["type"]?.string == "array" else { return nil }
            let style: [(key: String, value: SpecNode)] = switch parameter.node["collectionFormat"]?.string ?? "csv" {
            case "multi": [("style", .string("form")), ("explode", .bool(true))]
            case "ssv": [("style", .string("spaceDelimited")), ("explode", .bool(false))]
            case "pipes": [("style", .string("pipeDelimited")), ("explode", .bool(false))]
            case "tsv": [("style", .string("x-typist-tabDelimited")), ("explode", .bool(false))]
            default: [("style", .string("form")), ("explode", .bool(false))]
            }
            return (parameter.key, .object(style))
        }
        return .object([("required", .bool(!required.isEmpty)),
                        ("content", .object([(multipart ? "multipart/form-data" : "application/x-www-form-urlencoded",
                                              .object([("schema", schema), ("encoding", .object(encoding))]))]))])
    }

    /// `application/x-www-form-urlencoded`, with or without parameters.
    static func isForm(_ mediaType: String) -> Bool {
        essence(mediaType) == "application/x-www-form-urlencoded"
    }

    /// A media type without its parameters, in lower case: `text/plain` for `Text/Plain; charset=utf-8`.
    static func essence(_ mediaType: String) -> String {
        mediaType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    /// Text a script writes as a `String`: `text/*`, XML, YAML, CSV.
    static func isText(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("text/") || mediaType.hasSuffix("/xml") || mediaType.hasSuffix("+xml")
            || ["application/yaml", "application/x-yaml", "application/graphql", "application/sql"].contains(mediaType)
    }

    private static func isSimple(_ type: ScriptType) -> Bool {
        switch type.unwrapped {
        case .int, .double, .bool, .string, .nilLiteral: true
        case .array(let element): [.int, .double, .bool, .string].contains(element)
        default: false
        }
    }

    /// A dictionary of simple values (`[String: String]`), optional or not.
    private static func isSimpleMap(_ type: ScriptType) -> Bool {
        if case .dictionary(let value) = type.unwrapped { isSimple(value) } else { false }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let type = mediaType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return type == "application/json" || type.hasSuffix("+json") || type == "*/*" || type == "application/*"
    }

    /// The success response's type: the first 2xx (`200`, `201`, `2XX`, then `default`) with a JSON
    /// schema; `Void` for one that has no body (`204`); `Any` (the JSON or text as it comes) when
    /// it has a body the document does not describe.
    private mutating func response(of operation: SpecNode, name: String) -> (ScriptType, Bool) {
        let responses = operation["responses"]?.entries ?? []
        let successes = responses.filter { $0.key.hasPrefix("2") }.sorted { $0.key < $1.key }
        guard let (code, node) = successes.first ?? responses.first(where: { $0.key == "default" }) else { return (.any, false) }
        let response = resolved(node)
        let typeName = SwiftNames.type(name) + "Response"
        if isSwagger {
            guard let schema = response["schema"] else { return code == "204" ? (.void, false) : (.any, false) }
            return (types.type(of: schema, name: typeName, direction: .response), true)
        }
        let content = response["content"]?.entries ?? []
        guard !content.isEmpty else { return code == "204" || code == "205" ? (.void, false) : (.any, false) }
        guard let json = content.first(where: { Self.isJSON($0.key) }), let schema = json.value["schema"] else { return (.any, false) }
        return (types.type(of: schema, name: typeName, direction: .response), true)
    }

    /// `security` requirement objects as alternatives: the first scheme each names that Typist
    /// can send; `{}` (no requirement) is Public.
    private static func alternatives(_ requirements: [SpecNode], schemes: [String: SpecCredential]) -> [SpecCredential] {
        guard !requirements.isEmpty else { return [.none] }
        var result: [SpecCredential] = []
        for requirement in requirements {
            let names = requirement.entries?.map(\.key) ?? []
            if names.isEmpty {
                result.append(.none)
            } else if let credential = names.firstNonNil({ schemes[$0] }), !result.contains(credential) {
                result.append(credential)
            }
        }
        return result.isEmpty ? [.none] : result
    }

    /// How a list parameter is written: Swagger 2's `collectionFormat` (default `csv`, `multi`
    /// only in a query), OpenAPI 3's `style` and `explode` (a query's default is `form` exploded,
    /// each element under the name; a path's or a header's `simple`, comma-separated).
    static func listStyle(of parameter: SpecNode, place: String, swagger: Bool) -> SpecOperation.Argument.ListStyle {
        if swagger {
            let format = parameter["collectionFormat"]?.string ?? parameter["items"]?["collectionFormat"]?.string ?? "csv"
            if format == "multi" { return place == "query" ? .multi : .csv }
            return SpecOperation.Argument.ListStyle(rawValue: format) ?? .csv
        }
        switch parameter["style"]?.string {
        case "spaceDelimited": return .ssv
        case "x-typist-tabDelimited": return .tsv
        case "pipeDelimited": return .pipes
        case "simple": return .csv
        case "form": return parameter["explode"]?.bool == false ? .csv : .multi
        default:
            guard place == "query" else { return .csv }
            return parameter["explode"]?.bool == false ? .csv : .multi
        }
    }

    /// `an Int`, `a [String]`.
    static func withArticle(_ type: String) -> String { ("AEIOU".contains(type.first ?? " ") ? "an " : "a ") + type }

    /// Whether a document's `default` is a value of the parameter's type (an integral number is a
    /// `Double` too; `null` leaves the parameter out).
    static func value(_ value: Value, fits type: ScriptType) -> Bool {
        switch (value, type) {
        case (.null, _), (_, .any), (_, .unknown): return true
        case (_, .optional(let wrapped)): return Self.value(value, fits: wrapped)
        case (.double(let number), .double): return number.isFinite
        case (.int, .int), (.int, .double), (.bool, .bool), (.string, .string), (.string, .secret): return true
        case (.array(let elements), .array(let element)): return elements.allSatisfy { Self.value($0, fits: element) }
        case (.dictionary(let entries), .dictionary(let element)): return entries.values.allSatisfy { Self.value($0, fits: element) }
        default: return false
        }
    }
}
