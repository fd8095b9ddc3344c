extension Compiler {
    /// Compiles statements; `hoist` creates the block's `func`s first so they can call each other.
    /// Compiles statements in order, functions first (`hoist`). With `echo`, each expression
    /// statement of a non-`Void` type hands its value and type to it (a script's top level, when
    /// its values are shown as at the prompt).
    mutating func block(_ statements: [Stmt], hoist: Bool = true, echo: ((Value, ScriptType) async throws -> Void)? = nil) -> Block {
        var blocks: [Block] = []
        if hoist {
            for statement in statements {
                guard case .function(let syntax) = statement.kind, let inner = annotations.scope(of: syntax) else { continue }
                var single: Expr?
                if syntax.body.count == 1, case .expression(let only) = syntax.body[0].kind,
                    let result = inner.returnType, result != .void
                {
                    single = only
                }
                let maker = makeFunction(name: syntax.name, scope: inner, body: syntax.body, singleExpression: single,
                                         parameterBindings: inner.parameters)
                let assign = declareStore(annotations.binding(of: statement))
                let make = maker.sync ?? { _ in .null }
                blocks.append(Block { frame in
                    assign(frame, try make(frame))
                    return .normal
                })
            }
        }
        for statement in statements {
            if case .function = statement.kind { continue }
            if let echo, case .expression(let expression) = statement.kind, annotations.type(of: expression) != .void {
                blocks.append(echoing(self.expression(expression), type: annotations.type(of: expression), echo, span: expression.span))
            } else {
                blocks.append(self.statement(statement))
            }
        }
        return Block.sequence(blocks)
    }

    mutating func statement(_ statement: Stmt) -> Block {
        switch statement.kind {
        case .expression(let expression):
            let code = annotations.type(of: expression) == .void ? self.expression(expression) : self.expression(expression)
            return evaluate(code)
        case .declaration(_, _, _, let annotation, let value):
            let assign = declareStore(annotations.binding(of: statement))
            guard let value else {
                return Block { frame in
                    assign(frame, .null)
                    return .normal
                }
            }
            var code = expression(value)
            // A dynamic value (JSON) takes the annotated type when it arrives, or stops there.
            if annotation != nil, annotations.type(of: value).isDynamic, let type = annotations.binding(of: statement)?.type, !type.isDynamic {
                code = Code.unary(code, at1(value.span) { try DynamicConformance.conform($0, to: type) })
            }
            if let binding = annotations.binding(of: statement), binding.type == .secret || annotation.map({ _ in binding.type == .secret }) == true {
                code = Code.unary(code) { value in
                    if case .string(let text) = value { return .secret(text) }
                    return value
                }
            }
            if let sync = code.sync {
                return Block { frame in
                    assign(frame, try sync(frame))
                    return .normal
                }
            }
            let async = code.async
            return Block(async: { frame in
                assign(frame, try await async(frame))
                return .normal
            })
        case .assignment(let target, let op, let value):
            return assignment(target: target, op: op, value: value, statement.span)
        case .discard(let value):
            return evaluate(self.expression(value))
        case .ifStatement(let clauses, let elseBody):
            return ifStatement(clauses, elseBody: elseBody)
        case .guardStatement(let conditions, let elseBody):
            let test = self.conditions(conditions)
            let otherwise = block(elseBody)
            return branch(test, then: .empty, otherwise: otherwise)
        case .forIn(let pattern, let sequence, let body, let awaits):
            if awaits { return forAwait(pattern, sequence: sequence, body: body, statement: statement) }
            return forIn(pattern, sequence: sequence, body: body, statement: statement)
        case .whileLoop(let conditions, let body):
            return whileLoop(self.conditions(conditions), body: block(body))
        case .breakStatement:
            return Block { _ in .breakLoop }
        case .continueStatement:
            return Block { _ in .continueLoop }
        case .returnStatement(let value):
            guard let value else { return Block { _ in .returned } }
            let code = expression(value)
            if let sync = code.sync {
                return Block { frame in
                    frame.returnValue = try sync(frame)
                    return .returned
                }
            }
            let async = code.async
            return Block(async: { frame in
                frame.returnValue = try await async(frame)
                return .returned
            })
        case .function, .invalid:
            return .empty
        }
    }

    private func echoing(_ code: Code, type: ScriptType, _ echo: @escaping (Value, ScriptType) async throws -> Void,
                         span: TextSpan) -> Block {
        let value = code.async
        let source = source
        return Block(async: { frame in
            let shown = try await value(frame)
            do {
                try await echo(shown, type)
            } catch {
                // Showing a stream reads it: its source's failure is placed at the statement.
                throw Self.hostFailure(error, source: source, span: span)
            }
            return .normal
        })
    }

    private func evaluate(_ code: Code) -> Block {
        if let sync = code.sync {
            return Block { frame in
                _ = try sync(frame)
                return .normal
            }
        }
        let async = code.async
        return Block(async: { frame in
            _ = try await async(frame)
            return .normal
        })
    }

    // MARK: Conditions

    /// A test that evaluates conditions in order and binds optionals; `true` when all hold.
    struct Test {
        let sync: ((Frame) throws -> Bool)?
        let async: (Frame) async throws -> Bool
    }

    mutating func conditions(_ conditions: [Condition]) -> Test {
        var parts: [(sync: ((Frame) throws -> Bool)?, async: (Frame) async throws -> Bool)] = []
        for condition in conditions {
            switch condition.kind {
            case .boolean(let expression):
                let code = self.expression(expression)
                let source = source
                let span = expression.span
                let truth: (Value) throws -> Bool = { value in
                    if case .bool(let flag) = value { return flag }
                    throw Diagnostic(kind: .runtime, message: "a condition must be a Bool, found '\(ValueFormatter.typeName(value))'",
                                     source: source, span: span)
                }
                if let sync = code.sync {
                    parts.append(({ try truth(try sync($0)) }, { try truth(try sync($0)) }))
                } else {
                    let async = code.async
                    parts.append((nil, { try truth(try await async($0)) }))
                }
            case .optionalBinding(_, _, let nameSpan, let value):
                let code = value.map { expression($0) }
                    ?? annotations.shadowed(by: condition).map { load($0, nameSpan) } ?? .constant(.null)
                let assign = declareStore(annotations.binding(of: condition))
                if let sync = code.sync {
                    let test: (Frame) throws -> Bool = { frame in
                        let value = try sync(frame)
                        if value.isNull { return false }
                        assign(frame, value)
                        return true
                    }
                    parts.append((test, { try test($0) }))
                } else {
                    let async = code.async
                    parts.append((nil, { frame in
                        let value = try await async(frame)
                        if value.isNull { return false }
                        assign(frame, value)
                        return true
                    }))
                }
            }
        }
        let syncs = parts.compactMap(\.sync)
        if syncs.count == parts.count {
            if syncs.count == 1 {
                let only = syncs[0]
                return Test(sync: only, async: { try only($0) })
            }
            let test: (Frame) throws -> Bool = { frame in
                for part in syncs where try !part(frame) { return false }
                return true
            }
            return Test(sync: test, async: { try test($0) })
        }
        let asyncs = parts.map(\.async)
        return Test(sync: nil, async: { frame in
            for part in asyncs where try await !part(frame) { return false }
            return true
        })
    }

    private func branch(_ test: Test, then: Block, otherwise: Block) -> Block {
        if let condition = test.sync, let yes = then.sync, let no = otherwise.sync {
            return Block { frame in try condition(frame) ? try yes(frame) : try no(frame) }
        }
        let condition = test.async
        let yes = then.async
        let no = otherwise.async
        return Block(async: { frame in try await condition(frame) ? try await yes(frame) : try await no(frame) })
    }

    private mutating func ifStatement(_ clauses: [(conditions: [Condition], body: [Stmt])], elseBody: [Stmt]?) -> Block {
        var result = elseBody.map { block($0) } ?? .empty
        for clause in clauses.reversed() {
            result = branch(conditions(clause.conditions), then: block(clause.body), otherwise: result)
        }
        return result
    }

    // MARK: Loops

    private func whileLoop(_ test: Test, body: Block) -> Block {
        let context = context
        if let condition = test.sync, let run = body.sync {
            return Block { frame in
                while try condition(frame) {
                    try context.tick()
                    switch try run(frame) {
                    case .breakLoop: return .normal
                    case .returned: return .returned
                    case .normal, .continueLoop: continue
                    }
                }
                return .normal
            }
        }
        let condition = test.async
        let run = body.async
        return Block(async: { frame in
            while try await condition(frame) {
                try context.tick()
                try Task.checkCancellation()
                switch try await run(frame) {
                case .breakLoop: return .normal
                case .returned: return .returned
                case .normal, .continueLoop: continue
                }
            }
            return .normal
        })
    }

    private mutating func forIn(_ pattern: Pattern, sequence: Expr, body: [Stmt], statement: Stmt) -> Block {
        let sequenceCode = expression(sequence)
        let bind = patternStore(pattern, annotations.patternBindings(of: statement), span: pattern.span)
        let bodyBlock = block(body)
        let context = context
        let span = sequence.span
        let source = source
        func elements(_ value: Value) throws -> [Value] {
            do {
                return try Members.elements(of: value)
            } catch let failure as ScriptFailure {
                throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span)
            }
        }
        if let sequenceSync = sequenceCode.sync, let run = bodyBlock.sync {
            return Block { frame in
                let value = try sequenceSync(frame)
                if case .range(let lower, let upper) = value {
                    var current = lower
                    while current < upper {
                        bind(frame, .int(current))
                        try context.tick()
                        switch try run(frame) {
                        case .breakLoop: return .normal
                        case .returned: return .returned
                        case .normal, .continueLoop: break
                        }
                        current += 1
                    }
                    return .normal
                }
                for element in try elements(value) {
                    bind(frame, element)
                    try context.tick()
                    switch try run(frame) {
                    case .breakLoop: return .normal
                    case .returned: return .returned
                    case .normal, .continueLoop: continue
                    }
                }
                return .normal
            }
        }
        let sequenceAsync = sequenceCode.async
        let run = bodyBlock.async
        return Block(async: { frame in
            let value = try await sequenceAsync(frame)
            for element in try elements(value) {
                bind(frame, element)
                try context.tick()
                try Task.checkCancellation()
                switch try await run(frame) {
                case .breakLoop: return .normal
                case .returned: return .returned
                case .normal, .continueLoop: continue
                }
            }
            return .normal
        })
    }

    /// `for try await x in stream { … }`: the body runs for each item as it arrives; leaving the
    /// loop any way (`break`, `return`, an error) closes the stream.
    private mutating func forAwait(_ pattern: Pattern, sequence: Expr, body: [Stmt], statement: Stmt) -> Block {
        let sequenceCode = expression(sequence).async
        let bind = patternStore(pattern, annotations.patternBindings(of: statement), span: pattern.span)
        let run = block(body).async
        let context = context
        let span = sequence.span
        let source = source
        return Block(async: { frame in
            let value = try await sequenceCode(frame)
            guard case .stream(let stream) = value else {
                throw Diagnostic(kind: .runtime, message: "'for try await' reads a stream, not '\(ValueFormatter.typeName(value))'",
                                 source: source, span: span)
            }
            var flow = Flow.normal
            do {
                try await stream.forEach { item in
                    bind(frame, item)
                    try context.tick()
                    switch try await run(frame) {
                    case .breakLoop: return false
                    case .returned:
                        flow = .returned
                        return false
                    case .normal, .continueLoop: return true
                    }
                }
            } catch {
                throw Self.hostFailure(error, source: source, span: span)
            }
            return flow
        })
    }

    /// Stores a loop element into the pattern's variables.
    private func patternStore(_ pattern: Pattern, _ bindings: [Binding?], span: TextSpan) -> (Frame, Value) -> Void {
        switch pattern {
        case .wildcard:
            return { _, _ in }
        case .name:
            return declareStore(bindings.first ?? nil)
        case .tuple:
            let stores = bindings.map { declareStore($0) }
            return { frame, value in
                guard case .record(let record) = value else {
                    for store in stores { store(frame, .null) }
                    return
                }
                for (index, store) in stores.enumerated() {
                    store(frame, record.value(at: index) ?? .null)
                }
            }
        }
    }
}
