import APIScript
import Foundation
import TypedAPI

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
    ///   - file: Where the registration is written (`#fileID`), for errors about it.
    ///   - filePath: The same file's path (`#filePath`), for `:source`.
    ///   - line: Its line (`#line`).
    ///   - endpoint: Makes the endpoint from the converted arguments.
    public init<each P: ScriptArgument, Kind: ShellKind, Response: Decodable & Sendable>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        storesToken: (@Sendable (Response) -> String?)? = nil,
        file: String = #fileID, filePath: String = #filePath, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Response>
    ) {
        registrations = [Self.pending(
            name, summary: summary, repeat each parameters, location: "\(file):\(line)", source: (filePath, line), endpoint: endpoint,
            producesToken: storesToken != nil,
            responseType: { bridge in try bridge.scriptType(of: Response.self) },
            // A login's token comes from the Swift model: it goes the typed way.
            readingPlan: { bridge in storesToken == nil ? bridge.readingPlan(for: Response.self) : nil },
            convert: { response, bridge in (bridge.value(of: response), storesToken?(response)) })]
    }

    /// Registers an endpoint that answers with no content (`Void`), such as a `DELETE`.
    public init<each P: ScriptArgument, Kind: ShellKind>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        file: String = #fileID, filePath: String = #filePath, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Void>
    ) {
        registrations = [Self.pending(
            name, summary: summary, repeat each parameters, location: "\(file):\(line)", source: (filePath, line), endpoint: endpoint,
            producesToken: false, responseType: { _ in .void }, readingPlan: { _ in nil },
            convert: { _, _ in (.void, nil) })]
    }

    /// An endpoint made with `.includingResponse()` cannot be registered: the shell shows values,
    /// and keeps every call's status and headers in the session's `response`.
    @available(*, unavailable, message: "register the endpoint without .includingResponse(): scripts get the value, and every call's status and headers are in the session's 'response'")
    public init<each P: ScriptArgument, Kind: ShellKind, Response>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        file: String = #fileID, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, APIResponse<Response>>
    ) {
        registrations = []
    }

    /// One registration: converts arguments with the parameter pack, builds the endpoint, takes the
    /// kind's request data from the session, sends, and bridges the response.
    private static func pending<each P: ScriptArgument, Kind: ShellKind, Response>(
        _ name: String, summary: String, _ parameters: repeat Parameter<each P>, location: String,
        source: (path: String, line: Int),
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Response>, producesToken: Bool,
        responseType: @escaping @Sendable (ValueBridge) throws -> ScriptType,
        readingPlan: @escaping @Sendable (ValueBridge) -> ReadingPlan?,
        convert: @escaping @Sendable (Response, ValueBridge) -> (value: Value, token: String?)
    ) -> PendingRegistration {
        let (parameterInfos, make) = converting(repeat each parameters, endpoint: endpoint)
        let selector = EndpointRegistration.selector(name, labels: parameterInfos.map(\.label))
        return PendingRegistration(name: name, group: "", build: { bridge in
            // Derived when first asked for (a call checked, `:describe`, completion), not at start-up.
            let shape = ResponseShape { () throws(RegistryError) -> ScriptType in
                do {
                    return try responseType(bridge)
                } catch {
                    throw RegistryError.unsupportedType(name: name, location: location, reason: String(describing: error))
                }
            }
            return EndpointRegistration(
                name: name, summary: summary, group: "", parameters: parameterInfos,
                kindName: SwiftTypeName.unqualified(Kind.self), responseTypeName: SwiftTypeName.of(Response.self),
                shape: shape, producesToken: producesToken, location: location, source: source,
                modules: SwiftTypeName.modules(of: Kind.self, Response.self),
                plan: { values in
                    let endpoint = try make(values)
                    return CallPlan(
                        body: endpoint.method.body?.value, envelopeKey: endpoint.decoding.envelopeKey,
                        prepare: { client, session in
                            try client.prepare(endpoint, with: try Kind.requestData(from: session, calling: selector))
                        },
                        send: { client, call in
                            let data = try Kind.requestData(from: call.credentials, calling: selector)
                            // The plan is worked out at the first call (not at start-up), then cached.
                            guard endpoint.decoding.isPlainJSON, let plan = readingPlan(bridge) else {
                                return convert(try await client.send(endpoint, with: data, context: call.context), bridge)
                            }
                            // JSON straight into values in one pass; the endpoint's own decoding
                            // when the plan gives up, so errors are the usual ones.
                            let typed = endpoint.decoding
                            let direct = endpoint.redecoded(ResponseDecoding<DirectResult<Response>>(
                                accept: typed.accept, checksContentType: typed.checksContentType
                            ) { context in
                                if let value = JSONReader.value(from: context.body, plan: plan,
                                                                    decoder: context.decoder) {
                                    return .value(value)
                                }
                                do {
                                    return .model(try typed.decode(context))
                                } catch {
                                    throw DecodingFailure(error, decoding: Response.self, body: context.body)
                                }
                            })
                            switch try await client.send(direct, with: data, context: call.context) {
                            case .value(let value): return (value, nil)
                            case .model(let response): return convert(response, bridge)
                            }
                        },
                        sample: { SampleJSON.body(plan: readingPlan(bridge), type: try? responseType(bridge)) })
                })
        })
    }
}

extension Register {
    /// The parameters' infos, and the endpoint made from script values: each converted with the
    /// parameter pack, with an error at the argument's place.
    static func converting<each P: ScriptArgument, Kind: ShellKind, Response>(
        _ parameters: repeat Parameter<each P>, endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Response>
    ) -> (infos: [ParameterInfo], make: @Sendable ([Value]) throws -> Endpoint<Kind, Response>) {
        var infos: [ParameterInfo] = []
        for parameter in repeat each parameters { infos.append(parameter.info) }
        return (infos, { values in
            let reader = ArgumentReader(values)
            return endpoint(repeat try reader.next(each parameters))
        })
    }
}

/// A response read straight into a script value, or decoded into the Swift model.
private enum DirectResult<Response> {
    case value(Value)
    case model(Response)
}
