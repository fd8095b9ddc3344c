/// Visits every expression of a tree, outermost first.
enum SyntaxWalker {
    static func forEach(in statements: [Stmt], _ visit: (Expr) -> Void) {
        for statement in statements { walk(statement, visit) }
    }

    private static func walk(_ statement: Stmt, _ visit: (Expr) -> Void) {
        switch statement.kind {
        case .expression(let expression): walk(expression, visit)
        case .declaration(_, _, _, _, let value): value.map { walk($0, visit) }
        case .assignment(let target, _, let value):
            walk(target, visit)
            walk(value, visit)
        case .ifStatement(let clauses, let elseBody):
            for clause in clauses {
                walk(clause.conditions, visit)
                forEach(in: clause.body, visit)
            }
            elseBody.map { forEach(in: $0, visit) }
        case .guardStatement(let conditions, let elseBody):
            walk(conditions, visit)
            forEach(in: elseBody, visit)
        case .forIn(_, let sequence, let body):
            walk(sequence, visit)
            forEach(in: body, visit)
        case .whileLoop(let conditions, let body):
            walk(conditions, visit)
            forEach(in: body, visit)
        case .returnStatement(let value): value.map { walk($0, visit) }
        case .function(let syntax): forEach(in: syntax.body, visit)
        case .breakStatement, .continueStatement, .invalid: break
        }
    }

    private static func walk(_ conditions: [Condition], _ visit: (Expr) -> Void) {
        for condition in conditions {
            switch condition.kind {
            case .boolean(let expression): walk(expression, visit)
            case .optionalBinding(_, _, _, let value): value.map { walk($0, visit) }
            }
        }
    }

    static func walk(_ expression: Expr, _ visit: (Expr) -> Void) {
        visit(expression)
        switch expression.kind {
        case .string(let parts):
            for case .expression(let inner) in parts { walk(inner, visit) }
        case .array(let elements): for element in elements { walk(element, visit) }
        case .dictionary(let pairs):
            for pair in pairs {
                walk(pair.key, visit)
                walk(pair.value, visit)
            }
        case .member(let base, _, _, _), .forceUnwrap(let base), .unary(_, let base), .tryOptional(let base):
            walk(base, visit)
        case .subscriptAccess(let base, let index, _):
            walk(base, visit)
            walk(index, visit)
        case .call(let callee, let arguments):
            walk(callee, visit)
            for argument in arguments { walk(argument.value, visit) }
        case .binary(_, let left, let right, _):
            walk(left, visit)
            walk(right, visit)
        case .ternary(let a, let b, let c):
            walk(a, visit)
            walk(b, visit)
            walk(c, visit)
        case .closure(let closure): forEach(in: closure.body, visit)
        case .integer, .double, .bool, .nilLiteral, .name, .dollar, .keyPath, .operatorFunction, .invalid: break
        }
    }
}
