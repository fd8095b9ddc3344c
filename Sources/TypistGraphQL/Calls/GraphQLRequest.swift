import APIScript
import Foundation
import TypedAPI
import TypistCore

/// One GraphQL call: `POST` of `{"query", "operationName", "variables"}` as JSON to the service's
/// path, with the session's credential — a token as `Authorization: Bearer`, else a user name and
/// password as Basic, else none — sent as every call sends one (masked, never across origins).
struct GraphQLRequest: Sendable {
    let path: String
    let body: Data

    /// - Parameters:
    ///   - variables: Each variable's value; `nil` ones are left out (the operation's default applies).
    init(path: String, document: String, operationName: String?, variables: [(String, Value)]) throws {
        self.path = path
        var entries: [String: Value] = ["query": .string(document)]
        if let operationName { entries["operationName"] = .string(operationName) }
        var values: [String: Value] = [:]
        for (name, value) in variables where value != .null { values[name] = value }
        entries["variables"] = .dictionary(values)
        body = try JSONWriter.data(.dictionary(entries))
    }

    /// The credential a call sends, from what the session holds.
    enum Credential {
        case none, bearer, basic

        init(_ credentials: SessionCredentials) {
            if let token = credentials.token, !token.isEmpty {
                self = .bearer
            } else if let user = credentials.username, !user.isEmpty, credentials.password != nil {
                self = .basic
            } else {
                self = .none
            }
        }
    }

    private func endpoint<Kind: EndpointKind>(_: Kind.Type) -> Endpoint<Kind, Data> {
        var endpoint = Endpoint<Kind, Data>(.post(.data(body, contentType: "application/json"), query: []), path: path)
        // GraphQL over HTTP: the newer media type first; a service that sends `errors` with a 4xx
        // status does so under it.
        endpoint.decoding.accept = "application/graphql-response+json, application/json;q=0.9"
        return endpoint
    }

    func prepare(_ client: APIClient, credentials: SessionCredentials, selector: String) throws -> PreparedRequest {
        switch Credential(credentials) {
        case .none: try client.prepare(endpoint(Public.self), with: ())
        case .bearer: try client.prepare(endpoint(Bearer.self), with: try Bearer.requestData(from: credentials, calling: selector))
        case .basic: try client.prepare(endpoint(Basic.self), with: try Basic.requestData(from: credentials, calling: selector))
        }
    }

    func send(_ client: APIClient, credentials: SessionCredentials, selector: String, context: CallContext) async throws -> Data {
        switch Credential(credentials) {
        case .none: try await client.send(endpoint(Public.self), context: context)
        case .bearer:
            try await client.send(endpoint(Bearer.self), with: try Bearer.requestData(from: credentials, calling: selector), context: context)
        case .basic:
            try await client.send(endpoint(Basic.self), with: try Basic.requestData(from: credentials, calling: selector), context: context)
        }
    }
}
