import APIScript
import TypedAPI

extension Shell {
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
