/// A function value: a closure or `func` from a script, a host function, or a key path.
///
/// Invariant (why `@unchecked Sendable`): script values are used by one evaluation at a time (an
/// interpreter runs one evaluation at a time, and `concurrentMap` runs script code one call at a
/// time, under its turn), so although script closures hold frames, no two tasks run one at
/// once. Tested by `ConcurrentMapTests` ("Script code runs one call at a time: a captured var
/// adds up exactly; nested concurrentMaps finish").
public final class Function: @unchecked Sendable {
    enum Body {
        case script(ScriptBody)
        case host(HostFunction)
        case keyPath([String])
        case `operator`(BinaryOperator)
    }

    /// The function's name, for messages.
    public let name: String
    /// Whether calling it never suspends (no host call inside).
    public let isPure: Bool
    let body: Body

    init(name: String, isPure: Bool, body: Body) {
        self.name = name
        self.isPure = isPure
        self.body = body
    }

    /// The interpreter's run context, for a script closure or function.
    var context: RunContext? {
        if case .script(let script) = body { return script.context }
        return nil
    }

    /// How many arguments it takes, when known.
    var arity: Int? {
        switch body {
        case .script(let script): script.parameterCount
        case .host(let host): host.parameters.count
        case .keyPath: 1
        case .operator: 2
        }
    }

    /// Calls a pure function.
    func call(_ arguments: [Value]) throws -> Value {
        switch body {
        case .script(let script):
            try script.context.tick()
            let frame = script.makeFrame(arguments)
            guard let code = script.sync else { throw ControlError.suspensionRequired }
            return try code(frame)
        case .keyPath(let names):
            return try KeyPathRunner.navigate(arguments.first ?? .null, names)
        case .operator(let op):
            return try Self.apply(op, arguments)
        case .host:
            throw ControlError.suspensionRequired
        }
    }

    /// Calls any function, suspending where it must.
    package func callAsync(_ arguments: [Value]) async throws -> Value {
        switch body {
        case .script(let script):
            try script.context.tick()
            let frame = script.makeFrame(arguments)
            if let code = script.sync { return try code(frame) }
            return try await script.async(frame)
        case .keyPath(let names):
            return try KeyPathRunner.navigate(arguments.first ?? .null, names)
        case .operator(let op):
            return try Self.apply(op, arguments)
        case .host(let host):
            try Task.checkCancellation()
            return try await ScriptTurn.yielding { scope in try await host.call(arguments, scope: scope) }
        }
    }

    /// Calls the function from a host function (one that takes a closure, as the shell's
    /// `pages { … }` does): the script code runs holding the turn the host call let go of (under
    /// `concurrentMap`, script code never runs beside other script code).
    package func callFromHost(_ arguments: [Value]) async throws -> Value {
        guard let turn = ScriptTurn.current else { return try await callAsync(arguments) }
        await turn.acquire()
        defer { turn.release() }
        return try await callAsync(arguments)
    }

    /// ``callFromHost(_:)`` with `value` handed to the host calls made inside it (see ``HostScope``).
    package func callFromHost<T: Sendable>(_ arguments: [Value], handing value: T) async throws -> Value {
        var scope = ScriptTurn.scope
        scope.host = scope.host.handing(value)
        return try await ScriptTurn.$scope.withValue(scope) { try await callFromHost(arguments) }
    }

    private static func apply(_ op: BinaryOperator, _ arguments: [Value]) throws -> Value {
        guard arguments.count == 2 else { throw ScriptFailure("operator '\(op)' takes two values") }
        switch op {
        case .and: return .bool(try Operators.truth(arguments[0]) && Operators.truth(arguments[1]))
        case .or: return .bool(try Operators.truth(arguments[0]) || Operators.truth(arguments[1]))
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return .bool(try Operators.compare(op, arguments[0], arguments[1]))
        case .coalesce: return arguments[0].isNull ? arguments[1] : arguments[0]
        case .halfOpenRange, .closedRange: return try Operators.range(arguments[0], arguments[1], closed: op == .closedRange)
        case .add, .subtract, .multiply, .divide, .remainder: return try Operators.arithmetic(op, arguments[0], arguments[1])
        }
    }

    /// A caller for one argument that reuses a frame across calls (for `map`, `filter` …).
    func unaryInvoker() -> (Value) throws -> Value {
        switch body {
        case .script(let script) where script.sync != nil:
            let reusable = script.makeFrame([.null])
            let code = script.sync ?? { _ in .void }
            let parameterSlot = script.singleParameterSlot
            let bindsParameters = script.parameterCount > 0
            let context = script.context
            return { argument in
                try context.tick()
                if reusable.inUse.pointee { return try code(script.makeFrame([argument])) }
                reusable.inUse.pointee = true
                reusable.arguments[0] = argument
                if let parameterSlot { reusable.slots[parameterSlot] = argument } else if bindsParameters {
                    script.bindParameters(reusable)
                }
                do {
                    let result = try code(reusable)
                    reusable.inUse.pointee = false
                    return result
                } catch {
                    reusable.inUse.pointee = false
                    throw error
                }
            }
        case .keyPath(let names):
            // One invoker serves one map/filter/sort: its cache remembers where the last record
            // type kept each name.
            let cache = KeyPathCache(steps: names.count)
            if names.count == 1, let name = names.first {
                return { argument in
                    if case .record(let record) = argument, let field = cache.field(of: record, named: name, step: 0) {
                        return field
                    }
                    return try Members.dynamicMember(argument, name, span: nil)
                }
            }
            return { argument in
                var current = argument
                for step in names.indices {
                    if case .record(let record) = current, let field = cache.field(of: record, named: names[step], step: step) {
                        current = field
                    } else {
                        current = try Members.dynamicMember(current, names[step], span: nil)
                    }
                }
                return current
            }
        default:
            return { try self.call([$0]) }
        }
    }

    /// A caller for two arguments that reuses a frame across calls (for `reduce`, `sorted(by:)`).
    func binaryInvoker() -> (Value, Value) throws -> Value {
        switch body {
        case .operator(let op):
            if op == .add {
                return { a, b in
                    if case .int(let x) = a, case .int(let y) = b {
                        let (sum, overflow) = x.addingReportingOverflow(y)
                        if !overflow { return .int(sum) }
                    }
                    return try Operators.arithmetic(.add, a, b)
                }
            }
            return { a, b in try Self.apply(op, [a, b]) }
        case .script(let script) where script.sync != nil:
            let reusable = script.makeFrame([.null, .null])
            let context = script.context
            let code = script.sync ?? { _ in .void }
            return { a, b in
                try context.tick()
                if reusable.inUse.pointee { return try code(script.makeFrame([a, b])) }
                reusable.inUse.pointee = true
                defer { reusable.inUse.pointee = false }
                reusable.arguments[0] = a
                reusable.arguments[1] = b
                script.bindParameters(reusable)
                return try code(reusable)
            }
        default:
            return { try self.call([$0, $1]) }
        }
    }
}
