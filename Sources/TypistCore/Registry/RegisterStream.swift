import APIScript
import Foundation
import TypedAPI

/// Registers a streaming endpoint — server-sent events or JSON Lines — as a script function that
/// returns a stream of its items, each decoded into the endpoint's `Item` type.
///
/// ```swift
/// RegisterStream("events", summary: "Build events as they happen", Parameter<Int>("count", default: 10)) { count in
///     Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: String(count))]), path: "/events")
/// }
/// ```
///
/// A script reads it with `for try await event in events(count: 3) { … }`, or narrows it first
/// (`events().prefix(3)`, `.filter { … }`, `.map(\.status)`, `.first { … }`); at the prompt its items
/// print as they arrive. It is sent with `APIClient.stream(_:with:)`: nothing goes out until the
/// stream is read, the session's time limit applies to each gap between items, and leaving the
/// read early closes the connection. The session's transport must stream (libcurl and
/// AsyncHTTPClient do).
public struct RegisterStream: RegistryContent {
    public let registrations: [PendingRegistration]

    /// Registers a streaming endpoint whose items decode from JSON.
    ///
    /// - Parameters:
    ///   - name: The script function's name.
    ///   - summary: A one-line summary for `:endpoints` and help.
    ///   - parameters: The parameters, each with a label (or none) and a Swift type.
    ///   - file: Where the registration is written (`#fileID`), for errors about it.
    ///   - filePath: The same file's path (`#filePath`), for `:source`.
    ///   - line: Its line (`#line`).
    ///   - endpoint: Makes the endpoint from the converted arguments; its response type is the
    ///     type of one item.
    public init<each P: ScriptArgument, Kind: ShellKind, Item: Decodable & Sendable>(
        _ name: String, summary: String = "", _ parameters: repeat Parameter<each P>,
        file: String = #fileID, filePath: String = #filePath, line: Int = #line,
        endpoint: @escaping @Sendable (repeat each P) -> Endpoint<Kind, Item>
    ) {
        let (parameterInfos, make) = Register.converting(repeat each parameters, endpoint: endpoint)
        let location = "\(file):\(line)"
        let selector = EndpointRegistration.selector(name, labels: parameterInfos.map(\.label))
        registrations = [PendingRegistration(name: name, group: "", build: { bridge in
            let shape = ResponseShape { () throws(RegistryError) -> ScriptType in
                do {
                    return .stream(try bridge.scriptType(of: Item.self))
                } catch {
                    throw RegistryError.unsupportedType(name: name, location: location, reason: String(describing: error))
                }
            }
            var registration = EndpointRegistration(
                name: name, summary: summary, group: "", parameters: parameterInfos,
                kindName: SwiftTypeName.unqualified(Kind.self), responseTypeName: SwiftTypeName.of(Item.self),
                shape: shape, producesToken: false, location: location, source: (filePath, line),
                modules: SwiftTypeName.modules(of: Kind.self, Item.self),
                plan: { values in
                    let endpoint = try make(values)
                    return CallPlan(
                        body: endpoint.method.body?.value, envelopeKey: nil,
                        prepare: { client, session in
                            var request = try client.prepare(endpoint, with: try Kind.requestData(from: session, calling: selector))
                            request.acceptStreams()
                            return request
                        },
                        send: { client, call in
                            // The credential (and the call's context) is taken now; the request
                            // goes out each time the stream is read.
                            let data = try Kind.requestData(from: call.credentials, calling: selector)
                            let items = client.stream(endpoint, with: data, context: call.context)
                            let stream = ScriptStream(origin: selector) { BridgedItems(items) { bridge.value(of: $0) } }
                            return (.stream(stream), nil)
                        },
                        sample: { SampleJSON.body(plan: bridge.readingPlan(for: Item.self), type: try? bridge.scriptType(of: Item.self)) })
                })
            registration.streams = true
            return registration
        })]
    }
}

/// A typed stream's items as script values.
struct BridgedItems<Item: Decodable & Sendable>: AsyncSequence {
    typealias Element = Value
    typealias Failure = any Error
    let base: ItemStream<Item>
    let convert: @Sendable (Item) -> Value

    init(_ base: ItemStream<Item>, _ convert: @escaping @Sendable (Item) -> Value) {
        self.base = base
        self.convert = convert
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: ItemStream<Item>.Iterator
        let convert: @Sendable (Item) -> Value

        mutating func next() async throws -> Value? { try await next(isolation: nil) }

        mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
            try await base.next(isolation: actor).map(convert)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), convert: convert) }
}
