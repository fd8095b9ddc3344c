import APIScript
import Foundation
import TypedAPI

/// A typed endpoint registered as a script function, with what help and `:describe` show.
public struct EndpointRegistration: Sendable {
    /// The script function's name.
    public internal(set) var name: String
    /// A one-line summary.
    public let summary: String
    /// The group it is listed under (`:endpoints`).
    public internal(set) var group: String
    /// Its parameters.
    public let parameters: [ParameterInfo]
    /// The endpoint kind's name, such as `Bearer`.
    public let kindName: String
    /// The response's Swift type, such as `[Post]`.
    public let responseTypeName: String
    /// The response's shape, derived from the Swift type before any call — the first time it is
    /// asked for. `Any` when the type cannot be read (``shapeFailure`` says why).
    public var responseType: ScriptType { (try? shape.derived.get()) ?? .any }
    /// Why the response's shape could not be derived, if it could not.
    public var shapeFailure: RegistryError? {
        if case .failure(let error) = shape.derived { return error }
        return nil
    }
    let shape: ResponseShape
    /// Whether a successful call stores a token in the session.
    public let producesToken: Bool
    /// The kinds a call may be sent as, any one of which will do (an OpenAPI operation's security
    /// alternatives); empty for just ``kindName``.
    package var acceptedKinds: [String] = []
    /// The positions of arguments that, when a call passes them, make its result optional: a
    /// conditional `GET`'s `ifNoneMatch:` where the document declares `304 Not Modified`, which
    /// the call returns as `nil`.
    package var optionalWhenGiven: [Int] = []
    /// The Swift that declares the endpoint and its models, for `:swift`, when no Swift source
    /// declares it (an OpenAPI document's operation: what `typist generate` writes for it).
    package var swiftDeclaration: (@Sendable () -> String)?
    /// The method and path template (`GET`, `/repos/{owner}/{repo}`) when its source says them (an
    /// OpenAPI document's operation): how `cassette verify` finds the type of an untyped call.
    package var route: (method: String, path: String)?
    /// Whether a call gives a stream of items (``RegisterStream``) rather than one response; its
    /// response type is then one item's.
    package var streams = false
    /// Why a script should not call it, when its source deprecates it (a document's
    /// `deprecated: true`): the checker warns where it is called.
    package var deprecation: String?
    /// Why a call sends none of the session's credentials although the session may hold some
    /// (a document's operation that declares no security, Kinto's `/batch`): said once a
    /// session, at the first such call made while the session holds one.
    package var unsecuredNote: String?
    /// The variable a GraphQL operation's Relay connection takes its `after:` cursor in, when it
    /// selects the connection's `pageInfo`: `pages { … }` sends each page's `endCursor` in it.
    package var cursorVariable: String?
    /// Where it was registered, for start-up errors.
    let location: String
    /// The registration's file path and line, for `:source`.
    let source: (path: String, line: Int)
    /// The modules its kind and response type come from (not Swift's or Foundation's), for the
    /// imports `:swift` writes.
    var modules: [String] = []
    private(set) var plan: @Sendable ([Value]) throws -> CallPlan
    /// The server its calls go to when it is not the session's (an operation of a document added
    /// beside the session's own endpoints, at its document's server).
    package private(set) var server: ServerEnvironment?

    /// This endpoint, its calls (and what `:curl` and `:swift` show of them) sent to `server`
    /// rather than to the session's base URL.
    package func sending(to server: ServerEnvironment) -> EndpointRegistration {
        var copy = self
        let original = plan
        copy.server = server
        copy.plan = { values in
            var plan = try original(values)
            let (prepare, send) = (plan.prepare, plan.send)
            plan.prepare = { client, credentials in try prepare(client.replacingEnvironment(with: server), credentials) }
            plan.send = { client, call in try await send(client.replacingEnvironment(with: server), call) }
            return plan
        }
        return copy
    }

    /// How well a request's method and URL path fit this endpoint's route: nil when they do not
    /// (its template's `{name}` segments match any one segment; a server's base path before it is
    /// allowed), else a score that is higher for a longer template and, among those, for more
    /// literal segments (`/users/me` before `/users/{id}`).
    package func routeScore(method: String, path: String) -> Int? {
        guard let route, route.method == method.uppercased() else { return nil }
        let template = route.path.split(separator: "/")
        let segments = path.split(separator: "/")
        guard segments.count >= template.count else { return nil }
        var literals = 0
        for (pattern, segment) in zip(template, segments.suffix(template.count)) {
            if pattern.hasPrefix("{") && pattern.hasSuffix("}") { continue }
            guard pattern == segment else { return nil }
            literals += 1
        }
        return template.count * 1000 + literals
    }

    /// `post(id: Int) -> Endpoint<Public, Post>`.
    public var swiftSignature: String {
        let list = parameters.map { parameter in
            let label = parameter.label.map { "\($0): " } ?? "_ \(parameter.name): "
            let defaultText = parameter.defaultLiteral.map { " = \($0)" } ?? ""
            return label + parameter.swiftType + defaultText
        }.joined(separator: ", ")
        return "\(name)(\(list)) -> Endpoint<\(kindName), \(responseTypeName)>"
    }

    /// `post(id:)`.
    public var selector: String { Self.selector(name, labels: parameters.map(\.label)) }

    /// `name(label:_:)`: the one spelling of a function's selector, for messages.
    package static func selector(_ name: String, labels: [String?]) -> String {
        "\(name)(\(labels.map { ($0 ?? "_") + ":" }.joined()))"
    }
}

extension EndpointRegistration {
    /// An endpoint from another source than a Swift registration (an OpenAPI document), whose
    /// response type is known as a model already.
    package init(name: String, summary: String, group: String, parameters: [ParameterInfo], kindName: String,
                 responseTypeName: String, responseType: ScriptType, producesToken: Bool = false,
                 location: String, source: (path: String, line: Int),
                 plan: @escaping @Sendable ([Value]) throws -> CallPlan) {
        self.init(name: name, summary: summary, group: group, parameters: parameters, kindName: kindName,
                  responseTypeName: responseTypeName, shape: ResponseShape { responseType }, producesToken: producesToken,
                  location: location, source: source, plan: plan)
    }
}
