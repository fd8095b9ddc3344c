/// Turns a checked syntax tree into closures.
struct Compiler {
    private(set) var source: ScriptSource
    let context: RunContext
    /// The function whose frame the code runs in.
    var scope: FunctionScope
    /// What the checker found about the tree: types, resolutions, scopes.
    private(set) var annotations: Annotations
    /// Errors found while compiling (constructs the runtime cannot do).
    var diagnostics: [Diagnostic] = []

    init(source: ScriptSource, context: RunContext, scope: FunctionScope, annotations: Annotations) {
        self.source = source
        self.context = context
        self.scope = scope
        self.annotations = annotations
    }

    /// Compiles part of another input's tree — a global function's default value, declared in an
    /// earlier input — with that input's source and annotations, into this function's frame.
    mutating func compiling(from source: ScriptSource?, with annotations: Annotations?,
                            _ body: (inout Compiler) -> Code) -> Code {
        guard let annotations, annotations !== self.annotations else { return body(&self) }
        var other = self
        other.source = source ?? self.source
        other.annotations = annotations
        let code = body(&other)
        diagnostics = other.diagnostics
        return code
    }

    // MARK: Errors

    func located(_ failure: ScriptFailure, _ span: TextSpan) -> Diagnostic {
        Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span, notes: failure.notes)
    }

    func runtimeError(_ message: String, _ span: TextSpan, notes: [Diagnostic.Note] = []) -> Diagnostic {
        Diagnostic(kind: .runtime, message: message, source: source, span: span, notes: notes)
    }

    /// Wraps a step so that spanless failures get this span.
    func at(_ span: TextSpan, _ step: @escaping ([Value]) throws -> Value) -> ([Value]) throws -> Value {
        let source = source
        return { values in
            do {
                return try step(values)
            } catch let failure as ScriptFailure {
                throw Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span,
                                 notes: failure.notes)
            }
        }
    }

    func at1(_ span: TextSpan, _ step: @escaping (Value) throws -> Value) -> (Value) throws -> Value {
        let source = source
        return { value in
            do {
                return try step(value)
            } catch let failure as ScriptFailure {
                throw Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span,
                                 notes: failure.notes)
            }
        }
    }

    func at2(_ span: TextSpan, _ step: @escaping (Value, Value) throws -> Value) -> (Value, Value) throws -> Value {
        let source = source
        return { a, b in
            do {
                return try step(a, b)
            } catch let failure as ScriptFailure {
                throw Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span,
                                 notes: failure.notes)
            }
        }
    }

    // MARK: Variables

    /// Reads a binding.
    func load(_ binding: Binding, _ span: TextSpan) -> Code {
        switch binding.kind {
        case .hostGlobal(let global):
            let get = global.get
            return Code { _ in get() }
        case .hostFunction(let host):
            let function = Function(name: host.name, isPure: false, body: .host(host))
            return .constant(.function(function))
        case .builtin:
            return .constant(.null)
        case .variable, .scriptFunction:
            break
        }
        if binding.isGlobal {
            let box = context.global(binding.assignedSlot)
            return Code { _ in box.value }
        }
        if binding.owner === scope {
            let slot = binding.assignedSlot
            if binding.isCaptured { return Code { frame in frame.boxes[slot].value } }
            return Code { frame in frame.slots[slot] }
        }
        guard let index = scope.captureSlot(of: binding) else {
            return Code { _ in .null }
        }
        return Code { frame in frame.captures[index].value }
    }

    /// Writes a binding (for assignment; declarations use `declareStore`).
    func store(_ binding: Binding, _ span: TextSpan) -> (Frame, Value) throws -> Void {
        switch binding.kind {
        case .hostGlobal(let global):
            let set = global.set
            let source = source
            let name = global.name
            return { _, value in
                guard let set else {
                    throw Diagnostic(kind: .runtime, message: "'\(name)' is read-only", source: source, span: span)
                }
                do {
                    try set(value)
                } catch let diagnostic as Diagnostic {
                    throw diagnostic
                } catch {
                    throw Diagnostic(kind: .runtime, message: "cannot set '\(name)': \(error)", source: source, span: span)
                }
            }
        default:
            break
        }
        if binding.isGlobal {
            let box = context.global(binding.assignedSlot)
            return { _, value in box.value = value }
        }
        if binding.owner === scope {
            let slot = binding.assignedSlot
            if binding.isCaptured { return { frame, value in frame.boxes[slot].value = value } }
            return { frame, value in frame.slots[slot] = value }
        }
        guard let index = scope.captureSlot(of: binding) else { return { _, _ in } }
        return { frame, value in frame.captures[index].value = value }
    }

    /// Initializes a variable at its declaration: a captured one gets a fresh box each time.
    func declareStore(_ binding: Binding?) -> (Frame, Value) -> Void {
        guard let binding else { return { _, _ in } }
        if binding.isGlobal {
            let box = context.global(binding.assignedSlot)
            return { _, value in box.value = value }
        }
        let slot = binding.assignedSlot
        if binding.isCaptured { return { frame, value in frame.boxes[slot] = Box(value) } }
        return { frame, value in frame.slots[slot] = value }
    }

    // MARK: Functions

    /// Compiles a closure or `func` body into a function-making code.
    mutating func makeFunction(name: String, scope inner: FunctionScope, body: [Stmt], singleExpression: Expr?,
                               parameterBindings: [Binding]) -> Code {
        var compiler = Compiler(source: source, context: context, scope: inner, annotations: annotations)
        let bodyCode: Code
        if let singleExpression {
            bodyCode = compiler.expression(singleExpression)
        } else {
            let block = compiler.block(body, hoist: true)
            if let sync = block.sync {
                bodyCode = Code { frame in
                    _ = try sync(frame)
                    return frame.returnValue
                }
            } else {
                let async = block.async
                bodyCode = Code(async: { frame in
                    _ = try await async(frame)
                    return frame.returnValue
                })
            }
        }
        diagnostics.append(contentsOf: compiler.diagnostics)
        let isPure = inner.isPure && bodyCode.isPure
        let sync = isPure ? bodyCode.sync : nil
        let async = bodyCode.async
        let slotCount = inner.slotCount
        let boxCount = inner.boxCount
        let parameters = parameterBindings.map { (slot: $0.assignedSlot, boxed: $0.isCaptured) }
        let parameterCount = max(parameterBindings.count, inner.implicitParameterCount)
        let context = context
        // Where each captured variable's box comes from in the creating frame.
        let sources: [(own: Bool, index: Int)] = inner.captures.map { binding in
            if binding.owner === scope { return (true, binding.assignedSlot) }
            return (false, scope.captureSlot(of: binding) ?? 0)
        }
        return Code { frame in
            var boxes: [Box] = []
            boxes.reserveCapacity(sources.count)
            for source in sources {
                boxes.append(source.own ? frame.boxes[source.index] : frame.captures[source.index])
            }
            let body = ScriptBody(sync: sync, async: async, slotCount: slotCount, boxCount: boxCount, captures: boxes,
                                  context: context, parameters: parameters, parameterCount: parameterCount)
            return .function(Function(name: name, isPure: isPure, body: .script(body)))
        }
    }
}
