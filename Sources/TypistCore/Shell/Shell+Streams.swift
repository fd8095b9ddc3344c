import APIScript
import TypedAPI

extension Shell {
    /// A streaming endpoint's call: the stream, which sends its request when it is read; in a
    /// preview, the request as it would go, and a stream of one sample item.
    static func openStream(_ endpoint: EndpointRegistration, plan: CallPlan, client: APIClient, session: Session,
                           registry: EndpointRegistry, preview: Preview?) async throws -> Value {
        let selector = endpoint.selector
        do {
            if let preview {
                preview.keep(try plan.prepare(client, Preview.credentials(session.credentials)))
                preview.noteCall(answersList: false)
                return SampleValue.of(endpoint.responseType)
            }
            let credentials = session.credentials
            guard case .stream(let stream) = try await plan.send(client, credentials).value else { return .void }
            let tls = client.environment.tls
            return .stream(stream.mappingErrors { error in
                session.update { $0.lastFailure = .init(function: selector, error: error) }
                return CallAdvice.wrapping(error, endpoint: endpoint, credentials: credentials, tls: tls, registry: registry)
            })
        } catch {
            session.update { $0.lastFailure = .init(function: selector, error: error) }
            throw CallAdvice.wrapping(error, endpoint: endpoint, credentials: session.credentials, tls: client.environment.tls, registry: registry)
        }
    }

    /// How many of a stream's items shown at the prompt `_` keeps (the first ones).
    static let keptStreamItems = 10_000

    /// Shows a prompt input's stream: its items as they arrive, one after another (in JSON, one
    /// line each); `_` then holds the items shown, as an array. Ctrl-C ends the stream, not the
    /// session.
    ///
    /// - Returns: Whether the stream was read without an error.
    func show(_ stream: ScriptStream, itemType: ScriptType, from source: ScriptSource) async -> Bool {
        var shown = ShownItems()
        let failure = await interpreter.read(stream, from: source) { item in
            show(item, itemType: itemType, keepingIn: &shown)
            return true
        }
        setLast(.array(shown.kept), type: .array(itemType))
        guard let failure else { return true }
        if failure.kind == .cancelled {
            // Ctrl-C: the stream was the user's to end; what came stays in `_`.
            output.error("stream ended after \(shown.count) item\(shown.count == 1 ? "" : "s") (interrupted)\n")
            return true
        }
        report([failure])
        return false
    }

    /// Shows a stream a piped input or `:load` reached, as the prompt does; a failure is thrown.
    ///
    /// - Returns: The items shown (the first ``keptStreamItems``).
    func showItems(of stream: ScriptStream, itemType: ScriptType) async throws -> [Value] {
        var shown = ShownItems()
        try await stream.forEach { item in
            show(item, itemType: itemType, keepingIn: &shown)
            return true
        }
        return shown.kept
    }

    private func show(_ item: Value, itemType: ScriptType, keepingIn shown: inout ShownItems) {
        let text = format == .json ? JSONWriter.render(item, pretty: false) : render(item, type: itemType)
        output.standard(text + "\n")
        shown.count += 1
        if shown.kept.count < Self.keptStreamItems { shown.kept.append(item) }
    }
}

/// The items of a stream shown so far.
private struct ShownItems {
    var count = 0
    var kept: [Value] = []
}
