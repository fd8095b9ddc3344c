/// What a name refers to.
final class Binding {
    enum Kind {
        /// A `let` or `var`, a parameter, a loop variable.
        case variable
        /// A global the host provides (`baseURL`, `token`).
        case hostGlobal(HostGlobal)
        /// A function the host provides (an endpoint).
        case hostFunction(HostFunction)
        /// A built-in global function (`print`, `expect` …).
        case builtin(BuiltinFunction)
        /// A `func` declared in a script.
        case scriptFunction(FunctionSyntax)
    }

    let name: String
    var type: ScriptType
    let isMutable: Bool
    let kind: Kind
    let span: TextSpan?
    /// The function the variable belongs to; `nil` for globals. Weak: the scope holds its
    /// variables (`locals`), so a strong reference back would keep every checked scope alive.
    private(set) weak var owner: FunctionScope?
    /// Whether it is a top-level name (it was made without an owner).
    let isGlobal: Bool
    /// Whether a closure captures it (it then lives in a box).
    var isCaptured = false
    /// The slot: a global index, a local slot, or a box index; -1 until one is given.
    var slot = -1
    /// The slot, for the compiler. A debug build stops on a binding that was never given one: a
    /// frame's slots are unchecked memory, and slot -1 lies before the frame.
    var assignedSlot: Int {
        assert(slot >= 0, "'\(name)' was compiled without a slot")
        return slot
    }
    /// Whether it was given a value on every path (for `let x: Int` declared without a value).
    var isInitialized = true
    /// The source it was declared in (an earlier input at the prompt is another source).
    var declaredIn: ScriptSource?
    /// Whether a `let` (or `if let`) declared it, rather than a loop, a parameter or a pattern.
    var isLetDeclaration = false
    /// For a script function: its scope (variables, captures, purity), once checked.
    var functionScope: FunctionScope?
    /// For a global script function: the annotations of the input that declared it. A later input
    /// that calls it compiles the parameters' default values with them. (A local function is only
    /// called in the input that declares it, so it needs none — and holding them would be a cycle.)
    var declaringAnnotations: Annotations?

    init(name: String, type: ScriptType, isMutable: Bool, kind: Kind, span: TextSpan?, owner: FunctionScope?) {
        self.name = name
        self.type = type
        self.isMutable = isMutable
        self.kind = kind
        self.span = span
        self.owner = owner
        isGlobal = owner == nil
    }

}

/// A function being checked (a closure, a `func`, or a script's top level) and its variables.
final class FunctionScope {
    /// The function this one is written in. Weak: a function's variables can hold a nested
    /// function's syntax, whose scope would otherwise hold this one — a cycle. While checking,
    /// the checker holds every scope (`allFunctions`).
    private(set) weak var parent: FunctionScope?
    /// Variables that live in this function's frame.
    var locals: [Binding] = []
    /// Outer variables this function uses, in the order of its capture list. Held weakly: a
    /// recursive local function captures its own binding, which holds its syntax, which holds
    /// this scope. Their scopes hold them while the checker and compiler read the list.
    private var captured: [WeakBinding] = []
    var captures: [Binding] { captured.compactMap(\.binding) }
    private var captureIndex: [ObjectIdentifier: Int] = [:]
    /// Whether running it never calls the host (so it can run without suspending).
    var isPure = true
    /// The declared or inferred result type.
    var returnType: ScriptType?
    /// Whether the result type comes from a declaration (checked) or is inferred (unified).
    var hasDeclaredReturnType = false
    /// For closures with `$0`, `$1`: the expected parameter types.
    var implicitParameterTypes: [ScriptType]?
    /// The highest `$n` used, plus one.
    var implicitParameterCount = 0
    /// The parameters' bindings, in order.
    var parameters: [Binding] = []
    /// Script functions this one calls, to settle purity afterwards; emptied once it is settled
    /// (a recursive function's binding holds its scope, which would hold the binding).
    var callees: [Binding] = []
    /// Closures written as arguments of built-in methods that call them (`map { … }`): when one
    /// calls the host, so does this function. Emptied with ``callees``.
    var invokedClosures: [FunctionScope] = []
    /// Number of plain slots and of boxes, after ``assignSlots()``.
    private(set) var slotCount = 0
    private(set) var boxCount = 0
    let isTopLevel: Bool

    init(parent: FunctionScope?, isTopLevel: Bool = false) {
        self.parent = parent
        self.isTopLevel = isTopLevel
    }

    /// The capture index of an outer variable, adding it (and to every function in between).
    func capture(_ binding: Binding) -> Int {
        if let index = captureIndex[ObjectIdentifier(binding)] { return index }
        binding.isCaptured = true
        if let parent, binding.owner !== parent { _ = parent.capture(binding) }
        captured.append(WeakBinding(binding))
        captureIndex[ObjectIdentifier(binding)] = captured.count - 1
        return captured.count - 1
    }

    func captureSlot(of binding: Binding) -> Int? { captureIndex[ObjectIdentifier(binding)] }

    /// Gives every local its slot: a box when captured, a plain slot otherwise.
    func assignSlots() {
        slotCount = 0
        boxCount = 0
        for local in locals {
            if local.isCaptured {
                local.slot = boxCount
                boxCount += 1
            } else {
                local.slot = slotCount
                slotCount += 1
            }
        }
    }
}

/// A binding held weakly: a call to a script function refers to the function's binding, which
/// holds the function's syntax, which holds the call — a cycle if held strongly. The binding lives
/// as long as its scope or the global table; the compiler reads it while the checker is alive.
struct WeakBinding {
    weak var binding: Binding?
    init(_ binding: Binding) { self.binding = binding }
}
