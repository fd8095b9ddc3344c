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
