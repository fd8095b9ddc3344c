import APIScript
import Foundation
import TypedAPI

/// Every endpoint a host registers, with the record types of their responses.
public struct EndpointRegistry: Sendable {
    /// The endpoints, in registration order.
    public let endpoints: [EndpointRegistration]
    /// The record types their responses use (every endpoint's shape is derived to list them).
    public var recordTypes: [RecordType] {
        for endpoint in endpoints { _ = endpoint.shape.derived }
        return bridge.recordTypes
    }
    let bridge: ValueBridge

    /// Builds a registry. Each response's shape is derived from its Swift type when first asked
    /// for; a type that cannot be read makes that endpoint's ``EndpointRegistration/shapeFailure``,
    /// which its calls report, and ``validate()`` finds at once.
    ///
    /// - Throws: ``RegistryError`` naming the registration at fault: a name registered twice or
    ///   one scripts cannot use.
    public init(@RegistryBuilder _ content: () -> [any RegistryContent]) throws {
        let bridge = ValueBridge()
        var endpoints: [EndpointRegistration] = []
        var seen: [String: String] = [:]
        for pending in content().flatMap(\.registrations) {
            var registration = try pending.build(bridge)
            registration.group = pending.group.isEmpty ? "Endpoints" : pending.group
            // A host's names win over the shell's: a session property or built-in it takes stays
            // reachable as `session.name` or `Swift.name`.
            if ScriptNames.problem(withHostName: registration.name) != nil {
                throw RegistryError.invalidName(registration.name, location: registration.location)
            }
            if let earlier = seen[registration.name] {
                throw RegistryError.duplicateName(registration.name, first: earlier, second: registration.location)
            }
            seen[registration.name] = registration.location
            endpoints.append(registration)
        }
        self.endpoints = endpoints
        self.bridge = bridge
    }

    private init(endpoints: [EndpointRegistration], bridge: ValueBridge) {
        self.endpoints = endpoints
        self.bridge = bridge
    }

    /// This registry with more endpoints after its own (an OpenAPI document's, given at start-up).
    /// A name the registry has already is taken by the earlier endpoint; the later one gets a
    /// number (`listPets2`) and a warning says so.
    package func adding(_ pending: [PendingRegistration]) throws -> (registry: EndpointRegistry, warnings: [String]) {
        var endpoints = self.endpoints
        var taken = Set(endpoints.map(\.name))
        var warnings: [String] = []
        for item in pending {
            var registration = try item.build(bridge)
            registration.group = item.group.isEmpty ? "Endpoints" : item.group
            if ScriptNames.problem(withHostName: registration.name) != nil {
                throw RegistryError.invalidName(registration.name, location: registration.location)
            }
            if taken.contains(registration.name) {
                var counter = 2
                while taken.contains(registration.name + String(counter)) { counter += 1 }
                warnings.append("\(registration.location): '\(registration.name)' is taken; this one is '\(registration.name)\(counter)'")
                registration.name += String(counter)
            }
            taken.insert(registration.name)
            endpoints.append(registration)
        }
        return (EndpointRegistry(endpoints: endpoints, bridge: bridge), warnings)
    }

    /// This registry with its endpoints from `index` on replaced (renamed ones, after `adding`).
    func replacing(endpointsFrom index: Int, with endpoints: [EndpointRegistration]) -> EndpointRegistry {
        EndpointRegistry(endpoints: Array(self.endpoints.prefix(index)) + endpoints, bridge: bridge)
    }

    /// Derives every response's shape now, throwing the first type that cannot be read: for a
    /// host's own tests, or a start-up that prefers failing early to starting fast.
    public func validate() throws(RegistryError) {
        for endpoint in endpoints { _ = try endpoint.shape.derived.get() }
    }

    /// An endpoint by name.
    public func endpoint(named name: String) -> EndpointRegistration? {
        endpoints.first { $0.name == name }
    }

    /// The endpoint whose route fits a request's method and path best (`/posts/{postId}/comments`
    /// before `/comments` for `/posts/2/comments`; `/users/me` before `/users/{id}`), among those
    /// that have routes (a document's operations).
    package func endpoint(routing method: String, _ path: String) -> EndpointRegistration? {
        var best: (endpoint: EndpointRegistration, score: Int)?
        for endpoint in endpoints {
            guard let score = endpoint.routeScore(method: method, path: path), score > best?.score ?? -1 else { continue }
            best = (endpoint, score)
        }
        return best?.endpoint
    }

    /// What the registry gives the shell, one line each, sorted: every endpoint as
    /// `name(label: Type, …) Kind -> Response`, then every record its responses reach with its
    /// fields. Two registries that agree here give scripts the same functions and types (a
    /// document's, and the Swift `typist generate` wrote for it).
    package var typeSummary: [String] { typeSummary(of: endpoints) }

    /// ``typeSummary`` of some of its endpoints, and the records they reach.
    package func typeSummary(only names: Set<String>) -> [String] {
        typeSummary(of: endpoints.filter { names.contains($0.name) })
    }

    private func typeSummary(of endpoints: [EndpointRegistration]) -> [String] {
        var records: [String: RecordType] = [:]
        func reach(_ type: ScriptType) {
            switch type {
            case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped), .stream(let wrapped): reach(wrapped)
            case .record(let record):
                guard records.updateValue(record, forKey: record.name) == nil else { return }
                for field in record.fields { reach(field.type) }
            default: break
            }
        }
        let lines = endpoints.map { endpoint in
            reach(endpoint.responseType)
            let parameters = endpoint.parameters.map { "\($0.label ?? "_"): \($0.scriptType)" }.joined(separator: ", ")
            return "\(endpoint.name)(\(parameters)) \(endpoint.kindName) -> \(endpoint.responseType)"
        }
        return lines.sorted() + records.values.map(\.description).sorted()
    }

    /// The group names in first-registration order.
    public var groups: [String] {
        var result: [String] = []
        for endpoint in endpoints where !result.contains(endpoint.group) { result.append(endpoint.group) }
        return result
    }
}
