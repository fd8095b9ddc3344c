// A host built from what `typist generate` wrote for the demo service's OpenAPI document, in
// Generated/ (not a product), and — with an argument — for parts of three real documents, each a
// module of its own in Tests/GeneratedDocuments. `GeneratedHostTests` checks that each folder is
// what `typist generate` writes today, and that each registry gives the shell the same functions
// and types as the document read directly. To refresh Generated/ after the document changes:
//   typist generate --openapi openapi.yaml --output Tests/GeneratedHost/Generated
// with the document saved from `DemoOpenAPI.document` (or the demo's `GET /openapi.yaml`) as
// openapi.yaml; Tests/GeneratedDocuments/README.md says how the others are made.
import Foundation
import GeneratedGHES
import GeneratedGoogleBooks
import GeneratedGraphQLTracker
import GeneratedPetstore
import TypedAPI
import TypistCore

// `ghes-open`: an open model (`additionalProperties` in the document) decoded, its other keys
// kept, and encoded again whole.
if CommandLine.arguments.dropFirst().first == "ghes-open" {
    let sent = Data(#"{"issues": "read", "pages": "write", "checks": "none"}"#.utf8)
    let permissions = try JSONDecoder().decode(IntegrationPermissions.self, from: sent)
    print("issues: \(permissions.issues ?? "nil"); other keys: \(permissions.additionalProperties.sorted { $0.key < $1.key })")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    print(String(decoding: try encoder.encode(permissions), as: UTF8.self))
    exit(0)
}

// `graphql-call URL`: a generated GraphQL endpoint called through the typed client, as a host's
// code calls it: the repository's name and its first page of issues, then a service error thrown.
if CommandLine.arguments.dropFirst().first == "graphql-call", CommandLine.arguments.count == 3 {
    let client = APIClient(environment: try ServerEnvironment(url: CommandLine.arguments[2]), transport: URLSessionTransport())
    let result = try await client.send(Endpoint<Public, RepositoryQuery>.repository(owner: "t", name: "typist", states: [.CLOSED]))
    // `number` is read through the fragment's own type, as code shared between operations reads it.
    print("\(result.repository?.name ?? "nil"): \(result.repository?.issues.nodes.map(\.issueParts.number) ?? [])")
    do {
        _ = try await client.send(Endpoint<Public, GhostQuery>.ghost)
    } catch {
        print("ghost: \(error)")
    }
    exit(0)
}

let group = switch CommandLine.arguments.dropFirst().first {
case "graphql-tracker": graphQLOperations
case "petstore": swaggerPetstoreOpenAPI30Endpoints
case "google-books": booksAPIEndpoints
case "ghes": gitHubV3RESTAPIEndpoints
default: typistDemoServiceEndpoints
}
let registry = try EndpointRegistry { group }
print(registry.typeSummary.joined(separator: "\n"))
