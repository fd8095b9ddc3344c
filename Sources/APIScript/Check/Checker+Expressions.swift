extension Checker {
    /// Checks an expression and returns its type; `expected` guides literals and closures.
    @discardableResult
    mutating func checkExpression(_ expression: Expr, expected: ScriptType?) -> ScriptType {
        expressionsChecked += 1
        let type = computeType(expression, expected: expected)
        annotations.setType(type, of: expression)
        return type
    }

    private mutating func computeType(_ expression: Expr, expected: ScriptType?) -> ScriptType {
        switch annotations.kind(of: expression) {
        case .integer:
            return expected?.unwrapped == .double ? .double : .int
        case .double:
            return .double
        case .string(let parts):
            for case .expression(let part) in parts {
                let type = checkExpression(part, expected: nil)
                if type == .void { error("a Void value has nothing to show in a string", part.span) }
            }
            return .string
        case .bool:
            return .bool
        case .nilLiteral:
            if let expected, expected.isOptional || expected.isDynamic { return expected }
            return .nilLiteral
        case .name(let name):
            return checkName(name, expression)
        case .dollar(let number):
            return checkDollar(number, expression.span)
        case .array(let elements):
            return checkArray(elements, expected: expected, expression.span)
        case .dictionary(let pairs):
            var valueType: ScriptType?
            if case .dictionary(let value)? = expected?.unwrapped { valueType = value }
            var found: ScriptType?
            for pair in pairs {
                let key = checkExpression(pair.key, expected: .string)
                if !key.isDynamic, key != .string { error("dictionary keys must be String, not '\(key)'", pair.key.span) }
                let value = checkExpression(pair.value, expected: valueType)
                found = found.map { unify($0, value) } ?? value
            }
            if let valueType { return .dictionary(valueType) }
            guard let found else {
                error("an empty dictionary needs a type: write 'let d: [String: Int] = [:]'", expression.span)
                return .dictionary(.unknown)
            }
            return .dictionary(found)
        case .member(let base, let name, let nameSpan, let optional):
            // `Int.max`, `Double.pi`: the numeric types' constants, where `Int` is not shadowed.
            if case .name(let typeName) = base.kind, let constant = Self.typeConstant(typeName + "." + name),
               case .builtin? = lookup(typeName)?.kind {
                annotations.rewrite(expression, as: constant.literal)
                return constant.type
            }
            return checkMember(expression, base: base, name: name, nameSpan: nameSpan, optional: optional)
        case .subscriptAccess(let base, let index, let optional):
            return checkSubscript(base: base, index: index, optional: optional, expression.span)
        case .call(let callee, let arguments):
            return checkCall(expression, callee: callee, arguments: arguments, expected: expected)
        case .forceUnwrap(let operand):
            let type = checkExpression(operand, expected: expected?.optional)
            if type.isDynamic { return type }
            guard type.isOptional else {
                error("cannot force unwrap value of non-optional type '\(type)'", expression.span)
                return type
            }
            return type.unwrapped
        case .unary(let op, let operand):
            let type = checkExpression(operand, expected: op == .not ? .bool : expected)
            if type.isDynamic { return type }
            if op == .not {
                if type != .bool { error("unary operator '!' cannot be applied to an operand of type '\(type)'", expression.span) }
                return .bool
            }
            if type != .int, type != .double {
                error("unary operator '-' cannot be applied to an operand of type '\(type)'", expression.span)
            }
            return type
        case .binary(let op, let left, let right, let operatorSpan):
            return checkBinary(op, left, right, operatorSpan, expected: expected)
        case .ternary(let condition, let whenTrue, let whenFalse):
            let conditionType = checkExpression(condition, expected: .bool)
            if !conditionType.isDynamic, conditionType != .bool {
                error("type '\(conditionType)' cannot be used as a boolean", condition.span)
            }
            let first = checkExpression(whenTrue, expected: expected)
            let second = checkExpression(whenFalse, expected: expected ?? first)
            return unify(first, second)
        case .tryOptional(let operand):
            let type = checkExpression(operand, expected: expected?.unwrapped)
            // As in Swift, `try?` on a `Void` call is `Void?`: `(try? deletePost(id: 1)) == nil` checks it failed.
            return type == .void ? .optional(.void) : type.optional
        case .cast(let operand, let kind, let syntax):
            return checkCast(expression, operand, kind, syntax)
        case .closure(let closure):
            var parameters: [ScriptType]?
            var result: ScriptType?
            if case .function(let expectedParameters, let expectedResult)? = expected?.unwrapped {
                parameters = expectedParameters
                result = expectedResult == .unknown ? nil : expectedResult
            }
            return checkClosure(closure, parameters: parameters, result: result)
        case .keyPath(let components):
            return checkKeyPath(components, expected: expected, expression.span)
        case .implicitMember(let name):
            error("cannot infer the type of '.\(name)': write it as the argument of a parameter that takes an enum, such as 'sort: .\(name)'",
                  expression.span, notes: [.init("elsewhere, write the case's raw value as a string")])
            return .unknown
        case .operatorFunction(let op):
            guard case .function(let parameters, _)? = expected?.unwrapped, parameters.count == 2 else {
                error("operator '\(op)' can be passed only where a function of two values is expected", expression.span)
                return .unknown
            }
            let (left, right) = (parameters[0], parameters[1])
            if op.isLogical {
                return .function(parameters: [.bool, .bool], result: .bool)
            } else if op.isEquality || op.isOrdering {
                return .function(parameters: [left, right], result: .bool)
            } else {
                let probe = Expr(.invalid, expression.span)
                let result = arithmeticResult(op, left, right, left: probe, right: probe, expression.span)
                return .function(parameters: [left, right], result: result)
            }
        case .invalid:
            return .unknown
        }
    }

    // MARK: Names

    /// The constants of the numeric types the language knows, as Swift spells them.
    static func typeConstant(_ name: String) -> (literal: Expr.Kind, type: ScriptType)? {
        switch name {
        case "Int.max": (.integer(Int.max), .int)
        case "Int.min": (.integer(Int.min), .int)
        case "Double.pi": (.double(Double.pi), .double)
        case "Double.infinity": (.double(Double.infinity), .double)
        case "Double.greatestFiniteMagnitude": (.double(Double.greatestFiniteMagnitude), .double)
        default: nil
        }
    }

    private mutating func checkName(_ name: String, _ expression: Expr) -> ScriptType {
        if refusesCircularUse(of: name, expression.span) { return .unknown }
        guard let binding = lookup(name) else {
            if let hint = Self.promptWords[name] {
                error(hint, expression.span)
                return .unknown
            }
            let suggestion = Suggestions.nearest(to: name, in: visibleNames())
            error("cannot find '\(name)' in scope", expression.span,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
            return .unknown
        }
        annotations.setBinding(binding, of: expression)
        switch binding.kind {
        case .builtin(let builtin):
            error("'\(name)' is a function; call it as \(builtin.summary.split(separator: " — ").first.map(String.init) ?? name)",
                  expression.span)
            return .unknown
        case .hostFunction(let host):
            return .function(parameters: host.parameters.map(\.type), result: host.returnType)
        case .variable:
            if !binding.isInitialized, binding.owner === function, !binding.isMutable {
                // A `let` declared without a value and never assigned.
                error("constant '\(name)' used before being initialized", expression.span)
            }
            return binding.type
        case .hostGlobal:
            if let reason = globals.unavailable[binding.name] {
                error(reason, expression.span)
                return .unknown
            }
            return binding.type
        case .scriptFunction:
            return binding.type
        }
    }

    private mutating func checkDollar(_ number: Int, _ span: TextSpan) -> ScriptType {
        guard !function.isTopLevel, function.parameters.isEmpty || function.implicitParameterTypes != nil else {
            error("anonymous closure argument '$\(number)' used outside a closure with implicit parameters", span)
            return .unknown
        }
        function.implicitParameterCount = max(function.implicitParameterCount, number + 1)
        guard let types = function.implicitParameterTypes else { return .unknown }
        guard number < types.count else {
            error("closure uses '$\(number)' but takes only \(types.count) argument\(types.count == 1 ? "" : "s")", span)
            return .unknown
        }
        return types[number]
    }

    private mutating func checkArray(_ elements: [Expr], expected: ScriptType?, _ span: TextSpan) -> ScriptType {
        var elementType: ScriptType?
        if case .array(let element)? = expected?.unwrapped { elementType = element }
        var found: ScriptType?
        for element in elements {
            let type = checkExpression(element, expected: elementType ?? found)
            if let elementType {
                requireAssignable(type, to: elementType, element.span)
            }
            found = found.map { unify($0, type) } ?? type
        }
        if let elementType { return .array(elementType) }
        guard let found else {
            error("an empty array needs a type: write 'let a: [Int] = []'", span)
            return .array(.unknown)
        }
        if found == .double {
            for element in elements where annotations.type(of: element) == .int { if case .integer = element.kind { annotations.setType(.double, of: element) } }
        }
        return .array(found)
    }

    // MARK: Members

    private mutating func checkMember(_ expression: Expr, base: Expr, name: String, nameSpan: TextSpan,
                                      optional: Bool) -> ScriptType {
        if !optional, let qualified = qualifiedName(base: base, member: name) {
            guard globals.bindings[qualified] != nil else {
                unknownQualifiedName(qualified, expression.span)
                return .unknown
            }
            annotations.rewrite(expression, as: .name(qualified))
            return checkName(qualified, expression)
        }
        let baseType = checkExpression(base, expected: nil)
        if baseType.isDynamic {
            annotations.setCallee(.dynamicMember(name), of: expression)
            return baseType
        }
        var receiver = baseType
        if !optional, baseType.isOptional, base.isInOptionalChain {
            // `a?.b.c`: the chain goes on past `b`.
            let type = memberType(expression, of: baseType.unwrapped, name: name, nameSpan: nameSpan)
            return type == .void ? .void : type.optional
        }
        if optional {
            guard baseType.isOptional else {
                error("cannot use optional chaining on non-optional value of type '\(baseType)'", nameSpan,
                      suggestion: ".")
                return memberType(expression, of: baseType, name: name, nameSpan: nameSpan)
            }
            receiver = baseType.unwrapped
            let type = memberType(expression, of: receiver, name: name, nameSpan: nameSpan)
            return type == .void ? .void : type.optional
        }
        if baseType.isOptional {
            error("value of optional type '\(baseType)' must be unwrapped to refer to member '\(name)'", nameSpan,
                  notes: [.init("use '?.' to access the member only when the value is not nil, or '!' to stop when it is")])
            return memberType(expression, of: baseType.unwrapped, name: name, nameSpan: nameSpan).optional
        }
        return memberType(expression, of: receiver, name: name, nameSpan: nameSpan)
    }

    /// The type of a property; methods are checked in `checkCall`.
    mutating func memberType(_ expression: Expr, of type: ScriptType, name: String, nameSpan: TextSpan) -> ScriptType {
        switch type {
        case .record(let record):
            if let index = record.index(of: name) {
                annotations.setCallee(.field(index), of: expression)
                return record.fields[index].type
            }
            if record.isTuple, let position = Int(name), position < record.fields.count {
                annotations.setCallee(.field(position), of: expression)
                return record.fields[position].type
            }
            // An open record's other keys are read as they come: nil where the service sent none.
            if let additional = record.additionalProperties {
                annotations.setCallee(.dynamicMember(name), of: expression)
                return additional.optional
            }
            let suggestion = Suggestions.nearest(to: name, in: record.fields.map(\.name))
            let shownName = record.isTuple ? "tuple '\(record.name)'" : record.name
            error("\(shownName) has no member '\(name)'", nameSpan,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] }
                    ?? [.init("\(record.name) has: \(record.fields.map(\.name).joined(separator: ", "))")],
                  suggestion: suggestion)
            return .unknown
        case .array(let element):
            switch name {
            case "count": return property(expression, .count, .int)
            case "isEmpty": return property(expression, .isEmpty, .bool)
            case "first": return property(expression, .first, element.optional)
            case "last": return property(expression, .last, element.optional)
            default: break
            }
        case .string:
            switch name {
            case "count": return property(expression, .count, .int)
            case "isEmpty": return property(expression, .isEmpty, .bool)
            case "first": return property(expression, .first, .string.optional)
            case "last": return property(expression, .last, .string.optional)
            default: break
            }
        case .dictionary(let value):
            switch name {
            case "count": return property(expression, .count, .int)
            case "isEmpty": return property(expression, .isEmpty, .bool)
            case "keys": return property(expression, .keys, .array(.string))
            case "values": return property(expression, .values, .array(value))
            default: break
            }
        case .range:
            switch name {
            case "count": return property(expression, .count, .int)
            case "isEmpty": return property(expression, .isEmpty, .bool)
            case "lowerBound": return property(expression, .lowerBound, .int)
            case "upperBound": return property(expression, .upperBound, .int)
            default: break
            }
        case .bytes:
            switch name {
            case "count": return property(expression, .count, .int)
            case "isEmpty": return property(expression, .isEmpty, .bool)
            case "first": return property(expression, .first, .int.optional)
            case "last": return property(expression, .last, .int.optional)
            case "base64": return property(expression, .base64, .string)
            case "hex": return property(expression, .hex, .string)
            case "utf8": return property(expression, .utf8, .string.optional)
            default: break
            }
        case .secret:
            // A secret shows nothing of itself: not its length, not a changed copy.
            error(Self.secretHasNoMembers, nameSpan)
            return .unknown
        default:
            break
        }
        let members = BuiltinMembers.names(for: type)
        if members.contains(name) {
            error("method '\(name)' must be called: write '\(name)(…)'", nameSpan)
            return .unknown
        }
        let suggestion = Suggestions.nearest(to: name, in: members)
        error("value of type '\(type)' has no member '\(name)'", nameSpan,
              notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
        return .unknown
    }

    static let secretHasNoMembers = "a Secret has no members: it can be sent, compared with '==' and shown as '••••', nothing more"

    private func property(_ expression: Expr, _ property: Property, _ type: ScriptType) -> ScriptType {
        annotations.setCallee(.property(property), of: expression)
        return type
    }

    private mutating func checkSubscript(base: Expr, index: Expr, optional: Bool, _ span: TextSpan) -> ScriptType {
        var baseType = checkExpression(base, expected: nil)
        var chained = false
        if optional {
            if !baseType.isOptional, !baseType.isDynamic {
                error("cannot use optional chaining on non-optional value of type '\(baseType)'", span)
            }
            baseType = baseType.unwrapped
        } else if baseType.isOptional, base.isInOptionalChain {
            baseType = baseType.unwrapped
            chained = true
        } else if baseType.isOptional {
            error("value of optional type '\(baseType)' must be unwrapped before subscripting", base.span,
                  notes: [.init("use '?[' or '!'")])
            baseType = baseType.unwrapped
        }
        let result: ScriptType
        switch baseType {
        case .array(let element):
            let indexType = checkExpression(index, expected: .int)
            if indexType == .range {
                result = .array(element)
            } else {
                if !indexType.isDynamic, indexType != .int {
                    error("an array subscript takes an Int or a range, not '\(indexType)'", index.span)
                }
                result = element
            }
        case .dictionary(let value):
            let keyType = checkExpression(index, expected: .string)
            if !keyType.isDynamic, keyType != .string {
                error("a dictionary subscript takes a String, not '\(keyType)'", index.span)
            }
            result = value.optional
        case .string:
            let indexType = checkExpression(index, expected: .int)
            if !indexType.isDynamic, indexType != .int, indexType != .range {
                error("a string subscript takes an Int or a range, not '\(indexType)'", index.span)
            }
            result = .string
        case .bytes:
            let indexType = checkExpression(index, expected: .int)
            if !indexType.isDynamic, indexType != .int, indexType != .range {
                error("a Bytes subscript takes an Int or a range, not '\(indexType)'", index.span)
            }
            result = indexType == .range ? .bytes : .int
        case .record(let record) where record.isOpen:
            // By JSON key: a field's, or one of the other keys the record keeps.
            let keyType = checkExpression(index, expected: .string)
            if !keyType.isDynamic, keyType != .string {
                error("\(record.name) is read by subscript with a String key, not '\(keyType)'", index.span)
            }
            if case .string(let parts) = index.kind, parts.count == 1, case .text(let key) = parts[0],
                let field = record.fields.first(where: { $0.key == key }) {
                result = field.type.optional
            } else {
                result = (record.additionalProperties ?? .any).optional
            }
        case .any, .unknown:
            checkExpression(index, expected: nil)
            result = baseType
        default:
            checkExpression(index, expected: nil)
            error("value of type '\(baseType)' has no subscripts", span)
            result = .unknown
        }
        return optional || chained ? result.optional : result
    }

    // MARK: Operators

    private func isIntegerLiteral(_ expression: Expr) -> Bool {
        if case .integer = expression.kind { return true }
        return false
    }

    private mutating func checkBinary(_ op: BinaryOperator, _ left: Expr, _ right: Expr, _ operatorSpan: TextSpan,
                                      expected: ScriptType?) -> ScriptType {
        switch op {
        case .and, .or:
            for operand in [left, right] {
                let type = checkExpression(operand, expected: .bool)
                if !type.isDynamic, type != .bool {
                    error("'\(op)' needs Bool operands, not '\(type)'", operand.span)
                }
            }
            return .bool
        case .coalesce:
            let leftType = checkExpression(left, expected: expected?.optional)
            let rightType = checkExpression(right, expected: leftType.isDynamic ? expected : leftType.unwrapped)
            if leftType.isDynamic { return rightType.isDynamic ? leftType : rightType }
            if case .nilLiteral = left.kind {
                warning("the left side of '??' is the literal nil, so the result is always the right side", left.span)
                return rightType
            }
            if !leftType.isOptional {
                warning("left side of '??' has non-optional type '\(leftType)', so the right side is never used",
                        left.span)
                return leftType
            }
            if !rightType.isDynamic, !leftType.accepts(rightType) {
                error("cannot use '\(rightType)' as a default for '\(leftType)'", right.span)
            }
            return rightType.isOptional ? leftType : leftType.unwrapped
        case .halfOpenRange, .closedRange:
            for operand in [left, right] {
                let type = checkExpression(operand, expected: .int)
                if !type.isDynamic, type != .int { error("range bounds must be Int, not '\(type)'", operand.span) }
            }
            return .range
        default:
            break
        }
        var leftType = checkExpression(left, expected: nil)
        var rightType = checkExpression(right, expected: leftType.isDynamic ? nil : leftType.unwrapped)
        // An integer literal takes the other side's Double type, as in Swift.
        if isIntegerLiteral(left), rightType == .double, leftType == .int {
            annotations.setType(.double, of: left)
            leftType = .double
        }
        if isIntegerLiteral(right), leftType == .double, rightType == .int {
            annotations.setType(.double, of: right)
            rightType = .double
        }
        switch op {
        case .equal, .notEqual:
            if leftType.isDynamic || rightType.isDynamic { return .bool }
            let comparable = leftType.accepts(rightType) || rightType.accepts(leftType)
                || (leftType == .secret && rightType == .string) || (leftType == .string && rightType == .secret)
            if !comparable {
                error("binary operator '\(op)' cannot compare '\(leftType)' and '\(rightType)'", operatorSpan)
            } else if !leftType.isEquatable {
                error("values of type '\(leftType)' cannot be compared with '\(op)'", operatorSpan)
            }
            return .bool
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if leftType.isDynamic || rightType.isDynamic { return .bool }
            if leftType != rightType || !leftType.isComparable {
                error("binary operator '\(op)' cannot be applied to operands of type '\(leftType)' and '\(rightType)'",
                      operatorSpan,
                      notes: leftType.isOptional || rightType.isOptional
                        ? [.init("unwrap the optional first, for example with '?? 0'")] : [])
            }
            return .bool
        default:
            return arithmeticResult(op, leftType, rightType, left: left, right: right, operatorSpan)
        }
    }

    mutating func arithmeticResult(_ op: BinaryOperator, _ leftType: ScriptType, _ rightType: ScriptType, left: Expr,
                                   right: Expr, _ span: TextSpan) -> ScriptType {
        if leftType.isDynamic || rightType.isDynamic {
            return leftType.isDynamic ? (rightType.isDynamic ? .any : rightType) : leftType
        }
        switch (leftType, rightType) {
        case (.int, .int), (.double, .double):
            return leftType
        case (.string, .string) where op == .add:
            return .string
        case (.array(let a), .array(let b)) where op == .add:
            return .array(unify(a, b))
        case (.int, .double), (.double, .int):
            error("binary operator '\(op)' cannot be applied to 'Int' and 'Double'", span,
                  notes: [.init("convert one side: Double(x) or Int(x)")])
            return .double
        default:
            var notes: [Diagnostic.Note] = []
            if leftType.isOptional || rightType.isOptional {
                notes.append(.init("unwrap the optional first, for example with '?? 0'"))
            }
            if op == .add, leftType == .string || rightType == .string {
                notes.append(.init("use string interpolation: \"\\(a)\\(b)\""))
            }
            error("binary operator '\(op)' cannot be applied to operands of type '\(leftType)' and '\(rightType)'",
                  span, notes: notes)
            return .unknown
        }
    }

    // MARK: Closures and key paths

    mutating func checkClosure(_ closure: ClosureSyntax, parameters: [ScriptType]?, result: ScriptType?) -> ScriptType {
        let scope = FunctionScope(parent: function)
        allFunctions.append(scope)
        annotations.setScope(scope, of: closure)
        let savedFunction = function
        function = scope
        pushScope()
        let saved = (loopDepth, ())
        if let names = closure.parameters {
            if let parameters, parameters.count != names.count {
                error("closure takes \(names.count) parameter\(names.count == 1 ? "" : "s") but \(parameters.count) \(parameters.count == 1 ? "is" : "are") expected",
                      closure.span)
            }
            for (position, name) in names.enumerated() {
                var type = parameters.flatMap { position < $0.count ? $0[position] : nil } ?? .unknown
                if position < closure.parameterTypes.count, let written = closure.parameterTypes[position] {
                    let declared = resolveType(written)
                    if type != .unknown, !declared.accepts(type) {
                        error("closure parameter '\(name.name)' is '\(declared)' but '\(type)' is passed", written.span)
                    }
                    type = declared
                }
                scope.parameters.append(declare(name.name, type: type, isMutable: false, span: name.span))
            }
        } else {
            scope.implicitParameterTypes = parameters
        }
        if let result {
            scope.returnType = result
            scope.hasDeclaredReturnType = result != .void
        }
        var bodyType: ScriptType = .void
        if closure.body.count == 1, case .expression(let single) = closure.body[0].kind {
            bodyType = checkExpression(single, expected: result == .void ? nil : result)
            if let result, result != .void, !result.isDynamic {
                requireAssignable(bodyType, to: result, single.span)
            }
            if result == .void { bodyType = .void }
        } else {
            checkBlock(closure.body)
            bodyType = scope.returnType ?? .void
        }
        popScope()
        function = savedFunction
        _ = saved
        let parameterTypes: [ScriptType]
        if let names = closure.parameters {
            parameterTypes = scope.parameters.map(\.type) + Array(repeating: .unknown, count: max(0, (parameters?.count ?? names.count) - names.count))
        } else if let parameters {
            parameterTypes = parameters
            if scope.implicitParameterCount > parameters.count {
                // Reported at the use of `$n`.
            }
        } else {
            parameterTypes = Array(repeating: .unknown, count: scope.implicitParameterCount)
        }
        let finalResult = result ?? bodyType
        return .function(parameters: parameterTypes, result: finalResult)
    }

    private mutating func checkKeyPath(_ components: [(name: String, span: TextSpan)], expected: ScriptType?,
                                       _ span: TextSpan) -> ScriptType {
        guard case .function(let parameters, _)? = expected?.unwrapped, let root = parameters.first else {
            return .function(parameters: [.any], result: .any)
        }
        var type = root
        for component in components {
            if type.isDynamic { return .function(parameters: [root], result: type) }
            if type.isOptional {
                error("key path component '\(component.name)' follows an optional; unwrap it in a closure instead",
                      component.span)
                return .function(parameters: [root], result: .unknown)
            }
            let probe = Expr(.invalid, component.span)
            type = memberType(probe, of: type, name: component.name, nameSpan: component.span)
            if case .field = annotations.callee(of: probe) {} else if case .property = annotations.callee(of: probe) {} else if type != .unknown {
                error("key path component '\(component.name)' must be a property", component.span)
            }
        }
        return .function(parameters: [root], result: type)
    }

    /// Words people type at a prompt out of habit (Python's REPL, shells), with the command to use.
    static let promptWords: [String: String] = [
        "help": "'help' is not a name here: type :help for help",
        "quit": "to leave, type :quit (or press Ctrl-D)",
        "exit": "to leave, type :quit (or press Ctrl-D)",
    ]
}

extension Checker {
    /// `x as? T`, `x as! T`, `x as T`, `x is T`: a value whose type is known only when it runs
    /// (JSON) is looked at then; a value of a known type can only be what it is, so a cast to
    /// another type is an error here, as Swift says it always fails.
    private mutating func checkCast(_ expression: Expr, _ operand: Expr, _ kind: CastKind, _ syntax: TypeSyntax) -> ScriptType {
        let target = resolveType(syntax)
        annotations.setCastTarget(target, of: expression)
        let type = checkExpression(operand, expected: kind == .plain ? target : nil)
        let result: ScriptType = switch kind {
        case .optional: target.optional
        case .forced, .plain: target
        case .test: .bool
        }
        guard target != .unknown, type != .unknown else { return result }
        let fits = type == target || type.unwrapped == target || target.isDynamic || (target == .string && type == .secret)
        if kind == .plain {
            if type.isDynamic, !target.isDynamic {
                error("'\(type)' is not convertible to '\(target)'", expression.span,
                      notes: [.init("use 'as?' for the value or nil, or 'as!' for the value or an error")],
                      suggestion: "as?")
            } else if !fits {
                error("cannot convert value of type '\(type)' to type '\(target)'", expression.span,
                      notes: [.init("convert it with \(target)(…) where the language has one")])
            }
        } else if !type.isDynamic, !fits {
            error("cast from '\(type)' to unrelated type '\(target)' always fails", expression.span,
                  notes: [.init("only a value whose type is Any (JSON read at run time) can turn out to be another type")])
        }
        return result
    }
}
