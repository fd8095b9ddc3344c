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
}

/// Registers one typed endpoint as a script function.
///
/// ```swift
/// Register("post", summary: "One post by id", Parameter<Int>("id")) { id in Endpoint.post(id: id) }
/// ```
///
/// Parameters are a pack: any number, each with its own Swift type, converted from script values
/// with an error at the argument's place (`user(id: "x")`: "'x' is not a UUID").
public struct Register: RegistryContent {
    public let registrations: [PendingRegistration]

    /// Registers an endpoint whose response decodes from JSON (or is `String` or `Data`).
    ///
    /// - Parameters:
    ///   - name: The script function's name.
    ///   - summary: A one-line summary for `:endpoints` and help.
    ///   - parameters: The parameters, each with a label (or none) and a Swift type.
    ///   - storesToken: For a login endpoint: the token to keep in the session after a call.
    ///   - endpoint: Makes the endpoint from the converted arguments.
    public init<each P: ScriptArgument, Kind: ShellKind, Response: Decodable & Sendable>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        storesToken: (@Sendable (Response) -> String?)? = nil,
        file: String = #fileID, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Response>
    ) {
        registrations = [Self.pending(
            name, summary: summary, repeat each parameters, location: "\(file):\(line)", endpoint: endpoint,
            producesToken: storesToken != nil,
            responseType: { bridge in try bridge.scriptType(of: Response.self) },
            // A login's token comes from the Swift model: it goes the typed way.
            fastPlan: { bridge in storesToken == nil ? bridge.fastPlan(for: Response.self) : nil },
            convert: { response, bridge in (bridge.value(of: response), storesToken?(response)) })]
    }

    /// Registers an endpoint that answers with no content (`Void`), such as a `DELETE`.
    public init<each P: ScriptArgument, Kind: ShellKind>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        file: String = #fileID, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Void>
    ) {
        registrations = [Self.pending(
            name, summary: summary, repeat each parameters, location: "\(file):\(line)", endpoint: endpoint,
            producesToken: false, responseType: { _ in .void }, fastPlan: { _ in nil },
            convert: { _, _ in (.void, nil) })]
    }

    /// One registration: converts arguments with the parameter pack, builds the endpoint, takes the
    /// kind's request data from the session, sends, and bridges the response.
    private static func pending<each P: ScriptArgument, Kind: ShellKind, Response>(
        _ name: String, summary: String, _ parameters: repeat Parameter<each P>, location: String,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Response>, producesToken: Bool,
        responseType: @escaping @Sendable (ValueBridge) throws -> ScriptType,
        fastPlan: @escaping @Sendable (ValueBridge) -> FastPlan?,
        convert: @escaping @Sendable (Response, ValueBridge) -> (value: Value, token: String?)
    ) -> PendingRegistration {
        var infos: [ParameterInfo] = []
        for parameter in repeat each parameters { infos.append(parameter.info) }
        let parameterInfos = infos
        let make: @Sendable ([Value]) throws -> Endpoint<Kind, Response> = { values in
            let reader = ArgumentReader(values)
            return endpoint(repeat try reader.next(each parameters))
        }
        let selector = "\(name)(\(parameterInfos.map { ($0.label ?? "_") + ":" }.joined()))"
        return PendingRegistration(name: name, group: "", build: { bridge in
            let shape: ScriptType
            do {
                shape = try responseType(bridge)
            } catch {
                throw RegistryError.unsupportedType(name: name, location: location, reason: String(describing: error))
            }
            return EndpointRegistration(
                name: name, summary: summary, group: "", parameters: parameterInfos,
                kindName: _typeName(Kind.self, qualified: false), responseTypeName: SwiftTypeName.of(Response.self),
                responseType: shape, producesToken: producesToken, location: location,
                plan: { values in
                    let endpoint = try make(values)
                    return CallPlan(
                        prepare: { client, session in
                            try client.prepare(endpoint, with: try Kind.requestData(from: session, calling: selector))
                        },
                        send: { client, session in
                            let data = try Kind.requestData(from: session, calling: selector)
                            // The plan is worked out at the first call (not at start-up), then cached.
                            guard endpoint.decoding.isPlainJSON, let plan = fastPlan(bridge) else {
                                return convert(try await client.send(endpoint, with: data), bridge)
                            }
                            // JSON straight into values in one pass; the endpoint's own decoding
                            // when the plan gives up, so errors are the usual ones.
                            let typed = endpoint.decoding
                            let direct = endpoint.redecoded(ResponseDecoding<DirectResult<Response>>(
                                accept: typed.accept, checksContentType: typed.checksContentType
                            ) { context in
                                if let value = FastJSONReader.value(from: context.body, plan: plan,
                                                                    decoder: context.decoder) {
                                    return .value(value)
                                }
                                do {
                                    return .model(try typed.decode(context))
                                } catch {
                                    throw DecodingFailure(error, decoding: Response.self, body: context.body)
                                }
                            })
                            switch try await client.send(direct, with: data) {
                            case .value(let value): return (value, nil)
                            case .model(let response): return convert(response, bridge)
                            }
                        })
                })
        })
    }
}

/// A response read straight into a script value, or decoded into the Swift model.
private enum DirectResult<Response> {
    case value(Value)
    case model(Response)
}

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

/// Builds registries from `Register` and `Group` statements.
@resultBuilder
public enum RegistryBuilder {
    public static func buildExpression(_ content: any RegistryContent) -> [any RegistryContent] { [content] }
    public static func buildBlock(_ parts: [any RegistryContent]...) -> [any RegistryContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any RegistryContent]?) -> [any RegistryContent] { part ?? [] }
    public static func buildEither(first: [any RegistryContent]) -> [any RegistryContent] { first }
    public static func buildEither(second: [any RegistryContent]) -> [any RegistryContent] { second }
    public static func buildArray(_ parts: [[any RegistryContent]]) -> [any RegistryContent] { parts.flatMap { $0 } }
}

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
            "cannot register '\(name)' (at \(location)): not a valid script name"
        }
    }
}

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
            guard let first = registration.name.first, first.isLetter || first == "_",
                registration.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else {
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
