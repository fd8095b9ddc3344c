import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// A GraphQL operation as a registered endpoint: its variables the labels, its result the record
/// its selection set types, its call a `POST` through the session's client — so `:curl`, `:last`,
/// cassettes, redaction and `pages { … }` treat it as every other call.
enum GraphQLEndpoint {
    /// The group GraphQL operations are listed under (`:endpoints`).
    static let group = "GraphQL"

    /// - Parameters:
    ///   - takesText: Whether the function's first parameter is the operation's own text (an
    ///     inline query's `graphql("""…""", …)`), which the call does not send again.
    ///   - adoptsRecordTypes: Whether building it lists the operation's record types in the registry.
    static func registration(_ operation: GraphQLOperation, service: GraphQLService, takesText: Bool = false,
                             adoptsRecordTypes: Bool = true) -> PendingRegistration {
        PendingRegistration(name: operation.functionName, group: group) { bridge in
            if adoptsRecordTypes { bridge.adopt(operation.recordTypes) }
            return make(operation, service: service, takesText: takesText)
        }
    }

    static func make(_ operation: GraphQLOperation, service: GraphQLService, takesText: Bool, server: ServerEnvironment? = nil) -> EndpointRegistration {
        var parameters = operation.variables.map { variable in
            var parameter = ParameterInfo(label: variable.name, name: variable.name,
                                          swiftType: variable.enumSwiftType ?? variable.scriptType.description,
                                          scriptType: variable.scriptType, defaultValue: variable.isOptional ? .null : nil,
                                          // A list's values are its elements' cases, not choices of its own.
                                          choices: variable.isEnumList ? nil : variable.enumeration.map { $0.cases.map(\.value) },
                                          enumeration: variable.enumeration)
            // Said of a literal by the checker; of any value before the call is sent (the plan).
            if variable.allowed != nil { parameter.rule = { variable.violation(of: $0) } }
            return parameter
        }
        if takesText { parameters.insert(ParameterInfo(label: nil, name: "query", swiftType: "String", scriptType: .string), at: 0) }
        let offset = takesText ? 1 : 0
        let name = operation.functionName
        let selector = EndpointRegistration.selector(name, labels: parameters.map(\.label))
        let path = service.path
        var registration = EndpointRegistration(
            name: name, summary: operation.summary, group: group, parameters: parameters, kindName: "Bearer",
            responseTypeName: operation.resultType.description, responseType: operation.resultType,
            location: "\(service.name): \(operation.name.map { "\(operation.kind.rawValue) \($0)" } ?? "an inline \(operation.kind.rawValue)")",
            source: (service.name, operation.line),
            plan: { values in
                let variables = operation.variables.enumerated().map { index, variable in
                    (variable.name, index + offset < values.count ? values[index + offset] : .null)
                }
                for (index, variable) in operation.variables.enumerated() {
                    if let violation = variable.violation(of: variables[index].1) {
                        throw ArgumentError(index: index + offset, message: violation + "; nothing was sent")
                    }
                }
                let request = try GraphQLRequest(path: path, document: operation.document, operationName: operation.name, variables: variables)
                return CallPlan(
                    body: nil, envelopeKey: nil,
                    prepare: { client, credentials in try request.prepare(client, credentials: credentials, selector: selector) },
                    send: { client, call in
                        let body: Data
                        do {
                            body = try await request.send(client, credentials: call.credentials, selector: selector, context: call.context)
                        } catch let error as APIError {
                            // GraphQL over HTTP: a request the service refuses (400) says why in `errors`.
                            if case .unacceptableStatus(_, let response) = error, let errors = GraphQLResponse.errors(inRefusal: response.body),
                               !errors.isEmpty {
                                throw GraphQLResponseError(operation: name, message: "the service refused the \(operation.kind.rawValue) "
                                    + "with \(response.statusLine) and \(errors.count) GraphQL error\(errors.count == 1 ? "" : "s")", errors: errors)
                            }
                            throw error
                        }
                        return (try GraphQLResponse.value(of: body, type: operation.resultType, operation: name), nil)
                    },
                    sample: { Data(("{\"data\":" + String(decoding: SampleJSON.body(plan: nil, type: operation.resultType), as: UTF8.self) + "}").utf8) })
            })
        // No `route`: every operation shares one (`POST /graphql`), which tells none of them apart
        // (cassette verify reads an untyped call by its route).
        // Whatever the session holds: a token as a bearer token, else a user name and password, else nothing.
        registration.acceptedKinds = ["Bearer", "Basic", "Public"]
        registration.cursorVariable = operation.cursorVariable
        // `:swift` shows what `typist generate --graphql-operations` writes for it.
        registration.swiftDeclaration = {
            "// GraphQLRequestBody and ResponseDecoding.graphQL() are in the GraphQLSupport.swift typist generate --graphql-schema writes.\n"
                + GraphQLSwiftGenerator(operations: [operation], kind: "Bearer", path: path, origin: service.name).declarationsWithFragments(of: operation)
        }
        if !operation.deprecations.isEmpty {
            registration.deprecation = operation.deprecations.joined(separator: "; ")
        }
        return server.map { registration.sending(to: $0) } ?? registration
    }
}
