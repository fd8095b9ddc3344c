/// One thing the language reports: a syntax, type or runtime error, or a warning.
public struct Diagnostic: Error, Sendable, Hashable {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        /// The script cannot run, or stopped.
        case error
        /// Worth a look; the script still runs.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// The kind of problem, for tools and tests that need to tell them apart.
    public enum Kind: String, Sendable, Hashable {
        /// The text is not valid syntax.
        case syntax
        /// The input stopped in the middle of a construct: a prompt should read another line.
        case unexpectedEnd
        /// A name, member, label, type or argument is wrong before anything runs.
        case check
        /// Something failed while running.
        case runtime
        /// An `expect(…)` did not hold.
        case expectation
        /// A host function (an endpoint call) failed.
        case host
        /// The run was cancelled.
        case cancelled
    }

    /// A note attached to a diagnostic, optionally with its own place.
    public struct Note: Sendable, Hashable {
        /// The note's text.
        public var message: String
        /// Where it points, if anywhere.
        public var span: TextSpan?

        /// Creates a note.
        public init(_ message: String, span: TextSpan? = nil) {
            self.message = message
            self.span = span
        }
    }

    /// How serious it is.
    public var severity: Severity
    /// The kind of problem.
    public var kind: Kind
    /// The message, starting lower-case.
    public var message: String
    /// The source it is about.
    public var source: ScriptSource?
    /// Where in the source.
    public var span: TextSpan
    /// Extra lines of explanation.
    public var notes: [Note]
    /// A replacement for the text at `span` that would fix it, such as a nearby name.
    public var suggestion: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity = .error, kind: Kind, message: String, source: ScriptSource?, span: TextSpan,
                notes: [Note] = [], suggestion: String? = nil) {
        self.severity = severity
        self.kind = kind
        self.message = message
        self.source = source
        self.span = span
        self.notes = notes
        self.suggestion = suggestion
    }

    /// The 1-based position where it starts.
    public var position: TextPosition? { source?.position(at: span.start) }

    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.severity == rhs.severity && lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.span == rhs.span
            && lhs.notes == rhs.notes && lhs.suggestion == rhs.suggestion && lhs.source?.name == rhs.source?.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(message)
        hasher.combine(span)
    }
}

extension Diagnostic: CustomStringConvertible {
    /// The rendered diagnostic, without colour.
    public var description: String { DiagnosticRenderer(colors: false).render(self) }
}
