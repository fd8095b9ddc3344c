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
        case `operator`(String)
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
            let frame = script.makeFrame(arguments)
            if let code = script.sync { return try code(frame) }
            return try await script.async(frame)
        case .keyPath(let names):
            return try KeyPathRunner.navigate(arguments.first ?? .null, names)
        case .operator(let op):
            return try Self.apply(op, arguments)
        case .host(let host):
            try Task.checkCancellation()
            return try await host.body(arguments)
        }
    }

    private static func apply(_ op: String, _ arguments: [Value]) throws -> Value {
        guard arguments.count == 2 else { throw ScriptFailure("operator '\(op)' takes two values") }
        switch op {
        case "&&": return .bool(try Operators.truth(arguments[0]) && Operators.truth(arguments[1]))
        case "||": return .bool(try Operators.truth(arguments[0]) || Operators.truth(arguments[1]))
        case "<", ">", "<=", ">=", "==", "!=": return .bool(try Operators.compare(op, arguments[0], arguments[1]))
        default: return try Operators.arithmetic(op, arguments[0], arguments[1])
        }
    }

    /// A caller for one argument that reuses a frame across calls (for `map`, `filter` …).
    func unaryInvoker() -> (Value) throws -> Value {
        switch body {
        case .script(let script) where script.sync != nil:
            let reusable = script.makeFrame([.null])
            var busy = false
            let code = script.sync ?? { _ in .void }
            let parameterSlot = script.singleParameterSlot
            return { argument in
                if busy { return try code(script.makeFrame([argument])) }
                busy = true
                defer { busy = false }
                reusable.arguments[0] = argument
                if let parameterSlot { reusable.slots[parameterSlot] = argument } else if script.parameterCount > 0 {
                    script.bindParameters(reusable, [argument])
                }
                return try code(reusable)
            }
        default:
            return { try self.call([$0]) }
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
    let captures: [Box]
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

    func makeFrame(_ arguments: [Value]) -> Frame {
        let frame = Frame(slotCount: slotCount, boxCount: boxCount, captures: captures, context: context)
        frame.arguments = arguments
        bindParameters(frame, arguments)
        return frame
    }

    func bindParameters(_ frame: Frame, _ arguments: [Value]) {
        for (index, parameter) in parameters.enumerated() {
            let value = index < arguments.count ? arguments[index] : .null
            if parameter.boxed {
                frame.boxes[parameter.slot] = Box(value)
            } else {
                frame.slots[parameter.slot] = value
            }
        }
    }
}

/// A captured variable's storage.
final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// The variables of one running function.
final class Frame {
    var slots: [Value]
    var boxes: [Box]
    let captures: [Box]
    var arguments: [Value] = []
    var returnValue: Value = .void
    let context: RunContext

    init(slotCount: Int, boxCount: Int, captures: [Box], context: RunContext) {
        slots = [Value](repeating: .null, count: slotCount)
        boxes = boxCount == 0 ? [] : (0..<boxCount).map { _ in Box(.null) }
        self.captures = captures
        self.context = context
    }
}

/// What every frame of one interpreter shares: the globals and the output.
final class RunContext {
    var globals: [Value] = []
    var output: (String) -> Void
    var environment: (String) -> String?
    /// Counts loop iterations between cancellation checks.
    var ticks = 0

    init(output: @escaping (String) -> Void, environment: @escaping (String) -> String?) {
        self.output = output
        self.environment = environment
    }

    /// Checks for cancellation every few thousand steps, so loops stop promptly and cheaply.
    @inline(__always)
    func tick() throws {
        ticks &+= 1
        if ticks & 0xFFF == 0, Task.isCancelled { throw CancellationError() }
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
