import APIScript
import Foundation
import TypedAPI
import TypistCore

/// One call's request: the path with its parameters in place, the query, headers and body (JSON,
/// a form's fields, multipart parts, or bytes).
struct SpecRequest: Sendable {
    let method: String
    let path: String
    let query: [URLQueryItem]
    let headers: [HTTPHeader]
    let body: RequestBody?
    /// `Accept`: the JSON the document says the response is, as a Swift endpoint of a `Decodable`
    /// response asks for it; nil (any) otherwise.
    let accept: String?
    /// The first argument the document's constraints rule out: the call is refused with it when
    /// sent (not when planned, so `:describe` still works out the route from marker values).
    let refusal: ArgumentError?

    init(_ operation: SpecOperation, _ values: [Value]) throws {
        var refusal: ArgumentError?
        var path = operation.path
        var query: [URLQueryItem] = []
        var headers: [HTTPHeader] = []
        var fields: [String: Value] = [:]
        var form: [URLQueryItem] = []
        var parts: [MultipartPart] = []
        var raw: RequestBody?
        var whole: Value?
        for (index, argument) in operation.arguments.enumerated() {
            let value = index < values.count ? values[index] : (argument.defaultValue ?? .null)
            if let choices = argument.choices, !value.isNull, !choices.contains(value) {
                throw ArgumentError(index: index, message: "\(argument.label) is one of \(choices.map(ValueFormatter.literal).joined(separator: ", "))")
            }
            if refusal == nil, let violation = argument.violation(of: value) {
                refusal = ArgumentError(index: index, message: violation + ". Nothing was sent: \(operation.untypedCall)(…) sends values the document rules out",
                                        reason: .rule)
            }
            switch argument.place {
            case .path:
                guard let text = Self.text(value) else {
                    throw ArgumentError(index: index, message: "\(argument.label) must be a String or a number")
                }
                path = path.replacingOccurrences(of: "{\(argument.key)}", with: Endpoint<Public, Data>.escape(text))
            case .query:
                query += Self.items(argument.key, value, style: argument.listStyle)
            case .header:
                // A list in a header is its elements joined with commas (`simple`), or as the document says.
                let joined = Self.items(argument.key, value, style: argument.listStyle == .multi ? .csv : argument.listStyle)
                if let text = joined.first?.value { headers.append(.custom(name: argument.key, value: text)) }
            case .bodyField:
                if !value.isNull { fields[argument.key] = value }
            case .formField:
                form += Self.items(argument.key, value, style: argument.listStyle)
            case .multipartField:
                parts += try Self.parts(argument.key, value, isList: { if case .array = argument.type.unwrapped { true } else { false } }(),
                                        partType: argument.partType, index: index)
            case .formMap:
                for (key, value) in Self.entries(value) { form += Self.items(key, value) }
            case .multipartMap:
                for (key, value) in Self.entries(value) {
                    parts += try Self.parts(key, value, isList: { if case .dictionary(.array) = argument.type.unwrapped { true } else { false } }(),
                                            partType: nil, index: index)
                }
            case .rawBody(let mediaType):
                raw = try Self.raw(value, mediaType: mediaType, index: index)
            case .body:
                if !value.isNull { whole = value }
            }
        }
        self.method = operation.method
        self.refusal = refusal
        accept = operation.responseIsJSON ? "application/json" : nil
        self.path = path
        self.query = query
        self.headers = headers
        if let whole {
            body = .data(try JSONWriter.data(whole), contentType: "application/json")
        } else if operation.arguments.contains(where: { $0.place == .bodyField }) {
            body = .data(try JSONWriter.data(.dictionary(fields)), contentType: "application/json")
        } else if operation.arguments.contains(where: { $0.place == .formField || $0.place == .formMap }) {
            body = .form(form)
        } else if operation.arguments.contains(where: { $0.place == .multipartField || $0.place == .multipartMap }) {
            body = .multipart(parts)
        } else if let raw {
            body = raw
        } else {
            body = nil
        }
    }

    /// A query parameter's or form field's items: a list's elements each under the name, one
    /// value once, `nil` none.
    private static func items(_ name: String, _ value: Value, style: SpecOperation.Argument.ListStyle = .multi) -> [URLQueryItem] {
        guard case .array(let elements) = value else { return text(value).map { [URLQueryItem(name: name, value: $0)] } ?? [] }
        let texts = elements.compactMap(text)
        guard let delimiter = style.delimiter else { return texts.map { URLQueryItem(name: name, value: $0) } }
        // An empty list is no parameter, as `multi` sends none.
        return texts.isEmpty ? [] : [URLQueryItem(name: name, value: texts.joined(separator: delimiter))]
    }

    /// A dictionary's entries in the order of their keys (a map body's fields); none for nil.
    private static func entries(_ value: Value) -> [(key: String, value: Value)] {
        guard case .dictionary(let entries) = value else { return [] }
        return entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A multipart field's parts: a file as it is, text as a form's, a list's elements each under
    /// the name (a field typed as a list: files, or simple values), `nil` none, anything else as
    /// JSON; text with the part's own type when the document gives one.
    private static func parts(_ name: String, _ value: Value, isList: Bool, partType: String?, index: Int) throws -> [MultipartPart] {
        let values = if isList, case .array(let elements) = value { elements } else { [value] }
        return try values.filter { !$0.isNull }.map { try MultipartPart.fromScript(name, $0, text: text, textType: partType, argument: index) }
    }

    /// A whole body of bytes: a file's, or text's; a file goes with its own type where the
    /// document's is a range (`image/*`).
    private static func raw(_ value: Value, mediaType: String, index: Int) throws -> RequestBody? {
        switch value {
        case .null: return nil
        case .string(let text), .secret(let text):
            return .text(text, contentType: mediaType.hasSuffix("/*") ? "text/plain; charset=utf-8" : mediaType)
        default:
            let file: UploadFile
            do throws(ArgumentConversionError) {
                file = try UploadFile.fromScript(value)
            } catch {
                throw ArgumentError(index: index, message: error.message)
            }
            return .data(file.data, contentType: mediaType.hasSuffix("/*") ? file.contentType : mediaType)
        }
    }

    /// A value as a parameter's text: strings as they are, numbers and booleans as JSON writes them.
    private static func text(_ value: Value) -> String? {
        switch value {
        case .string(let text), .secret(let text): text
        case .int(let number): String(number)
        case .double(let number): SpecNode.text(of: number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    private var httpMethod: HTTPMethod {
        let payload = body
        switch method {
        case "POST": return .post(payload ?? .data(Data()), query: query)
        case "PUT": return .put(payload ?? .data(Data()), query: query)
        case "PATCH": return .patch(payload ?? .data(Data()), query: query)
        case "DELETE": return .delete(query: query)
        case "HEAD": return .head(query: query)
        default: return .get(query: query)
        }
    }

    private func endpoint<Kind: EndpointKind>(_ kind: Kind.Type) -> Endpoint<Kind, Data> {
        var endpoint = Endpoint<Kind, Data>(httpMethod, path: path, headers: headers)
        // Asked for, not required: a body that is not JSON is said by the document's reading.
        endpoint.decoding.accept = accept
        return endpoint
    }

    /// The endpoint with a credential the way `credential` sends it, from the session.
    private func withCredential<Result>(
        _ credential: SpecCredential, _ credentials: SessionCredentials, selector: String,
        _ body: (any SpecSending) throws -> Result
    ) throws -> Result {
        switch credential {
        case .none: return try body(Sending<Public>(endpoint: endpoint(Public.self), data: ()))
        case .bearer: return try body(Sending<Bearer>(endpoint: endpoint(Bearer.self), data: try Bearer.requestData(from: credentials, calling: selector)))
        case .basic: return try body(Sending<Basic>(endpoint: endpoint(Basic.self), data: try Basic.requestData(from: credentials, calling: selector)))
        case .apiKey(let name, let placement):
            let key = try APIKey.requestData(from: credentials, calling: selector).value
            let data = switch placement {
            case .header: APIKeyCredential(name: name, value: key, placement: .header)
            case .query: APIKeyCredential(name: name, value: key, placement: .query)
            // A cookie the session sends itself: as a `Cookie` header, masked as every cookie is.
            case .cookie: APIKeyCredential(name: "Cookie", value: "\(name)=\(key)", placement: .header)
            }
            return try body(Sending<APIKey>(endpoint: endpoint(APIKey.self), data: data))
        }
    }

    func prepare(_ client: APIClient, credential: SpecCredential, credentials: SessionCredentials, selector: String) throws -> PreparedRequest {
        try withCredential(credential, credentials, selector: selector) { try $0.prepare(client) }
    }

    func send(_ client: APIClient, credential: SpecCredential, credentials: SessionCredentials, selector: String,
              context: CallContext) async throws -> Data {
        let sending = try withCredential(credential, credentials, selector: selector) { $0 }
        return try await sending.send(client, context: context)
    }

    /// The stream's items as JSON, the credential taken now; the request goes when it is read.
    func stream(_ client: APIClient, credential: SpecCredential, credentials: SessionCredentials,
                selector: String, context: CallContext) throws -> ItemStream<JSONItem> {
        try withCredential(credential, credentials, selector: selector) { $0.stream(client, context: context) }
    }
}

/// An endpoint of some kind with its credential, ready to prepare or send.
private protocol SpecSending: Sendable {
    func prepare(_ client: APIClient) throws -> PreparedRequest
    func send(_ client: APIClient, context: CallContext) async throws -> Data
    func stream(_ client: APIClient, context: CallContext) -> ItemStream<JSONItem>
}

private struct Sending<Kind: EndpointKind>: SpecSending where Kind.RequestData: Sendable {
    let endpoint: Endpoint<Kind, Data>
    let data: Kind.RequestData

    func prepare(_ client: APIClient) throws -> PreparedRequest { try client.prepare(endpoint, with: data) }
    func send(_ client: APIClient, context: CallContext) async throws -> Data { try await client.send(endpoint, with: data, context: context) }
    func stream(_ client: APIClient, context: CallContext) -> ItemStream<JSONItem> {
        client.stream(endpoint.redecoded(ResponseDecoding<JSONItem>.json()), with: data, context: context)
    }
}
