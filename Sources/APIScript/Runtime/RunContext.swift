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
            return "calls nested deeper than \(NumberText.grouped(Self.maximumCallDepth)): a function that calls itself without end?"
        }
        if current & 7 == 0, StackGuard.isNearEnd() {
            return "calls nested \(NumberText.grouped(current)) deep fill this thread's stack: a function that calls itself without end?"
        }
        depth.pointee = current
        return nil
    }

    @inline(__always)
    func leaveCall() { depth.pointee -= 1 }

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
            throw ScriptFailure("stopped after \(NumberText.grouped(stepEnd)) steps, the most this evaluation may take")
        }
    }
}
