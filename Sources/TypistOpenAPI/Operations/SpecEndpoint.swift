import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// An operation as a registered endpoint: its arguments checked, its request built, sent with the
/// credential its security asks for (refused before the network when the session lacks it), and
/// its response read into the type model.
enum SpecEndpoint {
    /// - Parameter adoptsRecordTypes: Whether building it lists the document's record types in the
    ///   registry: one registration of a document does (a large document's 664 each did).
    static func registration(_ operation: SpecOperation, document: OpenAPIDocument, adoptsRecordTypes: Bool) -> PendingRegistration {
        let documentName = document.name
        let recordTypes = adoptsRecordTypes ? document.recordTypes : []
        return PendingRegistration(name: operation.name, group: operation.group) { bridge in
            if !recordTypes.isEmpty { bridge.adopt(recordTypes) }
            let parameters = operation.arguments.map { argument in
                // A string enum's values are cases too: `sort: .stars`, completed after `.`.
                let enumeration = Self.enumeration(of: argument, in: operation)
                var parameter = ParameterInfo(label: argument.label, name: argument.label,
                                              swiftType: enumeration.map { $0.typeName + (argument.type.isOptional ? "?" : "") } ?? argument.type.description,
                                              scriptType: argument.type, defaultValue: argument.defaultValue, choices: argument.choices,
                                              enumeration: enumeration)
                let rules = [argument.schemaType.map(SchemaConformance.summary(of:)), argument.constraints?.summary].compactMap { $0 }
                parameter.rules = rules.isEmpty ? nil : rules.joined(separator: "; ")
                parameter.isSecretByDocument = argument.isSecret
                // Said of a literal argument by the checker, before anything runs.
                if argument.constraints != nil || argument.schemaType != nil {
                    let untyped = operation.untypedCall
                    parameter.rule = { value in argument.violation(of: value).map { "\($0) (\(untyped)(…) sends values the document rules out)" } }
                }
                if argument.schemaType != nil {
                    let untyped = operation.untypedCall
                    parameter.typeRule = { type in argument.violation(ofType: type).map { "\($0) (\(untyped)(…) sends values the document rules out)" } }
                }
                return parameter
            }
            let kindName = operation.credentials.first?.kindName ?? "Public"
            var registration = EndpointRegistration(
                name: operation.name, summary: operation.deprecated ? (operation.summary + " (deprecated)").trimmingCharacters(in: .whitespaces) : operation.summary,
                group: operation.group, parameters: parameters, kindName: kindName,
                responseTypeName: operation.responseType.description,
                responseType: operation.streams ? .stream(operation.responseType) : operation.responseType,
                producesToken: operation.tokenKey != nil, location: "\(documentName): \(operation.location)", source: (documentName, 0),
                plan: { values in try plan(operation, values) })
            registration.acceptedKinds = operation.credentials.map(\.kindName)
            registration.optionalWhenGiven = operation.conditionalArguments
            registration.route = (operation.method, operation.path)
            registration.streams = operation.streams
            if operation.deprecated {
                registration.deprecation = "the document (\(TerminalText.sanitized(documentName))) marks \(operation.method) \(TerminalText.sanitized(operation.path)) deprecated"
            }
            // A change the document leaves unsecured (Kinto's `/batch`, which forwards requests
            // that need them), in a document that secures others, or one that declares no
            // security at all: the session's credentials are not sent. Reads (a public `GET`)
            // and logins (an answer that stores a token) are what such documents mean; not said.
            if operation.credentials.allSatisfy({ $0 == .none }), !["GET", "HEAD"].contains(operation.method.uppercased()), operation.tokenKey == nil {
                let secured = document.operations.contains { $0.credentials.contains { $0 != .none } }
                registration.unsecuredNote = "\(operation.name) (\(operation.method) \(TerminalText.sanitized(operation.path))) sends none of the session's credentials: "
                    + "\(TerminalText.sanitized(documentName)) declares no security \(secured ? "for it" : "at all"), and a service that wants them anyway "
                    + "may put its refusal inside a 2xx answer. "
                    + (secured ? "To send them, call \(operation.untypedCall)(…, headers: [\"Authorization\": …]) (said once a session)"
                               : "To send them, start with --default-auth bearer (basic, apikey:header:NAME) (said once a session)")
            }
            // `:swift` shows what `typist generate --operation` writes for it.
            registration.swiftDeclaration = { SwiftGenerator(document: document, operations: [operation.name]).declarations() }
            return registration
        }
    }

    /// The cases of a string enum, named as Swift would name them (`in-progress` → `inProgress`);
    /// nil when some value is not a string or two would share a name.
    static func enumeration(of argument: SpecOperation.Argument, in operation: SpecOperation) -> HostEnumeration? {
        argument.choices.flatMap {
            enumeration($0, typeName: argument.sharedTypeName ?? SwiftNames.type(operation.name) + SwiftNames.type(argument.label))
        }
    }

    private static func enumeration(_ choices: [Value], typeName: String) -> HostEnumeration? {
        var cases: [HostEnumeration.Case] = []
        var names: Set<String> = []
        for choice in choices {
            guard case .string(let text) = choice else { return nil }
            let name = SwiftNames.property(text)
            guard names.insert(name).inserted else { return nil }
            cases.append(.init(name: name, value: choice))
        }
        return cases.isEmpty ? nil : HostEnumeration(typeName: typeName, cases: cases)
    }

    /// The request `values` make, and how to send it.
    private static func plan(_ operation: SpecOperation, _ values: [Value]) throws -> CallPlan {
        let request = try SpecRequest(operation, values)
        let selector = EndpointRegistration.selector(operation.name, labels: operation.arguments.map(\.label))
        if operation.streams { return streamPlan(operation, request: request, selector: selector) }
        let conditional = operation.conditionalArguments.contains { $0 < values.count && values[$0] != .null }
        return CallPlan(
            body: nil, envelopeKey: operation.envelopeKey,
            prepare: { client, credentials in
                let credential = SpecCredential.choose(operation.credentials, for: credentials)
                return try request.prepare(client, credential: credential, credentials: credentials, selector: selector)
            },
            send: { client, call in
                if let refusal = request.refusal { throw refusal }
                let credential = SpecCredential.choose(operation.credentials, for: call.credentials)
                let data: Data
                do {
                    data = try await request.send(client, credential: credential, credentials: call.credentials, selector: selector,
                                                  context: call.context)
                } catch {
                    // A conditional call's `304 Not Modified`, which the document declares: nil, a
                    // result the script tests (`if let fresh = …`), not an error that ends it.
                    if conditional, (error as? APIError)?.status == 304 { return (.null, nil) }
                    throw error
                }
                let result = try value(of: data, operation: operation, path: request.path, validation: call.validation)
                // A login's answer: the session keeps its token (`x-typist-token`).
                guard let key = operation.tokenKey else { return (result, nil) }
                guard case .record(let record) = result, case .string(let token)? = record[key] else {
                    throw SpecResponseError(operation: operation.name, message: "the response has no \(ValueFormatter.quoted(key)) token to keep")
                }
                return (result, token)
            },
            sample: { SampleJSON.body(plan: nil, type: operation.responseType) })
    }

    /// A stream's call: its items read as JSON and each conformed to the item type the document
    /// declares, as a response is.
    private static func streamPlan(_ operation: SpecOperation, request: SpecRequest, selector: String) -> CallPlan {
        CallPlan(
            body: nil, envelopeKey: nil,
            prepare: { client, credentials in
                let credential = SpecCredential.choose(operation.credentials, for: credentials)
                var prepared = try request.prepare(client, credential: credential, credentials: credentials, selector: selector)
                prepared.acceptStreams()
                return prepared
            },
            send: { client, call in
                if let refusal = request.refusal { throw refusal }
                let credential = SpecCredential.choose(operation.credentials, for: call.credentials)
                // A missing credential is the call's error; each read sends the request anew.
                let items = try request.stream(client, credential: credential, credentials: call.credentials, selector: selector,
                                               context: call.context)
                let stream = ScriptStream(origin: selector) {
                    DocumentItemNaming(base: items, itemType: operation.responseType.description).map { item throws -> Value in
                        do throws(ModelConformance.Departure) {
                            return try ModelConformance.conform(item.value, to: operation.responseType)
                        } catch {
                            throw SpecResponseError(operation: operation.name,
                                                    message: "an item of the stream departs from the document's \(operation.responseType) \(error)")
                        }
                    }
                }
                return (.stream(stream), nil)
            },
            sample: { SampleJSON.body(plan: nil, type: operation.responseType) })
    }

    /// The response body as a value of the operation's type.
    ///
    /// - Parameters:
    ///   - path: The request's path, for the way to see a body that does not read.
    ///   - validation: `--validate`'s reader, which is told every departure.
    static func value(of data: Data, operation: SpecOperation, path: String, validation: ResponseValidation?) throws -> Value {
        if operation.responseType == .void { return .void }
        guard !data.isEmpty else { return .null }
        guard operation.responseIsJSON else {
            if let json = try? JSONReader.parse(data) { return json }
            // JSON Lines (httpbin's `/stream/n`): the array of its values, not one long string.
            if let lines = JSONReader.parseLines(data) { return .array(lines) }
            return String(data: data, encoding: .utf8).map(Value.string) ?? .bytes(Array(data))
        }
        var json: Value
        do throws(JSONReader.Failure) {
            json = try JSONReader.parse(data)
        } catch {
            // What came instead, on one line (an event stream, HTML), and how to see all of it.
            let start = String(decoding: data.prefix(60), as: UTF8.self)
            // An event stream (FastAPI and Litestar declare theirs as JSON) is read as one.
            let isEventStream = ["data:", "event:", "id:", "retry:", ":"].contains { start.hasPrefix($0) }
            let instead = isEventStream && operation.method == "GET"
                ? "it is an event stream: httpStream(\(ValueFormatter.quoted(path))) reads it as one"
                : "\(operation.untypedCall)(\(ValueFormatter.quoted(path))) shows it as it came"
            throw SpecResponseError(operation: operation.name,
                                    message: "the response is not JSON (\(error)), as the document says it is: it starts "
                                        + "\(ValueFormatter.quoted(start))\(data.count > 60 ? "…" : ""); \(instead)")
        }
        if let key = operation.envelopeKey {
            // `{"result": …}`: the value is under its envelope's key.
            guard case .dictionary(let entries) = json, let inner = entries[key] else {
                throw SpecResponseError(operation: operation.name,
                                        message: "the response has no \(ValueFormatter.quoted(key)) envelope, as the document says it has")
            }
            json = inner
        }
        // With --validate, every departure is said: the undeclared keys of a response that is still
        // typed as warnings, and all of them in the error of one that cannot be.
        let departures = { ModelConformance.departures(json, from: operation.responseType, limit: ResponseValidation.shownPerResponse) }
        do throws(ModelConformance.Departure) {
            let typed = try ModelConformance.conform(json, to: operation.responseType)
            if let validation {
                for departure in departures() {
                    validation.warn("\(operation.name): the response departs from the document's \(operation.responseType) \(departure)")
                }
            }
            return typed
        } catch {
            // The document or the service is wrong here: say where, and how to see what came.
            let untyped = operation.untypedCall
            let all = validation == nil ? [] : departures().filter { !$0.isUndeclaredKey && $0.description != error.description }
            let more = all.isEmpty ? "" : " (and " + all.map(\.description).joined(separator: "; ") + ")"
            throw SpecResponseError(operation: operation.name,
                                    message: "the response departs from the document's \(operation.responseType) \(error)\(more); "
                                        + "\(untyped)(\(ValueFormatter.quoted(path))) shows it as it came")
        }
    }
}

/// A response that does not read as its document says.
struct SpecResponseError: Error, CustomStringConvertible {
    var operation: String
    var message: String

    var description: String { "\(operation): \(message)" }
}
