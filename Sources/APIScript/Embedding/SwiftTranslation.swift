/// What a host writes for its own parts when a script is shown as Swift (`:swift`): the calls of
/// its functions, its globals, and notes.
///
/// The interpreter writes the language itself — statements, closures, built-in methods, literals —
/// and asks the host only for what the host defined.
package struct SwiftHostWriting: Sendable {
    /// A call of a host function as a Swift expression without `try` and `await`, such as
    /// `client.send(.post(id: 1))`, given each parameter's argument (`nil` where it is left out);
    /// `nil` when the function has no Swift counterpart.
    public var call: @Sendable (_ function: HostFunction, _ arguments: [SwiftArgument?]) -> String?
    /// Reading a host global, as a Swift expression; `nil` when it has none.
    public var global: @Sendable (_ name: String) -> String?
    /// Assigning a host global, as a Swift statement given the value's Swift text; `nil` when it has none.
    public var assignment: @Sendable (_ name: String, _ value: String) -> String?
    /// A comment to add after a statement that calls the function, such as where the shell keeps
    /// a token; `nil` for none.
    public var note: @Sendable (_ function: HostFunction) -> String?
    /// Why a host function has no Swift counterpart, said before its arguments are written (so
    /// that `pages { … }` is named, not the closure inside it); `nil` to write it.
    public var unsupported: @Sendable (_ function: HostFunction) -> String?

    /// Creates a host's writing.
    public init(call: @escaping @Sendable (HostFunction, [SwiftArgument?]) -> String?,
                global: @escaping @Sendable (String) -> String?,
                assignment: @escaping @Sendable (String, String) -> String?,
                note: @escaping @Sendable (HostFunction) -> String? = { _ in nil },
                unsupported: @escaping @Sendable (HostFunction) -> String? = { _ in nil }) {
        self.call = call
        self.global = global
        self.assignment = assignment
        self.note = note
        self.unsupported = unsupported
    }
}

/// One argument of a host call, written in Swift.
package struct SwiftArgument: Sendable {
    /// The argument's Swift text, such as `1`, `"swift"`, `.stars` or `post.id`.
    public var text: String
    /// Its value when it is a literal (a string, a number, a Boolean, an array of them): a host
    /// may write it in its parameter's Swift type, such as a `UUID` or an enum's cases.
    public var literal: Value?
    /// Whether it is written wholly in literals — strings without interpolation, numbers,
    /// Booleans, `nil`, and arrays and dictionaries of them — so that any type that takes those
    /// literals (a generated `JSONValue`) takes it as written.
    public var isLiteral: Bool = false
}

/// A script written as Swift.
package struct SwiftProgram: Sendable {
    /// The statements, one line each, indented by four spaces a level.
    public var lines: [String]
    /// The host functions it calls, in the order of their first call.
    public var functions: [String]
    /// The host globals it reads or assigns, in order of first use.
    public var globals: [String]
    /// Whether a statement's value is shown at the end (the prompt's `let result = …`).
    public var hasResult: Bool
    /// Declarations the statements need beside them, such as `concurrentMap`'s task group.
    public var helpers: [String]
    /// Variables of the session the statements use but do not declare, such as a `p` made by an
    /// earlier prompt line: the Swift needs them declared as they were made.
    public var sessionVariables: [SessionVariable]

    /// A variable the session holds.
    package struct SessionVariable: Sendable {
        /// Its name.
        public var name: String
        /// Its type as Swift writes it, where the language knows it (a model's name, `[Int]`).
        public var type: String
    }
}

/// Why a script could not be written as Swift: a check error, or a construct with no Swift
/// counterpart (dynamic JSON values, an endpoint called inside a closure).
package struct SwiftTranslationFailure: Error, Sendable, CustomStringConvertible {
    /// What is missing, in one sentence.
    public var message: String
    /// The check errors, when the script does not check.
    public var diagnostics: [Diagnostic]

    /// The message.
    public var description: String { message }

    package init(message: String, diagnostics: [Diagnostic]) {
        self.message = message
        self.diagnostics = diagnostics
    }
}

extension Interpreter {
    /// The Swift that does what `text` does with the typed client, statement by statement.
    ///
    /// - Parameters:
    ///   - text: A prompt line or a whole script.
    ///   - isPrompt: Whether a final expression's value is shown (`let result = …`), as at the prompt.
    ///   - host: How the host writes its functions and globals.
    package func swift(for text: String, isPrompt: Bool, host: SwiftHostWriting) -> Result<SwiftProgram, SwiftTranslationFailure> {
        StackGuard.withRoom {
            let source = ScriptSource(name: "<swift>", text: text)
            let slotsBefore = table.slotCount
            defer { table.slotCount = slotsBefore }
            let (statements, syntax) = Parser.parse(source)
            var checker = Checker(source: source, globals: table, isPrompt: isPrompt)
            if !syntax.contains(where: { $0.severity == .error }) { checker.check(statements) }
            let errors = (syntax + checker.diagnostics).filter { $0.severity == .error }
            if !errors.isEmpty {
                return .failure(SwiftTranslationFailure(message: errors[0].message, diagnostics: errors))
            }
            var printer = SwiftPrinter(source: source, host: host, isPrompt: isPrompt, statements: statements,
                                       annotations: checker.annotations)
            let result = Result { try printer.program() }.mapError { error in
                error as? SwiftTranslationFailure ?? SwiftTranslationFailure(message: "\(error)", diagnostics: [])
            }
            withExtendedLifetime(checker) {}
            return result
        }
    }
}
