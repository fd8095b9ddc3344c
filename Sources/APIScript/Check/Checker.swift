/// Checks a parsed script against the names and types the host registered, before anything runs.
///
/// It reports every error of the script in one run: unknown names (with the nearest name), wrong
/// labels and argument types, members a record lacks, conditions that are not `Bool`, assignments
/// to constants, `break` outside a loop. What it learns — types and resolutions — it records in its
/// ``annotations`` for the compiler, beside the tree.
struct Checker {
    let source: ScriptSource
    let globals: GlobalTable
    /// At the prompt, a top-level name may be declared again (it replaces the old one).
    let isPrompt: Bool
    var diagnostics: [Diagnostic] = []
    /// How many expressions were checked, re-checks included: the checker's work, for tests that
    /// it stays linear in the input.
    var expressionsChecked = 0
    /// Reduces whose closure is being checked on trial (see ``reduceType(_:)``).
    var reduceTrials = 0
    /// Lexical scopes, innermost last. The first is the script's top level.
    private var scopes: [[String: Binding]] = [[:]]
    private var scopeOwners: [FunctionScope]
    var function: FunctionScope
    var loopDepth = 0
    /// While a top-level declaration that takes an endpoint's name is checked, that name: its
    /// initial value may not use it (Swift's circular reference).
    var endpointBeingShadowed: String?
    /// Globals this evaluation declares.
    private(set) var newGlobals: [Binding] = []
    var allFunctions: [FunctionScope] = []
    /// What the check learns about the tree: types, resolutions, scopes (see ``Annotations``).
    let annotations = Annotations()

    init(source: ScriptSource, globals: GlobalTable, isPrompt: Bool) {
        self.source = source
        self.globals = globals
        self.isPrompt = isPrompt
        let main = FunctionScope(parent: nil, isTopLevel: true)
        self.function = main
        self.scopeOwners = [main]
        self.allFunctions = [main]
    }

    /// The top-level function of the script.
    var main: FunctionScope { allFunctions[0] }

    /// Checks statements and settles slots and purity.
    mutating func check(_ statements: [Stmt]) {
        annotations.hold(statements)
        checkBlock(statements, newScope: false)
        settlePurity()
        for scope in allFunctions {
            scope.assignSlots()
            scope.callees.removeAll()
            scope.invokedClosures.removeAll()
        }
    }

    // MARK: Diagnostics

    mutating func error(_ message: String, _ span: TextSpan, notes: [Diagnostic.Note] = [], suggestion: String? = nil) {
        diagnostics.append(Diagnostic(kind: .check, message: message, source: source, span: span, notes: notes,
                                      suggestion: suggestion))
    }

    mutating func warning(_ message: String, _ span: TextSpan) {
        diagnostics.append(Diagnostic(.warning, kind: .check, message: message, source: source, span: span))
    }

    mutating func note(_ message: String, _ span: TextSpan) {
        diagnostics.append(Diagnostic(.note, kind: .check, message: message, source: source, span: span))
    }

    /// Refuses a use of the name a declaration is taking from an endpoint, in that declaration's own
    /// initial value (`let books = books()`). True when it did.
    mutating func refusesCircularUse(of name: String, _ span: TextSpan) -> Bool {
        guard name == endpointBeingShadowed else { return false }
        error("circular reference: '\(name)' is being declared here, so its initial value cannot use '\(name)'", span,
              notes: [.init("the endpoint is also 'api.\(name)(…)'; or name the value otherwise, such as 'all\(name.prefix(1).uppercased() + name.dropFirst())'")])
        return true
    }

    // MARK: Scopes

    private var atTopLevel: Bool { scopes.count == 1 && function.isTopLevel }

    mutating func pushScope() {
        scopes.append([:])
        scopeOwners.append(function)
    }

    mutating func popScope() {
        scopes.removeLast()
        scopeOwners.removeLast()
    }

    /// What to do about a constant someone tried to change: where its `let` is, when that is in
    /// this source; the earlier input's line, when it is in another; how to copy a loop variable
    /// or a parameter, which have no `let` to change.
    func immutabilityNotes(_ binding: Binding) -> [Diagnostic.Note] {
        guard binding.isLetDeclaration else {
            return [.init("'\(binding.name)' is a loop variable or a parameter, which cannot change; copy it first: var \(binding.name)Copy = \(binding.name)")]
        }
        guard let span = binding.span else { return [] }
        guard let declared = binding.declaredIn, declared !== source else {
            return [.init("change 'let' to 'var' to make it mutable", span: span)]
        }
        let line = String(declared.line(declared.position(at: span.start).line).drop { $0 == " " || $0 == "\t" })
        return [.init("'\(binding.name)' was declared with 'let' in an earlier input (\(line)); declare it again with 'var' to change it")]
    }

    /// Declares a variable in the innermost scope.
    @discardableResult
    mutating func declare(_ name: String, type: ScriptType, isMutable: Bool, span: TextSpan,
                          kind: Binding.Kind = .variable) -> Binding {
        if name == "_" {
            // Never found by name, but it has a slot like any local: the value is still stored, and
            // a `_` parameter keeps the parameters after it in their places.
            let binding = Binding(name: name, type: type, isMutable: isMutable, kind: kind, span: span, owner: function)
            function.locals.append(binding)
            return binding
        }
        if atTopLevel {
            if let existing = globals.bindings[name] ?? scopes[0][name] {
                switch existing.kind {
                case .hostFunction:
                    // As a Swift file's declaration shadows an imported function (the `let` says so).
                    break
                case .hostGlobal:
                    error("cannot declare '\(name)': it is a session property; assign it with '\(name) = …'", span)
                case .builtin:
                    error("cannot declare '\(name)': it is a built-in function", span)
                case .variable, .scriptFunction:
                    if !isPrompt, scopes[0][name] != nil || globals.bindings[name] != nil {
                        error("invalid redeclaration of '\(name)'", span,
                              notes: existing.span.map { [.init("'\(name)' was declared here", span: $0)] } ?? [])
                    }
                }
            }
            let binding = Binding(name: name, type: type, isMutable: isMutable, kind: kind, span: span, owner: nil)
            binding.declaredIn = source
            binding.slot = globals.allocateSlot()
            scopes[0][name] = binding
            newGlobals.append(binding)
            return binding
        }
        if let existing = scopes[scopes.count - 1][name] {
            error("invalid redeclaration of '\(name)'", span,
                  notes: existing.span.map { [.init("'\(name)' was declared here", span: $0)] } ?? [])
        }
        let binding = Binding(name: name, type: type, isMutable: isMutable, kind: kind, span: span, owner: function)
        binding.declaredIn = source
        function.locals.append(binding)
        scopes[scopes.count - 1][name] = binding
        return binding
    }

    /// Finds a name, marking captures for closures.
    mutating func lookup(_ name: String) -> Binding? {
        for depth in stride(from: scopes.count - 1, through: 0, by: -1) {
            guard let binding = scopes[depth][name] else { continue }
            if let owner = binding.owner, owner !== function {
                _ = function.capture(binding)
            }
            return binding
        }
        return globals.bindings[name]
    }

    /// The qualified name a member access spells (`session.token`, `Swift.print`, `api.books`), or
    /// nil for an ordinary member access: the base is no qualifier, or a script's own name hides it.
    func qualifiedName(base: Expr, member: String) -> String? {
        guard case .name(let qualifier) = base.kind, QualifiedName.qualifiers.contains(qualifier) else { return nil }
        if scopes.contains(where: { $0[qualifier] != nil }) { return nil }
        if let global = globals.bindings[qualifier] {
            switch global.kind {
            case .variable, .scriptFunction: return nil
            case .hostGlobal, .hostFunction, .builtin: break
            }
        }
        return qualifier + "." + member
    }

    /// Reports a qualified name that names nothing, with the nearest that does.
    mutating func unknownQualifiedName(_ qualified: String, _ span: TextSpan) {
        let parts = qualified.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return }
        let known = globals.bindings.keys.filter { $0.hasPrefix(parts[0] + ".") }.map { String($0.dropFirst(parts[0].count + 1)) }
        let suggestion = Suggestions.nearest(to: parts[1], in: known)
        let message = switch parts[0] {
        case QualifiedName.session: "the session has no property '\(parts[1])'"
        case QualifiedName.builtins: "'\(parts[1])' is not a built-in function"
        default: "there is no endpoint '\(parts[1])'"
        }
        error(message, span, notes: suggestion.map { [.init("did you mean '\(parts[0]).\($0)'?")] } ?? [], suggestion: suggestion)
    }

    /// Every name visible here, for suggestions (qualified spellings aside).
    func visibleNames() -> [String] {
        var names = Set(globals.bindings.keys.filter { !$0.contains(".") })
        for scope in scopes { names.formUnion(scope.keys) }
        return Array(names)
    }

    // MARK: Statements

    mutating func checkBlock(_ statements: [Stmt], newScope: Bool = true) {
        if newScope { pushScope() }
        // Functions are visible throughout their block, as in Swift.
        for statement in statements {
            if case .function(let syntax) = statement.kind { declareFunction(syntax, statement) }
        }
        var unreachableReported = false
        for (position, statement) in statements.enumerated() {
            checkStatement(statement)
            if !unreachableReported, position < statements.count - 1, Self.exits(statement) {
                warning("code after '\(Self.exitWord(statement))' will never run", statements[position + 1].span)
                unreachableReported = true
            }
        }
        if newScope { popScope() }
    }

    static func exits(_ statement: Stmt) -> Bool {
        switch statement.kind {
        case .breakStatement, .continueStatement, .returnStatement: true
        default: false
        }
    }

    private static func exitWord(_ statement: Stmt) -> String {
        switch statement.kind {
        case .breakStatement: "break"
        case .continueStatement: "continue"
        default: "return"
        }
    }

    private mutating func declareFunction(_ syntax: FunctionSyntax, _ statement: Stmt) {
        let parameterTypes = syntax.parameters.map { resolveType($0.type) }
        let result = syntax.returnType.map { resolveType($0) } ?? .void
        let binding = declare(syntax.name, type: .function(parameters: parameterTypes, result: result),
                              isMutable: false, span: syntax.nameSpan, kind: .scriptFunction(syntax))
        annotations.setBinding(binding, of: statement)
        // The scope is made here, where the function is declared, so that a call checked before its
        // body (functions are visible throughout their block) finds it.
        let scope = FunctionScope(parent: function)
        allFunctions.append(scope)
        annotations.setScope(scope, of: syntax)
        binding.functionScope = scope
        if binding.isGlobal { binding.declaringAnnotations = annotations }
    }

    mutating func checkStatement(_ statement: Stmt) {
        switch statement.kind {
        case .expression(let expression):
            let type = checkExpression(expression, expected: nil)
            if case .closure = expression.kind {
                warning("a closure on its own is never called", expression.span)
            }
            _ = type
        case .declaration(let isLet, let name, let nameSpan, let annotation, let value):
            var type: ScriptType
            // A top-level value named like an endpoint shadows it; its own initial value may not use it.
            let shadowed = endpointBeingShadowed
            let takesEndpoint = if value != nil, atTopLevel, scopes[0][name] == nil,
                case .hostFunction? = globals.bindings[name]?.kind { true } else { false }
            if takesEndpoint { endpointBeingShadowed = name }
            let errorsBefore = diagnostics.count(where: { $0.severity == .error })
            if let annotation {
                type = resolveType(annotation)
                if let value {
                    let found = checkExpression(value, expected: type)
                    requireAssignable(found, to: type, value.span)
                }
            } else if let value {
                type = checkExpression(value, expected: nil)
                if type == .nilLiteral {
                    error("'nil' needs a type: write '\(isLet ? "let" : "var") \(name): String? = nil'", value.span)
                    type = .unknown
                } else if type == .void {
                    warning("'\(name)' is Void: the expression gives no value", value.span)
                }
            } else {
                type = .unknown
            }
            endpointBeingShadowed = shadowed
            if takesEndpoint, diagnostics.count(where: { $0.severity == .error }) == errorsBefore {
                note("'\(name)' names this value from here on; the endpoint is still 'api.\(name)(…)'", nameSpan)
            }
            let binding = declare(name, type: type, isMutable: !isLet, span: nameSpan)
            binding.isLetDeclaration = isLet
            binding.isInitialized = value != nil
            annotations.setBinding(binding, of: statement)
        case .assignment(let target, let op, let value):
            checkAssignment(target: target, op: op, value: value, statement.span)
        case .discard(let value):
            checkExpression(value, expected: nil)
        case .ifStatement(let clauses, let elseBody):
            for clause in clauses {
                pushScope()
                checkConditions(clause.conditions)
                checkBlock(clause.body)
                popScope()
            }
            if let elseBody { checkBlock(elseBody) }
        case .guardStatement(let conditions, let elseBody):
            // The else body cannot see the bindings; the rest of the block can.
            checkBlock(elseBody)
            if !(elseBody.last.map(Self.exits) ?? false) {
                error("'guard' body must not fall through; end it with 'return', 'break' or 'continue'",
                      elseBody.last?.span ?? statement.span)
            }
            checkConditions(conditions)
        case .forIn(let pattern, let sequence, let body, let awaits):
            let sequenceType = checkExpression(sequence, expected: nil)
            let element = awaits ? streamItemType(of: sequenceType, sequence.span) : elementType(of: sequenceType, sequence.span)
            pushScope()
            bind(pattern, to: element, statement: statement)
            loopDepth += 1
            checkBlock(body)
            loopDepth -= 1
            popScope()
        case .whileLoop(let conditions, let body):
            pushScope()
            checkConditions(conditions)
            loopDepth += 1
            checkBlock(body)
            loopDepth -= 1
            popScope()
        case .breakStatement:
            if loopDepth == 0 { error("'break' is only allowed inside a loop", statement.span) }
        case .continueStatement:
            if loopDepth == 0 { error("'continue' is only allowed inside a loop", statement.span) }
        case .returnStatement(let value):
            checkReturn(value, statement.span)
        case .function(let syntax):
            checkFunctionBody(syntax)
        case .invalid:
            break
        }
    }

    private mutating func checkReturn(_ value: Expr?, _ span: TextSpan) {
        if function.isTopLevel {
            if let value { _ = checkExpression(value, expected: nil) }
            return
        }
        let expected = function.hasDeclaredReturnType ? function.returnType : nil
        let found = value.map { checkExpression($0, expected: expected) } ?? .void
        if function.hasDeclaredReturnType, let expected {
            if expected == .void, value != nil, found != .void {
                error("unexpected non-Void return value in a function that returns nothing", value?.span ?? span)
            } else if expected != .void, value == nil {
                error("non-Void function should return a value of type '\(expected)'", span)
            } else {
                requireAssignable(found, to: expected, value?.span ?? span)
            }
        } else {
            function.returnType = function.returnType.map { unify($0, found) } ?? found
        }
    }

    private mutating func bind(_ pattern: Pattern, to type: ScriptType, statement: Stmt) {
        switch pattern {
        case .name(let name, let span):
            annotations.setPatternBindings([declare(name, type: type, isMutable: false, span: span)], of: statement)
        case .wildcard:
            annotations.setPatternBindings([nil], of: statement)
        case .tuple(let elements, let span):
            var fieldTypes: [ScriptType]
            if case .record(let record) = type, record.isTuple, record.fields.count == elements.count {
                fieldTypes = record.fields.map(\.type)
            } else {
                if !type.isDynamic { error("cannot destructure '\(type)' into \(elements.count) names", span) }
                fieldTypes = Array(repeating: type.isDynamic ? type : .unknown, count: elements.count)
            }
            let bindings: [Binding?] = zip(elements, fieldTypes).map { element, fieldType in
                switch element {
                case .name(let name, let nameSpan):
                    return declare(name, type: fieldType, isMutable: false, span: nameSpan)
                case .wildcard:
                    return nil
                case .tuple:
                    error("nested tuple patterns are not supported", element.span)
                    return nil
                }
            }
            annotations.setPatternBindings(bindings, of: statement)
        }
    }

    mutating func checkConditions(_ conditions: [Condition]) {
        for condition in conditions {
            switch condition.kind {
            case .boolean(let expression):
                let type = checkExpression(expression, expected: .bool)
                if !type.isDynamic, type != .bool {
                    if type.isOptional {
                        error("optional type '\(type)' cannot be used as a boolean; test for '!= nil' instead",
                              expression.span)
                    } else {
                        error("type '\(type)' cannot be used as a boolean; use a comparison such as '!= 0'",
                              expression.span)
                    }
                }
            case .optionalBinding(let isLet, let name, let nameSpan, let value):
                let type: ScriptType
                if let value {
                    type = checkExpression(value, expected: nil)
                } else if let existing = lookup(name) {
                    annotations.setShadowed(existing, by: condition)
                    type = existing.type
                } else {
                    error("cannot find '\(name)' in scope", nameSpan)
                    type = .unknown
                }
                if !type.isDynamic, !type.isOptional {
                    error("initializer for conditional binding must have Optional type, not '\(type)'",
                          value?.span ?? nameSpan)
                }
                let binding = declare(name, type: type.unwrapped, isMutable: !isLet, span: nameSpan)
                binding.isLetDeclaration = isLet
                annotations.setBinding(binding, of: condition)
            }
        }
    }

    private mutating func checkFunctionBody(_ syntax: FunctionSyntax) {
        guard let scope = annotations.scope(of: syntax) else { return }
        let savedFunction = function
        let savedLoops = loopDepth
        function = scope
        loopDepth = 0
        scope.returnType = syntax.returnType.map { resolveType($0) } ?? .void
        scope.hasDeclaredReturnType = true
        pushScope()
        for parameter in syntax.parameters {
            let type = resolveType(parameter.type)
            if let defaultValue = parameter.defaultValue {
                let found = checkExpression(defaultValue, expected: type)
                requireAssignable(found, to: type, defaultValue.span)
            }
            scope.parameters.append(declare(parameter.name, type: type, isMutable: false, span: parameter.span))
        }
        if let result = scope.returnType, result != .void, syntax.body.count == 1,
            case .expression(let single) = syntax.body[0].kind
        {
            // A single expression is the function's result, as in Swift.
            let found = checkExpression(single, expected: result)
            requireAssignable(found, to: result, single.span)
            popScope()
            function = savedFunction
            loopDepth = savedLoops
            return
        }
        checkBlock(syntax.body)
        if let result = scope.returnType, result != .void, !Self.alwaysReturns(syntax.body) {
            error("missing return in a function expected to return '\(result)'", syntax.nameSpan)
        }
        popScope()
        function = savedFunction
        loopDepth = savedLoops
    }

    /// Whether every path through the statements ends in `return`.
    static func alwaysReturns(_ statements: [Stmt]) -> Bool {
        statements.contains { statement in
            switch statement.kind {
            case .returnStatement: return true
            case .ifStatement(let clauses, let elseBody):
                guard let elseBody else { return false }
                return clauses.allSatisfy { alwaysReturns($0.body) } && alwaysReturns(elseBody)
            case .guardStatement: return false
            default: return false
            }
        }
    }

    // MARK: Assignment

    private mutating func checkAssignment(target: Expr, op: BinaryOperator?, value: Expr, _ span: TextSpan) {
        let targetType = checkAssignable(target)
        let expected: ScriptType? = targetType.isDynamic ? nil : targetType
        let valueType = checkExpression(value, expected: op == nil ? expected : targetType == .double ? .double : nil)
        if let symbol = op {
            let result = arithmeticResult(symbol, targetType, valueType, left: target, right: value, span)
            if !result.isDynamic, !targetType.isDynamic, !targetType.accepts(result) {
                error("cannot assign the result of '\(symbol)' of type '\(result)' to '\(targetType)'", value.span)
            }
        } else {
            requireAssignable(valueType, to: targetType, value.span)
        }
    }

    /// The type of an assignment target, reporting targets that cannot be assigned.
    ///
    /// The target is checked once, whole; then its chain (`a.b[0].c`) is walked down to its root
    /// name using what that check found, so a long chain costs one pass, not one per link.
    private mutating func checkAssignable(_ target: Expr) -> ScriptType {
        var type = checkExpression(target, expected: nil)
        if case .subscriptAccess(let base, _, _) = annotations.kind(of: target), case .dictionary(let value) = annotations.type(of: base) {
            type = value.optional
        }
        var current = target
        while true {
            switch annotations.kind(of: current) {
            case .name(let name):
                guard let binding = annotations.binding(of: current) else { return type }
                switch binding.kind {
                case .variable:
                    if !binding.isMutable {
                        error("cannot assign to value: '\(name)' is a 'let' constant", current.span,
                              notes: immutabilityNotes(binding))
                    }
                case .hostGlobal(let global):
                    if global.set == nil { error("cannot assign to '\(name)': it is read-only", current.span) }
                case .hostFunction, .builtin, .scriptFunction:
                    error("cannot assign to '\(name)': it is a function", current.span)
                }
                return current === target ? binding.type : type
            case .member(let base, _, _, let optional):
                if optional { error("cannot assign through '?.'", current.span) }
                if case .property = annotations.callee(of: current) { error("cannot assign to a computed property", current.span) }
                current = base
            case .subscriptAccess(let base, _, _):
                current = base
            default:
                error("cannot assign to this expression", current.span)
                return current === target ? .unknown : type
            }
        }
    }

    // MARK: Types

    mutating func resolveType(_ syntax: TypeSyntax) -> ScriptType {
        switch syntax {
        case .name(let name, let span):
            switch name {
            case "Int": return .int
            case "Double": return .double
            case "Bool": return .bool
            case "String": return .string
            case "Secret": return .secret
            case "Bytes": return .bytes
            case "Any": return .any
            case "Void": return .void
            default:
                if let record = globals.recordTypes[name] { return .record(record) }
                globals.askForMoreRecordTypes()
                if let record = globals.recordTypes[name] { return .record(record) }
                let known = ["Int", "Double", "Bool", "String", "Secret", "Bytes", "Any", "Void"] + globals.recordTypes.keys
                let suggestion = Suggestions.nearest(to: name, in: known)
                error("cannot find type '\(name)' in scope", span,
                      notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
                return .unknown
            }
        case .optional(let wrapped, _): return resolveType(wrapped).optional
        case .array(let element, _): return .array(resolveType(element))
        case .dictionary(let key, let value, let span):
            if resolveType(key) != .string { error("dictionary keys must be String", span) }
            return .dictionary(resolveType(value))
        case .function(let parameters, let result, _):
            return .function(parameters: parameters.map { resolveType($0) }, result: resolveType(result))
        }
    }

    mutating func requireAssignable(_ found: ScriptType, to expected: ScriptType, _ span: TextSpan) {
        if expected.accepts(found) { return }
        if expected == .secret, found == .string { return }
        if expected == .double, found == .int {
            error("cannot convert value of type 'Int' to 'Double'; write Double(…)", span)
            return
        }
        if found.isOptional, expected.accepts(found.unwrapped) {
            error("value of optional type '\(found)' must be unwrapped to a value of type '\(expected)'", span,
                  notes: [.init("use '?? default' to give a value for nil, or '!' if it can never be nil")])
            return
        }
        error("cannot convert value of type '\(found)' to expected type '\(expected)'", span)
    }

    /// The common type of two branches or elements.
    func unify(_ a: ScriptType, _ b: ScriptType) -> ScriptType {
        if a == b { return a }
        if a == .unknown { return b }
        if b == .unknown { return a }
        if a == .nilLiteral { return b.optional }
        if b == .nilLiteral { return a.optional }
        if a.accepts(b) { return a }
        if b.accepts(a) { return b }
        if (a == .int && b == .double) || (a == .double && b == .int) { return .double }
        return .any
    }

    /// What `for … in` yields for a sequence type.
    mutating func elementType(of type: ScriptType, _ span: TextSpan) -> ScriptType {
        switch type {
        case .array(let element): return element
        case .range, .bytes: return .int
        case .string: return .string
        case .dictionary(let value):
            return .record(RecordType.tuple([.init("key", .string), .init("value", value)]))
        case .any, .unknown: return type
        case .stream:
            error("a stream is read as its items arrive: write 'for try await x in \(source.text(of: span))'", span)
            return .unknown
        case .optional(let wrapped):
            error("value of optional type '\(type)' must be unwrapped before iterating", span,
                  notes: [.init("write 'for x in \(source.text(of: span)) ?? []'")])
            return elementType(of: wrapped, span)
        default:
            error("'\(type)' is not a sequence; 'for … in' takes an array, a range, a string, bytes or a dictionary", span)
            return .unknown
        }
    }

    /// The item type `for try await` binds; reading a stream suspends, so the function is not pure.
    mutating func streamItemType(of type: ScriptType, _ span: TextSpan) -> ScriptType {
        function.isPure = false
        switch type {
        case .stream(let item): return item
        case .any, .unknown: return type
        case .optional(let wrapped) where wrapped.isStream:
            error("value of optional type '\(type)' must be unwrapped before it is read", span)
            return streamItemType(of: wrapped, span)
        default:
            // Swift says: "for-in loop requires '[Int]' to conform to 'AsyncSequence'".
            error("'for try await' reads a stream; '\(type)' is not one: write 'for x in \(source.text(of: span))'", span)
            return elementType(of: type, span)
        }
    }

    // MARK: Purity

    private mutating func settlePurity() {
        var changed = true
        while changed {
            changed = false
            for scope in allFunctions where scope.isPure
                && (scope.callees.contains { $0.functionScope?.isPure == false } || scope.invokedClosures.contains { !$0.isPure })
            {
                scope.isPure = false
                changed = true
            }
        }
    }
}
