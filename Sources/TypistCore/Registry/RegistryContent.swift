import APIScript
import Foundation
import TypedAPI

/// Something a registry is built from: one endpoint, or a group of them.
public protocol RegistryContent: Sendable {
    /// The registrations it holds.
    var registrations: [PendingRegistration] { get }
}

/// A registration before its shapes are derived (which happens when the registry is built).
public struct PendingRegistration: Sendable {
    let name: String
    var group: String
    let build: @Sendable (ValueBridge) throws -> EndpointRegistration

    /// A registration made by another source than Swift registrations (an OpenAPI document).
    package init(name: String, group: String, build: @escaping @Sendable (ValueBridge) throws -> EndpointRegistration) {
        self.name = name
        self.group = group
        self.build = build
    }
}
