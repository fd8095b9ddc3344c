import Foundation
import HTTPTypes
import Synchronization

/// Sends typed endpoints and returns their typed responses.
///
/// ```swift
/// let client = APIClient(environment: try ServerEnvironment(url: "https://api.example.com"),
///                        transport: URLSessionTransport())
/// let post: Post = try await client.send(.post(id: 1))
/// let hits = try await client.send(.search(query: "swift"), with: token)   // a Bearer endpoint
/// ```
///
/// The client builds the request from the endpoint, attaches what the endpoint's kind needs,
/// sends it through its transport, follows redirects (never carrying credentials to another
/// origin), validates status and content type, and decodes the response. Every failure is an
/// ``APIError``. Cancelling the calling task cancels the HTTP exchange.
public final class APIClient: Sendable {
    /// Settings fixed when the client is made.
    public struct Configuration: Sendable {
        /// Headers sent with every request, before the endpoint's own.
        public var headers: [HTTPHeader]
        /// The time limit for a call when the endpoint sets none.
        public var timeout: Duration
        /// How many redirects a call follows.
        public var maximumRedirects: Int
        /// Where the client keeps cookies servers set, to send them back where they belong
        /// (``CookieJar``); `nil`, the default, keeps none.
        public var cookies: CookieJar?
        /// Other environments the client can switch to by name.
        public var environments: [ServerEnvironment]
        /// The encoder for JSON bodies.
        public var encoder: JSONEncoder
        /// The decoder for JSON responses, unless an endpoint brings its own.
        public var decoder: JSONDecoder
        /// The most bytes one item of a stream may take (an event's lines, or a JSON line) before
        /// the stream is an error instead of unbounded memory: 16 MiB unless set.
        public var maximumStreamItemBytes = 16 << 20
        /// The data of an event that ends an event stream cleanly, as OpenAI-compatible services
        /// (OpenAI, vLLM, Ollama, LiteLLM) end theirs: `data: [DONE]` after the last item. The
        /// stream ends there, without reading it as an item; `nil` reads every event.
        public var streamTerminator: String? = "[DONE]"
        /// The stages every exchange passes through, first to last, before the transport (see
        /// ``APIClientMiddleware``).
        public var middlewares: [any APIClientMiddleware] = []

        /// The default encoder for JSON bodies: keys sorted, so that a body is the same bytes on
        /// every run (Foundation on Linux otherwise orders an object's keys by hash, which changes
        /// from process to process) — for `:curl`, request signatures and snapshots.
        public static func defaultEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return encoder
        }

        /// Creates a configuration.
        public init(headers: [HTTPHeader] = [], timeout: Duration = .seconds(60), maximumRedirects: Int = 10,
                    environments: [ServerEnvironment] = [], encoder: JSONEncoder = defaultEncoder(),
                    decoder: JSONDecoder = JSONDecoder()) {
            self.headers = headers
            self.timeout = timeout
            self.maximumRedirects = maximumRedirects
            self.environments = environments
            self.encoder = encoder
            self.decoder = decoder
        }
    }

    private struct State {
        var environment: ServerEnvironment
        var headers: [HTTPHeader]
        var timeout: Duration
    }

    /// The transport every request goes through.
    public let transport: any HTTPTransport
    let delegate: (any APIClientDelegate)?
    let configuration: Configuration
    private let state: Mutex<State>

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - environment: Where requests go.
    ///   - transport: What sends them, such as ``URLSessionTransport``.
    ///   - configuration: Headers, time limit, coders, other environments.
    ///   - delegate: Hooks before sending, after failures, and on every response.
    public init(environment: ServerEnvironment, transport: any HTTPTransport,
                configuration: Configuration = Configuration(), delegate: (any APIClientDelegate)? = nil) {
        self.transport = transport
        self.delegate = delegate
        self.configuration = configuration
        self.state = Mutex(State(environment: environment, headers: configuration.headers,
                                 timeout: configuration.timeout))
    }

    /// A client like this one — its environment, headers, time limit, coders, cookies and other
    /// environments as they are now — whose requests go to another transport and delegate: a
    /// ``RecordingTransport`` that answers without the network, say, to see what a call would send.
    ///
    /// - Parameters:
    ///   - transport: Where the new client's requests go.
    ///   - delegate: Its delegate (this client's is not carried over).
    public func replacingTransport(with transport: any HTTPTransport, delegate: (any APIClientDelegate)? = nil) -> APIClient {
        let current = state.withLock { $0 }
        var configuration = configuration
        configuration.headers = current.headers
        configuration.timeout = current.timeout
        return APIClient(environment: current.environment, transport: transport, configuration: configuration, delegate: delegate)
    }

    /// A client like this one — its transport, delegate, headers, time limit, coders and other
    /// environments — whose requests go to another environment, leaving this one's as it is: the
    /// endpoints of another service beside the one a session talks to.
    ///
    /// - Parameter environment: Where the new client's requests go.
    public func replacingEnvironment(with environment: ServerEnvironment) -> APIClient {
        let current = state.withLock { $0 }
        var configuration = configuration
        configuration.headers = current.headers
        configuration.timeout = current.timeout
        return APIClient(environment: environment, transport: transport, configuration: configuration, delegate: delegate)
    }

    /// Where requests go now. Setting it switches every later call.
    public var environment: ServerEnvironment {
        get { state.withLock { $0.environment } }
        set { state.withLock { $0.environment = newValue } }
    }

    /// Headers sent with every request.
    public var defaultHeaders: [HTTPHeader] {
        get { state.withLock { $0.headers } }
        set { state.withLock { $0.headers = newValue } }
    }

    /// The time limit for calls whose endpoint sets none.
    public var timeout: Duration {
        get { state.withLock { $0.timeout } }
        set { state.withLock { $0.timeout = newValue } }
    }

    /// The environments the client knows by name: the configured ones and the current one.
    public var environments: [ServerEnvironment] {
        let current = environment
        return configuration.environments.contains { $0.name == current.name }
            ? configuration.environments : configuration.environments + [current]
    }

    /// Switches to a configured environment by name.
    ///
    /// - Throws: ``APIError/invalidURL(_:reason:)`` when no environment has that name.
    public func switchEnvironment(to name: String) throws {
        guard let found = environments.first(where: { $0.name == name }) else {
            let known = environments.map(\.name).joined(separator: ", ")
            throw APIError.invalidURL(name, reason: "no environment is named '\(name)'; known: \(known)")
        }
        environment = found
    }

    // MARK: Sending

    /// Sends an endpoint whose kind needs request data, such as a ``Bearer`` endpoint's token.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - data: What the endpoint's kind needs, such as an ``AccessToken``.
    /// - Returns: The decoded response.
    /// - Throws: ``APIError``.
    public func send<Kind, Response>(_ endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData)
        async throws(APIError) -> Response
    {
        try await send(endpoint, with: data, context: CallContext())
    }

    /// Sends an endpoint as part of a call its caller describes: the context every middleware and
    /// the transport are handed (the endpoint's name for a cassette, values for middlewares).
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - data: What the endpoint's kind needs, such as an ``AccessToken``.
    ///   - context: The call; the client fills in the response's Swift type unless it is named.
    /// - Returns: The decoded response.
    /// - Throws: ``APIError``.
    public func send<Kind, Response>(_ endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData, context: CallContext)
        async throws(APIError) -> Response
    {
        var context = context
        context.label = .label(context.label, decoding: Response.self)
        context.delivery = .whole
        var request = try prepare(endpoint, with: data)
        try await ready(&request, context: context)
        var attempt = 1
        while true {
            do {
                return try await perform(request, for: endpoint, context: context)
            } catch {
                guard !Task.isCancelled, !context.isDryRun, let delegate,
                    await delegate.client(self, shouldRetry: request, after: error, attempt: attempt)
                else { throw error }
                attempt += 1
            }
        }
    }

    /// ``send(_:with:context:)`` for an endpoint whose kind needs no request data.
    public func send<Kind, Response>(_ endpoint: Endpoint<Kind, Response>, context: CallContext) async throws(APIError) -> Response
    where Kind.RequestData == Void {
        try await send(endpoint, with: (), context: context)
    }

    /// What happens to a built request once per call: each middleware's ``APIClientMiddleware/prepare(_:context:)``,
    /// then the delegate's `willSend` (not in a dry run).
    func ready(_ request: inout PreparedRequest, context: CallContext) async throws(APIError) {
        do {
            for middleware in configuration.middlewares { try middleware.prepare(&request, context: context) }
            if let delegate, !context.isDryRun { try await delegate.client(self, willSend: &request) }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.invalidRequest(request.summary, reason: String(describing: error))
        }
    }

    /// Sends an endpoint whose kind needs no request data, such as a ``Public`` one.
    ///
    /// - Returns: The decoded response.
    /// - Throws: ``APIError``.
    public func send<Kind, Response>(_ endpoint: Endpoint<Kind, Response>) async throws(APIError) -> Response
    where Kind.RequestData == Void {
        try await send(endpoint, with: ())
    }

    /// Sends an endpoint and delivers the result to a completion handler.
    ///
    /// - Returns: A handle that cancels the call.
    @discardableResult
    public func send<Kind, Response: Sendable>(
        _ endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData,
        completion: @escaping @Sendable (Result<Response, APIError>) -> Void
    ) -> CancellableRequest {
        CancellableRequest(task: Task {
            do throws(APIError) {
                completion(.success(try await self.send(endpoint, with: data)))
            } catch {
                completion(.failure(error))
            }
        })
    }

    /// Sends an endpoint that needs no request data and delivers the result to a completion handler.
    ///
    /// - Returns: A handle that cancels the call.
    @discardableResult
    public func send<Kind, Response: Sendable>(
        _ endpoint: Endpoint<Kind, Response>,
        completion: @escaping @Sendable (Result<Response, APIError>) -> Void
    ) -> CancellableRequest where Kind.RequestData == Void {
        send(endpoint, with: (), completion: completion)
    }

    /// Builds the request an endpoint would send, without sending it (for `curl` views, tests
    /// and signing).
    ///
    /// - Throws: ``APIError/invalidURL(_:reason:)`` or ``APIError/invalidRequest(_:reason:)``.
    public func prepare<Kind, Response>(_ endpoint: Endpoint<Kind, Response>, with data: Kind.RequestData)
        throws(APIError) -> PreparedRequest
    {
        let current = state.withLock { $0 }
        var path = endpoint.path
        if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        // A query written into the path (`/posts?notify=1`) comes before the method's items.
        var queryItems: [URLQueryItem] = []
        if let mark = path.firstIndex(of: "?") {
            let query = String(path[path.index(after: mark)...])
            path = String(path[..<mark])
            guard let items = QueryEncoding.parse(query) else {
                throw APIError.invalidURL(current.environment.baseURL + path + "?" + query,
                                          reason: "the query '\(query)' in the path does not parse; pass query items to the method instead")
            }
            queryItems = items
        }
        if let problem = URLParts.pathProblem(path) {
            throw APIError.invalidURL(current.environment.baseURL + path, reason: "the path '\(path)' \(problem)")
        }
        var request = PreparedRequest(
            method: endpoint.method.name, environment: current.environment, path: path,
            queryItems: queryItems + endpoint.method.queryItems, headers: [], body: nil,
            timeout: endpoint.timeout ?? current.timeout)
        for header in current.headers { request.setHeader(header) }
        for header in endpoint.headers { request.setHeader(header) }
        if let accept = endpoint.decoding.accept, request.header(named: "Accept") == nil {
            request.setHeader(.accept([accept]))
        }
        if let body = endpoint.method.body {
            do {
                request.body = try body.encoded(defaultEncoder: configuration.encoder)
            } catch {
                throw APIError.invalidRequest(request.summary, reason: "the body does not encode: \(error)")
            }
            if request.header(named: "Content-Type") == nil { request.setHeader(.contentType(body.contentType)) }
        }
        do {
            try Kind.prepare(&request, with: data)
        } catch {
            throw APIError.invalidRequest(request.summary, reason: String(describing: error))
        }
        return request
    }

    // MARK: One exchange, redirects followed

    /// A request's own `Cookie` pairs, then the jar's whose names it does not set.
    static func cookieHeader(own: String?, jar: String) -> String {
        guard let own, !own.trimmingCharacters(in: .whitespaces).isEmpty else { return jar }
        func name(_ pair: Substring) -> Substring {
            pair.split(separator: "=", maxSplits: 1).first.map { $0.drop { $0 == " " } } ?? pair
        }
        let taken = Set(own.split(separator: ";").map(name))
        let others = jar.split(separator: ";").filter { !taken.contains(name($0)) }.map { $0.drop { $0 == " " } }
        return ([Substring(own)] + others).joined(separator: "; ")
    }

    private func perform<Kind, Response>(_ original: PreparedRequest, for endpoint: Endpoint<Kind, Response>, context: CallContext)
        async throws(APIError) -> Response
    {
        var request = original
        var context = context
        while true {
            let started = ContinuousClock.now
            let (sent, answer) = try await exchange(request, context: context)
            let body: Data
            do {
                body = try await answer.wholeBody()
            } catch {
                throw Self.apiError(error, for: sent)
            }
            let response = answer.head
            let status = response.status.code
            if let delegate, !context.isDryRun {
                delegate.client(self, didReceive: Exchange(request: sent, response: response, body: body,
                                                           duration: ContinuousClock.now - started))
            }
            if endpoint.followsRedirects, Redirect.statuses.contains(status),
                let location = response.headerFields[.location]
            {
                context.redirects += 1
                guard context.redirects <= configuration.maximumRedirects else {
                    throw APIError.tooManyRedirects(original.summary, count: configuration.maximumRedirects)
                }
                request = try Redirect.follow(request, to: location, status: status)
                continue
            }
            return try validate(response, body: body, of: sent, for: endpoint)
        }
    }

    /// One exchange of a call, no redirect followed — the one way every call goes, whole or
    /// streamed: the jar's cookies for the URL added, the middlewares in order, then the
    /// transport, whose answer's cookies are kept before the middlewares see it.
    ///
    /// - Returns: The request as it was sent, and the answer.
    func exchange(_ request: PreparedRequest, context: CallContext) async throws(APIError) -> (sent: PreparedRequest, answer: TransportResponse) {
        // The jar's cookies for this URL, after the request's own `Cookie` (an API key sent as a
        // cookie) and but for the names it sets; added per exchange, so a redirect gets what the
        // response before it set, and nothing of another origin's.
        var sent = request
        let jar = configuration.cookies
        if let jar, !jar.isEmpty, let url = URL(string: request.url), let cookie = jar.header(for: url) {
            sent.setHeader(.custom(name: "Cookie", value: Self.cookieHeader(own: request.header(named: "Cookie"), jar: cookie)),
                           sensitive: true)
        }
        let transport = transport
        var next: APIClientMiddleware.Next = { [self] request, context in
            guard !context.isDryRun else {
                throw APIError.invalidRequest(request.summary, reason: "a dry run sends nothing, and no middleware answered it")
            }
            let answer = try await transport.exchange(try transportRequest(request, delivery: context.delivery), context: context)
            // The cookies the answer sets, kept before any middleware sees it.
            if let jar {
                let setCookies = answer.head.headerFields[values: .setCookie]
                if !setCookies.isEmpty, let url = URL(string: request.url) { jar.store(setCookies, from: url) }
            }
            return answer
        }
        for middleware in configuration.middlewares.reversed() {
            let rest = next
            next = { request, context in try await middleware.intercept(request, context: context, next: rest) }
        }
        let answer: TransportResponse
        do {
            answer = try await next(sent, context)
        } catch {
            throw Self.apiError(error, for: sent)
        }
        return (sent, answer)
    }

    /// What the transport is handed for `request`.
    private func transportRequest(_ request: PreparedRequest, delivery: TransportRequest.Delivery) throws(APIError) -> TransportRequest {
        // Endpoints cannot express this (`HTTPMethod` has no body on GET or HEAD), but a delegate
        // can set one; no transport sends it the same way, so none sends it.
        if request.body != nil, request.method == "GET" || request.method == "HEAD" {
            throw APIError.invalidRequest(request.summary, reason: "a \(request.method) request cannot carry a body (set by the delegate?)")
        }
        return TransportRequest(head: try head(of: request), body: request.body, timeout: request.timeout,
                                tls: request.environment.tls, delivery: delivery)
    }

    /// What a transport's error means for the caller of `request`: cancelled, timed out, or a
    /// transport failure (an `APIError` stays as it is).
    static func apiError(_ error: any Error, for request: PreparedRequest) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let failure as TransportFailure:
            switch failure.kind {
            case .cancelled: return .cancelled(request.summary)
            case .timedOut: return .timedOut(request.summary, after: request.timeout)
            default: return Task.isCancelled ? .cancelled(request.summary) : .transport(request.summary, failure)
            }
        case let refusal as StreamingUnsupported:
            return .transport(request.summary, TransportFailure(.other, detail: refusal.description))
        case is CancellationError:
            return .cancelled(request.summary)
        default:
            if Task.isCancelled { return .cancelled(request.summary) }
            return .transport(request.summary, TransportFailure(.other, detail: String(describing: error)))
        }
    }

    func head(of request: PreparedRequest) throws(APIError) -> HTTPRequest {
        var fields = HTTPFields()
        fields.reserveCapacity(request.headers.count)
        for header in request.sentHeaders {
            guard let fieldName = HTTPField.Name(header.name) else {
                throw APIError.invalidRequest(request.summary, reason: "'\(header.name)' is not a valid header name")
            }
            var field = HTTPField(name: fieldName, value: header.value)
            if request.isSensitive(header: header.name) { field.indexingStrategy = .disallow }
            fields.append(field)
        }
        return HTTPRequest(method: Self.method(request.method), scheme: request.environment.scheme,
                           authority: request.environment.authority, path: request.pathAndQuery,
                           headerFields: fields)
    }

    private static func method(_ name: String) -> HTTPRequest.Method {
        switch name {
        case "GET": .get
        case "HEAD": .head
        case "POST": .post
        case "PUT": .put
        case "PATCH": .patch
        case "DELETE": .delete
        default: HTTPRequest.Method(name) ?? .get
        }
    }

    private func validate<Kind, Response>(_ response: HTTPResponse, body: Data, of request: PreparedRequest,
                                          for endpoint: Endpoint<Kind, Response>) throws(APIError) -> Response
    {
        let status = response.status.code
        let decoder = endpoint.decoder ?? configuration.decoder
        func summary() -> ResponseSummary {
            ResponseSummary(status: status, reason: response.status.reasonPhrase,
                            headers: HTTPHeader.list(response.headerFields), body: body)
        }
        guard endpoint.acceptableStatusCodes.contains(status) else {
            var failure = summary()
            failure.serverError = endpoint.errorDecoding?.decode(body, decoder)
            throw APIError.unacceptableStatus(request.summary, failure)
        }
        // The contract is the Accept header the request carried (an endpoint's own, or the
        // session's), else what the decoding asks for.
        if endpoint.decoding.checksContentType, let accept = request.header(named: "Accept") ?? endpoint.decoding.accept,
            let type = response.headerFields[.contentType], !MediaType.matches(type, acceptHeader: accept)
        {
            throw APIError.unexpectedContentType(request.summary, expected: accept, summary())
        }
        do {
            return try endpoint.decoding.decode(ResponseContext(body: body, response: response, url: request.url,
                                                                decoder: decoder))
        } catch var failure as DecodingFailure {
            failure.contentEncoding = failure.contentEncoding ?? response.headerFields[.contentEncoding]
            throw APIError.decodingFailed(request.summary, failure)
        } catch {
            var failure = DecodingFailure(error, decoding: Response.self, body: body)
            failure.contentEncoding = response.headerFields[.contentEncoding]
            throw APIError.decodingFailed(request.summary, failure)
        }
    }
}
