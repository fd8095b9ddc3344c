import APIScript
import Foundation
import TypedAPI

/// Every endpoint a host registers, with the record types of their responses.
public struct EndpointRegistry: Sendable {
    /// The endpoints, in registration order.
    public let endpoints: [EndpointRegistration]
    /// The record types their responses use.
    public let recordTypes: [RecordType]
    let bridge: ValueBridge

    /// Builds a registry, deriving every response's shape from its Swift type.
    ///
    /// - Throws: ``RegistryError`` naming the registration at fault.
    public init(@RegistryBuilder _ content: () -> [any RegistryContent]) throws {
        let bridge = ValueBridge()
        var endpoints: [EndpointRegistration] = []
        var seen: [String: String] = [:]
        for pending in content().flatMap(\.registrations) {
            var registration = try pending.build(bridge)
            registration.group = pending.group.isEmpty ? "Endpoints" : pending.group
            if ScriptNames.problem(with: registration.name) != nil || Shell.sessionGlobalNames.contains(registration.name) {
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
        self.recordTypes = bridge.recordTypes
    }

    /// An endpoint by name.
    public func endpoint(named name: String) -> EndpointRegistration? {
        endpoints.first { $0.name == name }
    }

    /// The group names in first-registration order.
    public var groups: [String] {
        var result: [String] = []
        for endpoint in endpoints where !result.contains(endpoint.group) { result.append(endpoint.group) }
        return result
    }
}
