/// A function value: a closure or `func` from a script, a host function, or a key path.
///
/// Script values are used by one evaluation at a time (an interpreter runs one evaluation at a
/// time), which is why this class may be `@unchecked Sendable` although script closures hold
/// frames: nothing shares them across concurrent tasks.
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
    func callAsync(_ arguments: [Value]) async throws -> Value {
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
            return try await ScriptTurn.yielding { try await host.body(arguments) }
        }
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

/// Internal control signals; never shown to a user.
enum ControlError: Error {
    case suspensionRequired
}

/// The compiled body of a script closure or `func`, with what it captured.
final class ScriptBody {
    let sync: ((Frame) throws -> Value)?
    let async: (Frame) async throws -> Value
    let slotCount: Int
    let boxCount: Int
    /// What it captured (emptied only by `deinit`, which hands them to ``DeferredRelease``).
    private(set) var captures: [Box]
    let context: RunContext
    /// Where each parameter goes: a plain slot, or a box (captured parameters).
    let parameters: [(slot: Int, boxed: Bool)]
    let parameterCount: Int
    let singleParameterSlot: Int?

    init(sync: ((Frame) throws -> Value)?, async: @escaping (Frame) async throws -> Value, slotCount: Int,
         boxCount: Int, captures: [Box], context: RunContext, parameters: [(slot: Int, boxed: Bool)],
         parameterCount: Int) {
        self.sync = sync
        self.async = async
        self.slotCount = slotCount
        self.boxCount = boxCount
        self.captures = captures
        self.context = context
        self.parameters = parameters
        self.parameterCount = parameterCount
        if parameters.count == 1, !parameters[0].boxed { singleParameterSlot = parameters[0].slot } else {
            singleParameterSlot = nil
        }
    }

    deinit {
        // A chain of closures each holding the last is freed link by link, not recursively: the
        // captures leave this body before it is destroyed, so its own destruction frees nothing.
        let taken = captures
        captures = []
        DeferredRelease.release(taken)
    }

    func makeFrame(_ arguments: [Value]) -> Frame {
        let frame = Frame(slotCount: slotCount, boxCount: boxCount, argumentCount: max(parameterCount, arguments.count),
                          captures: captures, context: context)
        for (index, argument) in arguments.enumerated() { frame.arguments[index] = argument }
        bindParameters(frame)
        return frame
    }

    /// Copies the frame's arguments into the parameters' slots (or fresh boxes, when captured).
    @inline(__always)
    func bindParameters(_ frame: Frame) {
        for (index, parameter) in parameters.enumerated() {
            let value = frame.argument(index)
            if parameter.boxed {
                frame.boxes[parameter.slot] = Box(value)
            } else {
                frame.slots[parameter.slot] = value
            }
        }
    }
}

/// A variable's storage when closures capture it, and every global's.
///
/// The value lives in memory the box owns; reads and writes go straight to it, without the
/// run-time exclusivity checks a stored class property would pay on every loop iteration.
final class Box {
    private let pointer: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    var value: Value {
        @inline(__always) get { pointer.pointee }
        @inline(__always) set { pointer.pointee = newValue }
    }
}

/// The variables of one running function, in memory the frame owns (see ``Box`` for why).
final class Frame {
    let slots: UnsafeMutablePointer<Value>
    let boxes: UnsafeMutablePointer<Box>
    let arguments: UnsafeMutablePointer<Value>
    let slotCount: Int
    let boxCount: Int
    let argumentCount: Int
    let captures: [Box]
    var returnValue: Value = .void
    let context: RunContext
    /// Set while a reused frame runs (see ``Function/unaryInvoker()``), so a re-entrant call gets its own.
    let inUse: UnsafeMutablePointer<Bool>

    init(slotCount: Int, boxCount: Int, argumentCount: Int = 0, captures: [Box], context: RunContext) {
        self.slotCount = slotCount
        self.boxCount = boxCount
        self.argumentCount = argumentCount
        slots = .allocate(capacity: max(1, slotCount))
        slots.initialize(repeating: .null, count: slotCount)
        boxes = .allocate(capacity: max(1, boxCount))
        for index in 0..<boxCount { (boxes + index).initialize(to: Box(.null)) }
        arguments = .allocate(capacity: max(1, argumentCount))
        arguments.initialize(repeating: .null, count: argumentCount)
        inUse = .allocate(capacity: 1)
        inUse.initialize(to: false)
        self.captures = captures
        self.context = context
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
        boxes.deinitialize(count: boxCount)
        boxes.deallocate()
        arguments.deinitialize(count: argumentCount)
        arguments.deallocate()
        inUse.deallocate()
    }

    /// Argument `index`, or nil past the end.
    @inline(__always)
    func argument(_ index: Int) -> Value {
        index < argumentCount ? arguments[index] : .null
    }
}

/// What every frame of one interpreter shares: the globals and the output.
final class RunContext {
    /// One box per global slot, made on first use; compiled code holds the box itself.
    private(set) var globalBoxes: [Box] = []
    var output: (String) -> Void
    var environment: (String) -> String?
    /// How `print` shows a value.
    var describe: (Value) -> String = ValueFormatter.description
    /// The most calls `concurrentMap` has in flight (the session's `concurrency`).
    let concurrency = ConcurrencyLimit()
    /// Counts steps (loop iterations and calls of script functions) between cancellation checks.
    private let ticks: UnsafeMutablePointer<Int>
    /// The step count at which the evaluation under way stops; see ``Interpreter/stepLimit``.
    private var stepEnd = Int.max
    /// How many script calls are under way.
    private let depth: UnsafeMutablePointer<Int>

    /// How deeply script calls may nest, sync or async (a recursion through an endpoint call
    /// grows on the heap, not the stack, and would otherwise run until memory ends).
    static let maximumCallDepth = 10_000

    init(output: @escaping (String) -> Void, environment: @escaping (String) -> String?) {
        self.output = output
        self.environment = environment
        ticks = .allocate(capacity: 1)
        ticks.initialize(to: 0)
        depth = .allocate(capacity: 1)
        depth.initialize(to: 0)
    }

    deinit {
        ticks.deallocate()
        depth.deallocate()
    }

    /// Why a call may not start here, or `nil` when it may: past ``maximumCallDepth``, or too
    /// close to the end of this thread's stack. A call that may start is matched by ``leaveCall()``.
    @inline(__always)
    func enterCall() -> String? {
        let current = depth.pointee + 1
        if current > Self.maximumCallDepth {
            return "calls nested deeper than \(Self.grouped(Self.maximumCallDepth)): a function that calls itself without end?"
        }
        if current & 7 == 0, StackGuard.isNearEnd() {
            return "calls nested \(Self.grouped(current)) deep fill this thread's stack: a function that calls itself without end?"
        }
        depth.pointee = current
        return nil
    }

    @inline(__always)
    func leaveCall() { depth.pointee -= 1 }

    /// `10000` as `10,000`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// Starts an evaluation: no call is under way, and it may take `steps` steps (`nil`: any number).
    func resetCalls(steps: Int? = nil) {
        depth.pointee = 0
        limitSteps(steps)
    }

    /// Lets the work from here on take at most `steps` steps (`nil`: any number), checked every
    /// 4,096 steps.
    func limitSteps(_ steps: Int?) {
        ticks.pointee = 0
        stepEnd = steps ?? .max
    }

    /// Empties every global (when its interpreter goes away), so that functions kept in globals,
    /// which hold this context, no longer keep it alive.
    func releaseGlobals() {
        let boxes = globalBoxes
        globalBoxes = []
        for box in boxes { box.value = .null }
    }

    /// The box of a global slot.
    func global(_ slot: Int) -> Box {
        while globalBoxes.count <= slot { globalBoxes.append(Box(.null)) }
        return globalBoxes[slot]
    }

    /// Counts a step, and every few thousand steps checks for cancellation and the step limit,
    /// so loops stop promptly and cheaply.
    @inline(__always)
    func tick() throws {
        ticks.pointee &+= 1
        if ticks.pointee & 0xFFF == 0 { try checkpoint() }
    }

    private func checkpoint() throws {
        if Task.isCancelled { throw CancellationError() }
        if ticks.pointee >= stepEnd {
            throw ScriptFailure("stopped after \(Self.grouped(stepEnd)) steps, the most this evaluation may take")
        }
    }
}

/// Follows a key path's member names through a value.
enum KeyPathRunner {
    static func navigate(_ value: Value, _ names: [String]) throws -> Value {
        var current = value
        for name in names {
            current = try Members.dynamicMember(current, name, span: nil)
        }
        return current
    }
}
