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
