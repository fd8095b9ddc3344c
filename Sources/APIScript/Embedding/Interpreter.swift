import Synchronization

/// Runs `.api` scripts and prompt inputs for a host, keeping state between evaluations.
///
/// ```swift
/// let interpreter = Interpreter()
/// interpreter.register(HostFunction(name: "double", parameters: [.init(label: nil, type: .int)],
///                                   returnType: .int) { args in
///     if case .int(let n) = args[0] { return .int(n * 2) } else { return .null }
/// })
/// let result = await interpreter.evaluate(ScriptSource(name: "<input>", text: "double(21)"), isPrompt: true)
/// ```
///
/// An interpreter runs one evaluation at a time; create one per session. Every mistake comes
/// back as a ``Diagnostic`` with its place; nothing a script does takes the host down.
public final class Interpreter {
    let table = GlobalTable()
    let context: RunContext
    private var hostFunctionNames: [String] = []

    /// Creates an interpreter.
    ///
    /// - Parameters:
    ///   - output: Where `print` writes (each call gets one piece of text, terminator included).
    ///   - environment: How `env(_:)` reads variables; the process environment by default.
    deinit {
        // A script function kept in a global holds the context that holds the global: without
        // this, every interpreter whose session defined one would never be freed.
        context.releaseGlobals()
    }

    public init(output: @escaping (String) -> Void = { Swift.print($0, terminator: "") },
                environment: @escaping (String) -> String? = ProcessEnvironment.value) {
        context = RunContext(output: output, environment: environment)
    }

    /// Where `print` writes.
    public var output: (String) -> Void {
        get { context.output }
        set { context.output = newValue }
    }

    /// How `print` shows each value (Swift's `String(describing:)` by default; a host may print JSON).
    public var describe: (Value) -> String {
        get { context.describe }
        set { context.describe = newValue }
    }

    /// How deeply script calls may nest, through pure code or endpoint calls alike: 10,000. A
    /// deeper call is a runtime error at the call, never a crash; so is a recursion that would
    /// outgrow the running thread's stack first (see ``LargeStackExecutor``).
    public static var maximumCallDepth: Int { RunContext.maximumCallDepth }

    /// How many steps (loop iterations and calls of script functions) one evaluation may take
    /// before it stops with a runtime error; `nil`, the default, for no limit. Counted, not timed,
    /// so a limit stops the same script at the same place on any machine: for sandboxes and
    /// fuzzing. Completion reads values within a small limit of its own.
    public var stepLimit: Int?

    /// The most calls `concurrentMap` may have in flight at once, whatever limit a script asks
    /// for: the host's connection budget (the shell's `concurrency`). 1 to
    /// 256; 8 by default.
    public var concurrency: Int {
        get { context.concurrency.value }
        set { context.concurrency.value = newValue }
    }

    /// The same limit as a value a host may keep and set from any task (a session property's setter).
    package var concurrencyLimit: ConcurrencyLimit { context.concurrency }

    /// The steps completion may spend reading a value whose type is dynamic.
    static let completionSteps = 100_000

    // MARK: Registration

    /// Errors in what a host registers.
    public enum RegistrationError: Error, CustomStringConvertible, Equatable {
        /// Two registrations use one name.
        case duplicateName(String)
        /// A name that is not an identifier.
        case invalidName(String)

        /// A sentence about it.
        public var description: String {
            switch self {
            case .duplicateName(let name): "'\(name)' is registered twice"
            case .invalidName(let name): "'\(name)' is not a valid name"
            }
        }
    }

    /// Gives scripts a function.
    ///
    /// A host's name wins over a built-in function's (`print`), as a module's own function does
    /// in Swift; the built-in stays reachable as `Swift.print`. Every host function is also
    /// reachable as `api.name`, whatever a script declares.
    ///
    /// - Throws: ``RegistrationError`` for a duplicate or invalid name.
    public func register(_ function: HostFunction) throws {
        if case .builtin? = table.bindings[function.name]?.kind {
            guard ScriptNames.problem(withHostName: function.name) == nil else { throw RegistrationError.invalidName(function.name) }
        } else {
            try checkName(function.name)
        }
        let binding = Binding(name: function.name, type: .unknown, isMutable: false, kind: .hostFunction(function),
                              span: nil, owner: nil)
        table.bindings[function.name] = binding
        table.bindings[QualifiedName.endpoints + "." + function.name] = binding
        hostFunctionNames.append(function.name)
    }

    /// Gives scripts a global under a qualified spelling (`session.token`), and under its bare
    /// name (`token`) too unless a host function has that name: the host's names win.
    ///
    /// - Returns: Whether the bare name was given.
    /// - Throws: ``RegistrationError`` for a duplicate or invalid name.
    @discardableResult
    public func register(_ global: HostGlobal, qualifiedBy qualifier: String) throws -> Bool {
        let qualified = qualifier + "." + global.name
        guard ScriptNames.problem(with: global.name) == nil else { throw RegistrationError.invalidName(global.name) }
        guard table.bindings[qualified] == nil else { throw RegistrationError.duplicateName(qualified) }
        let binding = Binding(name: global.name, type: global.type, isMutable: global.set != nil, kind: .hostGlobal(global),
                              span: nil, owner: nil)
        table.bindings[qualified] = binding
        if case .hostFunction? = table.bindings[global.name]?.kind { return false }
        try checkName(global.name)
        table.bindings[global.name] = binding
        return true
    }

    /// Gives scripts a global, read-only or assignable.
    ///
    /// - Throws: ``RegistrationError`` for a duplicate or invalid name.
    public func register(_ global: HostGlobal) throws {
        try checkName(global.name)
        table.bindings[global.name] = Binding(name: global.name, type: global.type, isMutable: global.set != nil,
                                              kind: .hostGlobal(global), span: nil, owner: nil)
    }

    /// Changes the static type of a registered global (the shell's `last` takes each result's type).
    public func setType(_ type: ScriptType, ofGlobal name: String) {
        guard let binding = table.bindings[name], case .hostGlobal = binding.kind else { return }
        binding.type = type  // one binding for the bare and the qualified spelling
    }

    /// Declares a constant the host provides (`--var name=value`, an environment's variables).
    ///
    /// A constant may take the name of a registered function: the name then means the constant as
    /// a value, and a call by that name still calls the function (`user` is "ada", `user(id: 1)`
    /// is the endpoint). A constant declared again replaces the earlier one.
    ///
    /// - Returns: The function the constant hides as a value, if any.
    /// - Throws: ``RegistrationError`` for a name that is not an identifier, or that names a
    ///   built-in function or a host global.
    @discardableResult
    public func defineConstant(_ name: String, value: Value, type: ScriptType) throws -> HostFunction? {
        guard let first = name.utf8.first, first.isIdentifierStart, name.utf8.allSatisfy(\.isIdentifierContinue),
            Keyword(rawValue: name) == nil, name != "_"
        else { throw RegistrationError.invalidName(name) }
        var hidden: HostFunction?
        switch table.bindings[name]?.kind {
        case .hostFunction(let function)?:
            hidden = function
            table.hiddenHostFunctions[name] = function
        case .builtin?, .hostGlobal?:
            throw RegistrationError.duplicateName(name)
        case .variable?, .scriptFunction?, nil:
            hidden = table.hiddenHostFunctions[name]
        }
        let binding = Binding(name: name, type: type, isMutable: false, kind: .variable, span: nil, owner: nil)
        binding.slot = table.allocateSlot()
        table.bindings[name] = binding
        context.global(binding.slot).value = value
        return hidden
    }

    /// Makes a host global unusable for now: a script that names it gets `reason` as a check
    /// error (the shell's `last` before any result, or in a script); `nil` makes it usable again.
    public func setUnavailable(_ name: String, reason: String?) {
        table.unavailable[name] = reason
    }

    /// Makes a record type known by name (for type annotations, `:type` and help).
    public func register(_ type: RecordType) {
        table.recordTypes[type.name] = type
    }

    /// The record types known by name (the host's too, when it makes them on demand).
    public var recordTypes: [String: RecordType] {
        table.askForMoreRecordTypes()
        return table.recordTypes
    }

    /// Where record types come from that the host has not registered one by one: asked once, the
    /// first time a type annotation names one not known yet or ``recordTypes`` is read, so a host
    /// may derive them from its Swift types only when a script needs them.
    public func registerRecordTypes(whenAsked more: @escaping () -> [RecordType]) {
        table.moreRecordTypes = more
    }

    private func checkName(_ name: String) throws {
        // A built-in's name is taken (as a duplicate); anything else the rule refuses is invalid.
        if BuiltinFunction(rawValue: name) != nil { throw RegistrationError.duplicateName(name) }
        if ScriptNames.problem(with: name) != nil { throw RegistrationError.invalidName(name) }
        if table.bindings[name] != nil { throw RegistrationError.duplicateName(name) }
    }

    // MARK: Checking and running

    /// Checks a source without running it: syntax and static errors, nothing changes.
    public func check(_ source: ScriptSource, isPrompt: Bool = false) -> [Diagnostic] {
        StackGuard.withRoom { checkHere(source, isPrompt: isPrompt) }
    }

    private func checkHere(_ source: ScriptSource, isPrompt: Bool) -> [Diagnostic] {
        let slotsBefore = table.slotCount
        defer { table.slotCount = slotsBefore }
        let (statements, syntax) = Parser.parse(source)
        if syntax.contains(where: { $0.severity == .error }) { return syntax }
        var checker = Checker(source: source, globals: table, isPrompt: isPrompt)
        checker.check(statements)
        return syntax + checker.diagnostics
    }

    /// Checks and runs a source.
    ///
    /// - Parameters:
    ///   - source: The script or prompt input.
    ///   - isPrompt: At the prompt, names may be declared again, and the last expression's value
    ///     is returned.
    ///   - echo: Called with the value and type of each top-level expression statement that has
    ///     one, as it runs (piped input and `:load` show values as the prompt does). It may wait
    ///     (reading a stream as it shows it); what it throws fails the statement, at its place.
    /// - Returns: The value of a final expression (at the prompt), and the diagnostics: warnings,
    ///   or the errors that stopped it.
    ///
    /// A thread with less than 6 MiB of stack left hands the evaluation to
    /// ``LargeStackExecutor/shared``, so that input at the syntax nesting limit fits.
    public func evaluate(_ source: ScriptSource, isPrompt: Bool = false,
                         echo: ((Value, ScriptType) async throws -> Void)? = nil) async -> Evaluation {
        if StackGuard.available() < StackGuard.frontEnd {
            return await withTaskExecutorPreference(LargeStackExecutor.shared) {
                await evaluateHere(source, isPrompt: isPrompt, echo: echo)
            }
        }
        return await evaluateHere(source, isPrompt: isPrompt, echo: echo)
    }

    private func evaluateHere(_ source: ScriptSource, isPrompt: Bool,
                              echo: ((Value, ScriptType) async throws -> Void)?) async -> Evaluation {
        let (statements, syntax) = Parser.parse(source)
        if syntax.contains(where: { $0.severity == .error }) {
            return Evaluation(value: nil, type: nil, diagnostics: syntax)
        }
        let slotsBefore = table.slotCount
        var checker = Checker(source: source, globals: table, isPrompt: isPrompt)
        checker.check(statements)
        let warnings = syntax + checker.diagnostics.filter { $0.severity != .error }
        if checker.diagnostics.contains(where: { $0.severity == .error }) {
            table.slotCount = slotsBefore
            return Evaluation(value: nil, type: nil, diagnostics: syntax + checker.diagnostics)
        }
        let annotations = checker.annotations
        var compiler = Compiler(source: source, context: context, scope: checker.main, annotations: annotations)
        var resultType: ScriptType?
        var body = statements
        var last: Expr?
        if isPrompt, echo == nil, let final = statements.last, case .expression(let expression) = final.kind, annotations.type(of: expression) != .void {
            last = expression
            resultType = annotations.type(of: expression)
            body.removeLast()
        }
        let block = compiler.block(body, echo: echo)
        let lastCode = last.map { compiler.expression($0) }
        if !compiler.diagnostics.isEmpty {
            table.slotCount = slotsBefore
            return Evaluation(value: nil, type: nil, diagnostics: warnings + compiler.diagnostics)
        }
        // Commit the new globals, then run.
        var committed: [(Binding, Binding?)] = []
        for binding in checker.newGlobals {
            committed.append((binding, table.bindings[binding.name]))
            table.bindings[binding.name] = binding
        }
        let main = checker.main
        context.resetCalls(steps: stepLimit)
        let frame = Frame(slotCount: main.slotCount, boxCount: main.boxCount, captures: [], context: context)
        do {
            if let sync = block.sync { _ = try sync(frame) } else { _ = try await block.async(frame) }
            var value: Value?
            if let lastCode {
                value = if let sync = lastCode.sync { try sync(frame) } else { try await lastCode.async(frame) }
            }
            return Evaluation(value: value, type: resultType, diagnostics: warnings)
        } catch {
            // Names whose declaration did not run are taken back, so no name holds a missing value.
            let reached = Self.declaredBefore(failure: error, in: statements)
            for (binding, previous) in committed.reversed() where !reached.contains(binding.name) {
                table.bindings[binding.name] = previous
            }
            return Evaluation(value: nil, type: nil, diagnostics: warnings + [Self.diagnostic(for: error, source)])
        }
    }

    /// Runs a source and returns its value, or throws its errors.
    ///
    /// - Throws: ``EvaluationError`` with every diagnostic.
    @discardableResult
    public func evaluate(_ text: String, name: String = "<input>") async throws -> Value {
        let result = await evaluate(ScriptSource(name: name, text: text), isPrompt: true)
        if result.failed { throw EvaluationError(diagnostics: result.diagnostics) }
        return result.value ?? .void
    }

    /// The names of top-level declarations that ran before a failure, by where they are.
    private static func declaredBefore(failure: any Error, in statements: [Stmt]) -> Set<String> {
        guard let diagnostic = failure as? Diagnostic else { return [] }
        var names: Set<String> = []
        for statement in statements where statement.span.end <= diagnostic.span.start {
            if case .declaration(_, let name, _, _, _) = statement.kind { names.insert(name) }
            if case .function(let syntax) = statement.kind { names.insert(syntax.name) }
        }
        for statement in statements {
            if case .function(let syntax) = statement.kind { names.insert(syntax.name) }
        }
        return names
    }

    /// Reads a stream an input gave (the prompt shows its items as they arrive), handing each item
    /// to `body` until it returns `false` or the stream ends.
    ///
    /// - Returns: Why it stopped early: the source's or a stage's failure, placed at the input
    ///   (`cancelled` when the task was), or `nil`.
    public func read(_ stream: ScriptStream, from source: ScriptSource,
                     each body: (Value) async throws -> Bool) async -> Diagnostic? {
        do {
            try await stream.forEach(body)
            return nil
        } catch {
            let span = TextSpan(start: 0, end: source.text.utf8.count)
            return Self.diagnostic(for: Compiler.hostFailure(error, source: source, span: span), source)
        }
    }

    static func diagnostic(for error: any Error, _ source: ScriptSource) -> Diagnostic {
        switch error {
        case let diagnostic as Diagnostic:
            return diagnostic
        case is CancellationError:
            return Diagnostic(kind: .cancelled, message: "cancelled", source: nil, span: .at(0))
        case let failure as ScriptFailure:
            return Diagnostic(kind: failure.kind, message: failure.message, source: source, span: .at(0), notes: failure.notes)
        default:
            return Diagnostic(kind: .runtime, message: "internal error: \(error)", source: source, span: .at(0))
        }
    }

    // MARK: Snapshots

    /// Everything an evaluation can change: the names and their types, and the globals' values.
    public struct Snapshot {
        fileprivate let bindings: [String: Binding]
        fileprivate let types: [(Binding, ScriptType)]
        fileprivate let slotCount: Int
        fileprivate let values: [Value]
        fileprivate let unavailable: [String: String]
    }

    /// The interpreter's state now, to go back to with ``restore(_:)``.
    public func snapshot() -> Snapshot {
        Snapshot(bindings: table.bindings, types: table.bindings.values.map { ($0, $0.type) },
                 slotCount: table.slotCount, values: (0..<table.slotCount).map { context.global($0).value },
                 unavailable: table.unavailable)
    }

    /// Puts back the state of a snapshot: names declared since are gone, variables assigned since
    /// hold their old values (a failed input, or a preview that must have had no effect).
    public func restore(_ snapshot: Snapshot) {
        table.bindings = snapshot.bindings
        for (binding, type) in snapshot.types { binding.type = type }
        for (slot, value) in snapshot.values.enumerated() { context.global(slot).value = value }
        for slot in snapshot.slotCount..<max(snapshot.slotCount, table.slotCount) { context.global(slot).value = .null }
        table.slotCount = snapshot.slotCount
        table.unavailable = snapshot.unavailable
    }

    // MARK: Introspection

    /// The variables declared so far, with their types, in name order.
    public var variables: [(name: String, type: ScriptType, value: Value)] {
        table.bindings.values.compactMap { binding in
            guard case .variable = binding.kind, binding.isGlobal, binding.slot >= 0 else { return nil }
            return (binding.name, binding.type, context.global(binding.slot).value)
        }.sorted { $0.name < $1.name }
    }

    /// The names of the registered host functions, in registration order.
    public var hostFunctions: [HostFunction] {
        hostFunctionNames.compactMap { name in
            if case .hostFunction(let function)? = table.bindings[name]?.kind { return function }
            return nil
        }
    }

    /// A host global by name (`baseURL`, `token` …), for help.
    public func global(named name: String) -> HostGlobal? {
        if case .hostGlobal(let global)? = table.bindings[name]?.kind { return global }
        return nil
    }

    /// The static type of an expression, without running anything.
    ///
    /// - Returns: The type, or the diagnostics that stop it being known.
    public func staticType(of text: String) -> Result<ScriptType, EvaluationError> {
        StackGuard.withRoom { staticTypeHere(of: text) }
    }

    private func staticTypeHere(of text: String) -> Result<ScriptType, EvaluationError> {
        let source = ScriptSource(name: "<type>", text: text)
        let slotsBefore = table.slotCount
        defer { table.slotCount = slotsBefore }
        let (statements, syntax) = Parser.parse(source)
        if syntax.contains(where: { $0.severity == .error }) { return .failure(EvaluationError(diagnostics: syntax)) }
        guard statements.count == 1, case .expression(let expression) = statements[0].kind else {
            return .failure(EvaluationError(diagnostics: [Diagnostic(kind: .check, message: "':type' takes one expression",
                                                                     source: source, span: TextSpan(start: 0, end: source.bytes.count))]))
        }
        var checker = Checker(source: source, globals: table, isPrompt: true)
        checker.check(statements)
        let errors = checker.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { return .failure(EvaluationError(diagnostics: errors)) }
        return .success(checker.annotations.type(of: expression))
    }

    /// Whether the text ends in the middle of a construct (an open `{`, `(`, `[` or string), so a
    /// prompt should read another line.
    public func needsMoreInput(_ text: String) -> Bool {
        let (_, diagnostics) = StackGuard.withRoom { Parser.parse(ScriptSource(name: "<input>", text: text)) }
        // Another line can finish the input only if nothing before the end is already wrong.
        return diagnostics.contains { $0.kind == .unexpectedEnd } && !diagnostics.contains { $0.kind == .syntax }
    }
}

/// The result of one evaluation.
public struct Evaluation: Sendable {
    /// The value of the final expression, at the prompt.
    public var value: Value?
    /// Its static type.
    public var type: ScriptType?
    /// Warnings, and the errors that stopped the evaluation.
    public var diagnostics: [Diagnostic]

    /// Whether it stopped with an error.
    public var failed: Bool { diagnostics.contains { $0.severity == .error } }
    /// The errors.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// The errors of a failed evaluation.
public struct EvaluationError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic, in order.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The rendered diagnostics.
    public var description: String { DiagnosticRenderer().render(diagnostics) }
}

/// Reads the process environment without Foundation.
public enum ProcessEnvironment {
    /// The value of an environment variable.
    public static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The most calls `concurrentMap` has in flight at once: 1 to ``maximum``, 8 to start with.
package final class ConcurrencyLimit: Sendable {
    /// The most calls one `concurrentMap` may have in flight, whatever a session allows.
    public static let maximum = ConcurrentMap.maximumLimit

    private let count = Mutex(8)

    /// The limit, clamped to 1…``maximum`` when set.
    public var value: Int {
        get { count.withLock { $0 } }
        set { count.withLock { $0 = max(1, min(newValue, Self.maximum)) } }
    }
}
