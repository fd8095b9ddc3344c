import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// Reads a service's schema by asking it: the introspection query, `POST`ed as every operation is,
/// with the credential the session would send (most GraphQL APIs want a token even for this).
enum Introspection {
    /// The answer's body: `{"data": {"__schema": …}}`.
    static func fetch(_ endpoint: GraphQLLoader.Endpoint, transport: any HTTPTransport, tls: TLSOptions,
                      credential: DocumentCredential?) async throws -> Data {
        var environment = try ServerEnvironment(url: endpoint.origin)
        environment.tls = tls
        let client = APIClient(environment: environment, transport: transport, configuration: .init(timeout: .seconds(60)))
        let body = try JSONWriter.data(.dictionary(["query": .string(GraphQLSchemaModel.introspectionQuery),
                                                    "operationName": .string("IntrospectionQuery")]))
        func request<Kind: EndpointKind>(_: Kind.Type) -> Endpoint<Kind, Data> {
            var request = Endpoint<Kind, Data>(.post(.data(body, contentType: "application/json"), query: []), path: endpoint.path)
            request.decoding.accept = "application/graphql-response+json, application/json;q=0.9"
            return request
        }
        let data: Data
        do {
            switch credential {
            case nil: data = try await client.send(request(Public.self))
            case .bearer(let token): data = try await client.send(request(Bearer.self), with: token)
            case .basic(let credentials): data = try await client.send(request(Basic.self), with: credentials)
            case .apiKey(let key): data = try await client.send(request(APIKey.self), with: key)
            }
        } catch {
            throw failure(error, endpoint: endpoint, credential: credential)
        }
        // A service that allows no introspection says so in `errors`.
        if case .dictionary(let entries)? = try? JSONReader.parse(data), entries["data"] == nil || entries["data"] == .null,
           let errors = GraphQLResponse.errors(inRefusal: data), !errors.isEmpty {
            throw GraphQLSchemaError("\(endpoint.shown) refused the introspection query: "
                + errors.map { TerminalText.sanitized($0.message) }.joined(separator: "; ")
                + " (a saved schema works as well: --graphql-schema schema.graphql)")
        }
        return data
    }

    private static func failure(_ error: APIError, endpoint: GraphQLLoader.Endpoint, credential: DocumentCredential?) -> any Error {
        switch error {
        case .transport(_, let failure) where failure.kind != .cancelled:
            return DocumentUnreachable("cannot reach \(endpoint.shown): \(failure)")
        case .transport, .cancelled:
            return CancellationError()
        case .unacceptableStatus(_, let response):
            var text = "\(endpoint.shown) answered the introspection query with \(response.statusLine)"
            if [401, 403].contains(response.status) {
                text += credential.map { "; the credential sent (\($0)) was refused" }
                    ?? "; it wants a credential: set TYPIST_TOKEN (sent as Authorization: Bearer), or at the prompt token = … then :graphql"
            }
            return GraphQLSchemaError(text)
        case .timedOut(_, let limit):
            return DocumentUnreachable("cannot reach \(endpoint.shown): no complete answer within \(limit)")
        default:
            return GraphQLSchemaError("cannot read the schema of \(endpoint.shown): \(error)")
        }
    }
}
