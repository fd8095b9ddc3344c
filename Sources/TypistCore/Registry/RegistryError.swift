import APIScript
import Foundation
import TypedAPI

/// Why a registry could not be built.
public enum RegistryError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Two registrations share a name.
    case duplicateName(String, first: String, second: String)
    /// A response type whose shape cannot be derived.
    case unsupportedType(name: String, location: String, reason: String)
    /// A name scripts cannot use.
    case invalidName(String, location: String)

    /// Where and what.
    public var description: String {
        switch self {
        case .duplicateName(let name, let first, let second):
            "'\(name)' is registered twice (at \(first) and at \(second))"
        case .unsupportedType(let name, let location, let reason):
            "cannot register '\(name)' (at \(location)): \(reason)"
        case .invalidName(let name, let location):
            "cannot register '\(name)' (at \(location)): "
                + (ScriptNames.problem(withHostName: name) ?? "'\(name)' cannot name an endpoint")
        }
    }
}
