import APIScript
import Foundation
import TypedAPI

/// A named group of endpoints, listed together by `:endpoints`.
public struct Group: RegistryContent {
    public let registrations: [PendingRegistration]

    /// Creates a group.
    public init(_ name: String, @RegistryBuilder _ content: () -> [any RegistryContent]) {
        registrations = content().flatMap(\.registrations).map { pending in
            var pending = pending
            if pending.group.isEmpty { pending.group = name }
            return pending
        }
    }
}
