import APIScript
import Foundation
import Synchronization
import TypedAPI

/// The one way a script's call goes out: a registered endpoint's (a Swift registration's or a
/// document's operation), an untyped one (`httpGet`, …), a stream — each from its arguments to a
/// value, through the session's client.
///
/// A registration only says how to prepare a request and read its answer (its ``CallPlan``); the
/// router takes the credentials, builds the call's ``TypedAPI/CallContext`` — its label for a
/// cassette, a preview's sample, a page's follower — and hands it to the client, whose middlewares
/// (``SessionLog/chain(for:host:)``) do the cross-cutting work. A failure is kept for `:last` and
/// given its advice here.
///
/// What an input runs under — a preview, `--validate` — is the router's state for that input
/// (``running(preview:validation:_:)``): a shell runs one input at a time.
final class CallRouter: Sendable {
    let client: APIClient
    let session: Session
    let output: ShellOutput
    private let mode = Mutex(Mode())

    /// What the input under way runs under.
    private struct Mode {
        var preview: Preview?
        var validation: ResponseValidation?
    }

    init(client: APIClient, session: Session, output: ShellOutput) {
        self.client = client
        self.session = session
        self.output = output
    }

    /// The preview the input under way runs in, if any.
    var preview: Preview? { mode.withLock { $0.preview } }

    /// Runs `body` (an input) in a preview and with a validation, or neither; what was before after.
    func running<T>(preview: Preview?, validation: ResponseValidation?, _ body: () async throws -> T) async rethrows -> T {
        let before = mode.withLock { mode in
            defer { mode = Mode(preview: preview ?? mode.preview, validation: validation ?? mode.validation) }
            return mode
        }
        defer { mode.withLock { $0 = before } }
        return try await body()
    }

    // MARK: Registered endpoints

    /// A registered endpoint's call: its plan sent with the session's credentials, or in a preview
    /// answered with its sample.
    func call(_ endpoint: EndpointRegistration, _ values: [Value], scope: HostScope, registry: EndpointRegistry) async throws -> Value {
        // A response type the shell cannot read is reported where the endpoint is called.
        if let failure = endpoint.shapeFailure { throw failure }
        let plan: CallPlan
        do {
            plan = try endpoint.plan(values)
        } catch {
            session.update { $0.lastFailure = .init(function: endpoint.selector, error: error) }
            throw error
        }
        let (preview, validation) = mode.withLock { ($0.preview, $0.validation) }
        if endpoint.streams { return try await stream(endpoint, plan: plan, preview: preview, registry: registry) }
        let previewCall = preview.map { PreviewCall(preview: $0, sample: plan.sample()) }
        // A preview fills in what a call needs and the session lacks (`${TYPIST_TOKEN}` in `:curl`),
        // except for a call that may go without a credential (a GraphQL operation, a document's
        // optional security): it shows what it would send now.
        let credentials = preview == nil || endpoint.acceptedKinds.contains("Public") ? session.credentials : Preview.credentials(session.credentials)
        if preview == nil, let note = endpoint.unsecuredNote, credentials.holdsAny, session.firstUnsecuredNote() {
            output.error("note: \(note)\n")
        }
        if let follower = scope[PageFollower.self] { follower.cursorVariable = endpoint.cursorVariable }
        let context = Self.context(ExchangeLabel(endpoint: endpoint.name, responseType: endpoint.responseTypeName), scope: scope, preview: previewCall)
        let (value, token): (Value, String?)
        do {
            (value, token) = try await plan.send(client, CallSetup(credentials: credentials, context: context, validation: validation))
        } catch where previewCall?.wasAnswered == true {
            // The request is kept; a sample the Swift type does not take (an enum, a date)
            // leaves the rest of the expression a placeholder of the right shape.
            (value, token) = (SampleValue.of(endpoint.responseType), nil)
        } catch {
            session.update { $0.lastFailure = .init(function: endpoint.selector, error: error) }
            throw CallAdvice.wrapping(error, endpoint: endpoint, credentials: credentials, tls: client.environment.tls, registry: registry)
        }
        preview?.noteCall(answersList: endpoint.responseType.containsArray)
        guard let token else { return value }
        session.update { $0.credentials.token = token }
        session.remember(secret: token, as: "TYPIST_TOKEN")
        return Self.secretizing(token, in: value)
    }

    /// A streaming endpoint's call: the stream, which sends its request when it is read; in a
    /// preview, the request as it would go, and a stream of one sample item.
    private func stream(_ endpoint: EndpointRegistration, plan: CallPlan, preview: Preview?, registry: EndpointRegistry) async throws -> Value {
        let (selector, session, tls) = (endpoint.selector, session, client.environment.tls)
        do {
            if let preview {
                preview.keep(try plan.prepare(client, Preview.credentials(session.credentials)))
                preview.noteCall(answersList: false)
                return SampleValue.of(endpoint.responseType)
            }
            let credentials = session.credentials
            let context = CallContext(label: ExchangeLabel(endpoint: endpoint.name, responseType: endpoint.responseTypeName))
            guard case .stream(let stream) = try await plan.send(client, CallSetup(credentials: credentials, context: context)).value else {
                return .void
            }
            return .stream(stream.mappingErrors { error in
                session.update { $0.lastFailure = .init(function: selector, error: error) }
                return CallAdvice.wrapping(error, endpoint: endpoint, credentials: credentials, tls: tls, registry: registry)
            })
        } catch {
            session.update { $0.lastFailure = .init(function: selector, error: error) }
            throw CallAdvice.wrapping(error, endpoint: endpoint, credentials: session.credentials, tls: tls, registry: registry)
        }
    }

    // MARK: Untyped calls

    /// An untyped call (`httpGet(…)`, …): its answer whatever the status; in a preview, answered
    /// with an empty body.
    func untyped(_ request: UntypedRequest, scope: HostScope) async throws -> Value {
        let (client, credentials) = route(request)
        let preview = self.preview
        preview?.note(request)
        let previewCall = preview.map { PreviewCall(preview: $0, sample: Data()) }
        do {
            return try await request.send(client, credentials, context: Self.context(nil, scope: scope, preview: previewCall))
        } catch where previewCall?.wasAnswered == true {
            return SampleValue.of(.record(UntypedRequest.resultType))
        } catch {
            session.update { $0.lastFailure = .init(function: request.function + "(_:)", error: error) }
            throw CallAdvice.wrapping(error, notes: TLSAdvice.note(for: error, options: client.environment.tls).map { [$0] } ?? [])
        }
    }

    /// `httpStream(…)`: its items as they arrive; in a preview, the request and one sample item.
    func untypedStream(_ request: UntypedRequest) throws -> Value {
        let (client, credentials) = route(request)
        let (session, tls, origin) = (session, client.environment.tls, request.function + "(_:)")
        let advice = { @Sendable (error: any Error) -> any Error in
            session.update { $0.lastFailure = .init(function: origin, error: error) }
            return CallAdvice.wrapping(error, notes: TLSAdvice.note(for: error, options: tls).map { [$0] } ?? [])
        }
        do {
            if let preview {
                preview.keep(try request.prepareStream(client, credentials))
                preview.noteCall(answersList: false)
                return SampleValue.of(.stream(.any))
            }
            let items = try request.stream(client, credentials, context: CallContext(label: nil))
            return .stream(ScriptStream(origin: origin) { items.map { UntypedRequest.streamItem($0) } }.mappingErrors(advice))
        } catch {
            throw advice(error)
        }
    }

    /// Where an untyped call goes and what it may send: the session's client and credentials (in
    /// a preview too: `:curl` shows each as the variable it is remembered by), or for another
    /// origin a client of its own with none of them.
    private func route(_ request: UntypedRequest) -> (APIClient, SessionCredentials) {
        guard let origin = request.origin else { return (client, session.credentials) }
        return (client.crossOrigin(to: origin, session: session), SessionCredentials())
    }

    // MARK: Context

    /// A call's context: its label, the page follower `pages { … }` handed its closure, and in a
    /// preview its sample (a dry run).
    private static func context(_ label: ExchangeLabel?, scope: HostScope, preview: PreviewCall?) -> CallContext {
        var context = CallContext(label: label, isDryRun: preview != nil)
        context[PreviewKey.self] = preview
        context[PageKey.self] = scope[PageFollower.self]
        return context
    }

    /// The value with every string equal to `token` turned into a `Secret` (a login's answer).
    static func secretizing(_ token: String, in value: Value) -> Value {
        switch value {
        case .string(let text) where text == token: return .secret(text)
        case .record(var record):
            record.values = record.values.map { secretizing(token, in: $0) }
            return .record(record)
        case .array(let elements): return .array(elements.map { secretizing(token, in: $0) })
        case .dictionary(let entries): return .dictionary(entries.mapValues { secretizing(token, in: $0) })
        default: return value
        }
    }
}

extension APIClient {
    /// A client for another origin: this one's transport, time limit, plain headers (`User-Agent`)
    /// and the session's own stages, and none of its credentials, secret headers, cookies, host
    /// delegate or middlewares (which may sign requests) or client certificate; the exchange is
    /// still kept for `:last`.
    func crossOrigin(to origin: ServerEnvironment, session: Session) -> APIClient {
        var origin = origin
        origin.tls = environment.tls.forOtherOrigin
        var configuration = APIClient.Configuration(headers: defaultHeaders.filter { !Redaction.isSecretHeader($0.name) }, timeout: timeout)
        configuration.middlewares = SessionLog.chain(for: session, host: [])
        return APIClient(environment: origin, transport: transport, configuration: configuration)
    }
}
