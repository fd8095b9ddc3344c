/// What the checker learned about one parsed input, kept beside its syntax tree rather than in it:
/// each expression's type, what its names and calls resolve to, the scopes of its functions and
/// closures, and the names it rewrote (`session.token`, `Int.max`). The compiler, the Swift
/// printer and completion read it; the tree stays what the parser made.
///
/// Keys are the nodes' identities. The table holds the tree it annotates (``hold(_:)``), so no
/// annotated node can be freed — and its identity reused — while the table lives. Bindings are
/// held weakly, as the tree held them: a recursive function's body names its own binding, and a
/// global function's binding holds the table of the input that declared it (for its parameters'
/// default values, compiled at each call).
final class Annotations {
    private var types: [ObjectIdentifier: ScriptType] = [:]
    private var bindings: [ObjectIdentifier: WeakBinding] = [:]
    private var patterns: [ObjectIdentifier: [WeakBinding?]] = [:]
    private var shadowedBindings: [ObjectIdentifier: WeakBinding] = [:]
    private var callees: [ObjectIdentifier: Callee] = [:]
    private var rewrittenKinds: [ObjectIdentifier: Expr.Kind] = [:]
    private var scopes: [ObjectIdentifier: FunctionScope] = [:]
    private var castTargets: [ObjectIdentifier: ScriptType] = [:]
    private var roots: [[Stmt]] = []

    /// Keeps a tree alive as long as this table (see the type's note).
    func hold(_ statements: [Stmt]) { roots.append(statements) }

    // MARK: Expressions

    /// The static type; `.unknown` before checking.
    func type(of expression: Expr) -> ScriptType { types[ObjectIdentifier(expression)] ?? .unknown }

    /// The type a cast (`x as? T`) names.
    func castTarget(of expression: Expr) -> ScriptType { castTargets[ObjectIdentifier(expression)] ?? .unknown }
    func setCastTarget(_ type: ScriptType, of expression: Expr) { castTargets[ObjectIdentifier(expression)] = type }
    func setType(_ type: ScriptType, of expression: Expr) { types[ObjectIdentifier(expression)] = type }

    /// What a name (or a qualified name written as a member access) refers to.
    func binding(of expression: Expr) -> Binding? { bindings[ObjectIdentifier(expression)]?.binding }
    func setBinding(_ binding: Binding, of expression: Expr) { bindings[ObjectIdentifier(expression)] = WeakBinding(binding) }

    /// For calls and member accesses: what is called or read.
    func callee(of expression: Expr) -> Callee? { callees[ObjectIdentifier(expression)] }
    func setCallee(_ callee: Callee, of expression: Expr) { callees[ObjectIdentifier(expression)] = callee }

    /// What the expression stands for: its kind as parsed, or what the checker made of it — a
    /// qualified name written as a member access (`session.token`) becomes the one name it spells,
    /// a constant (`Int.max`) its literal.
    func kind(of expression: Expr) -> Expr.Kind { rewrittenKinds[ObjectIdentifier(expression)] ?? expression.kind }
    func rewrite(_ expression: Expr, as kind: Expr.Kind) { rewrittenKinds[ObjectIdentifier(expression)] = kind }

    // MARK: Statements and conditions

    /// For declarations: the variable declared.
    func binding(of statement: Stmt) -> Binding? { bindings[ObjectIdentifier(statement)]?.binding }
    func setBinding(_ binding: Binding, of statement: Stmt) { bindings[ObjectIdentifier(statement)] = WeakBinding(binding) }

    /// For `for` loops: the variables of the pattern, in order (`nil` for `_`).
    func patternBindings(of statement: Stmt) -> [Binding?] {
        (patterns[ObjectIdentifier(statement)] ?? []).map { $0?.binding }
    }
    func setPatternBindings(_ bindings: [Binding?], of statement: Stmt) {
        patterns[ObjectIdentifier(statement)] = bindings.map { $0.map(WeakBinding.init) }
    }

    /// For optional bindings: the variable declared.
    func binding(of condition: Condition) -> Binding? { bindings[ObjectIdentifier(condition)]?.binding }
    func setBinding(_ binding: Binding, of condition: Condition) { bindings[ObjectIdentifier(condition)] = WeakBinding(binding) }

    /// For the shorthand `if let x`: what `x` referred to before.
    func shadowed(by condition: Condition) -> Binding? { shadowedBindings[ObjectIdentifier(condition)]?.binding }
    func setShadowed(_ binding: Binding, by condition: Condition) {
        shadowedBindings[ObjectIdentifier(condition)] = WeakBinding(binding)
    }

    // MARK: Functions

    /// The scope of a closure: its variables, captures and purity.
    func scope(of closure: ClosureSyntax) -> FunctionScope? { scopes[ObjectIdentifier(closure)] }
    func setScope(_ scope: FunctionScope, of closure: ClosureSyntax) { scopes[ObjectIdentifier(closure)] = scope }

    /// The scope of a `func` declared in this input.
    func scope(of function: FunctionSyntax) -> FunctionScope? { scopes[ObjectIdentifier(function)] }
    func setScope(_ scope: FunctionScope, of function: FunctionSyntax) { scopes[ObjectIdentifier(function)] = scope }
}
