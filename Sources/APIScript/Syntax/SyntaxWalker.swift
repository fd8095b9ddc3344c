/// Visits every expression of a tree, outermost first; with `intoFunctions: false`, not those
/// in the bodies of closures and `func`s (which run in scopes of their own).
enum SyntaxWalker {
    static func forEach(in statements: [Stmt], intoFunctions: Bool = true, _ visit: (Expr) -> Void) {
        for statement in statements { walk(statement, intoFunctions, visit) }
    }

    /// Visits every statement of a tree, outermost first, into the bodies of `if`, `guard`,
    /// loops and `func`s.
    static func forEachStatement(in statements: [Stmt], _ visit: (Stmt) -> Void) {
        for statement in statements {
            visit(statement)
            switch statement.kind {
            case .ifStatement(let clauses, let elseBody):
                for clause in clauses { forEachStatement(in: clause.body, visit) }
                elseBody.map { forEachStatement(in: $0, visit) }
            case .guardStatement(_, let elseBody): forEachStatement(in: elseBody, visit)
            case .forIn(_, _, let body, _), .whileLoop(_, let body): forEachStatement(in: body, visit)
            case .function(let syntax): forEachStatement(in: syntax.body, visit)
            default: break
            }
        }
    }

    private static func walk(_ statement: Stmt, _ into: Bool, _ visit: (Expr) -> Void) {
        switch statement.kind {
        case .expression(let expression), .discard(let expression): walk(expression, into, visit)
        case .declaration(_, _, _, _, let value): value.map { walk($0, into, visit) }
        case .assignment(let target, _, let value):
            walk(target, into, visit)
            walk(value, into, visit)
        case .ifStatement(let clauses, let elseBody):
            for clause in clauses {
                walk(clause.conditions, into, visit)
                forEach(in: clause.body, intoFunctions: into, visit)
            }
            elseBody.map { forEach(in: $0, intoFunctions: into, visit) }
        case .guardStatement(let conditions, let elseBody):
            walk(conditions, into, visit)
            forEach(in: elseBody, intoFunctions: into, visit)
        case .forIn(_, let sequence, let body, _):
            walk(sequence, into, visit)
            forEach(in: body, intoFunctions: into, visit)
        case .whileLoop(let conditions, let body):
            walk(conditions, into, visit)
            forEach(in: body, intoFunctions: into, visit)
        case .returnStatement(let value): value.map { walk($0, into, visit) }
        case .function(let syntax): if into { forEach(in: syntax.body, visit) }
        case .breakStatement, .continueStatement, .invalid: break
        }
    }

    private static func walk(_ conditions: [Condition], _ into: Bool, _ visit: (Expr) -> Void) {
        for condition in conditions {
            switch condition.kind {
            case .boolean(let expression): walk(expression, into, visit)
            case .optionalBinding(_, _, _, let value): value.map { walk($0, into, visit) }
            }
        }
    }

    static func walk(_ expression: Expr, _ into: Bool = true, _ visit: (Expr) -> Void) {
        visit(expression)
        switch expression.kind {
        case .string(let parts):
            for case .expression(let inner) in parts { walk(inner, into, visit) }
        case .array(let elements): for element in elements { walk(element, into, visit) }
        case .dictionary(let pairs):
            for pair in pairs {
                walk(pair.key, into, visit)
                walk(pair.value, into, visit)
            }
        case .member(let base, _, _, _), .forceUnwrap(let base), .unary(_, let base), .tryOptional(let base),
            .cast(let base, _, _):
            walk(base, into, visit)
        case .subscriptAccess(let base, let index, _):
            walk(base, into, visit)
            walk(index, into, visit)
        case .call(let callee, let arguments):
            walk(callee, into, visit)
            for argument in arguments { walk(argument.value, into, visit) }
        case .binary(_, let left, let right, _):
            walk(left, into, visit)
            walk(right, into, visit)
        case .ternary(let a, let b, let c):
            walk(a, into, visit)
            walk(b, into, visit)
            walk(c, into, visit)
        case .closure(let closure): if into { forEach(in: closure.body, visit) }
        case .integer, .double, .bool, .nilLiteral, .name, .dollar, .keyPath, .operatorFunction, .implicitMember,
            .invalid: break
        }
    }
}
