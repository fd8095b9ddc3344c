/// A runtime failure before it knows its place; the compiled node that catches it adds the span.
struct ScriptFailure: Error {
    var message: String
    var notes: [Diagnostic.Note] = []
    var kind: Diagnostic.Kind = .runtime

    init(_ message: String, notes: [Diagnostic.Note] = [], kind: Diagnostic.Kind = .runtime) {
        self.message = message
        self.notes = notes
        self.kind = kind
    }
}
