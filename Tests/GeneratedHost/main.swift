// A host built from what `typist generate` wrote for the demo service's OpenAPI document, in
// Generated/ (not a product). `GeneratedHostTests` checks that Generated/ is what `typist generate`
// writes today, and that this host's registry gives the shell the same functions and types as
// the document read directly. To refresh it after the document changes:
//   typist generate --openapi openapi.yaml --output Tests/GeneratedHost/Generated
// with the document saved from `DemoOpenAPI.document` (or the demo's `GET /openapi.yaml`) as openapi.yaml.
import Foundation
import TypistCore

let registry = try EndpointRegistry { typistDemoServiceEndpoints }
print(registry.typeSummary.joined(separator: "\n"))
