extension Compiler {
    mutating func expression(_ expression: Expr) -> Code {
        let span = expression.span
        switch annotations.kind(of: expression) {
        case .integer(let value):
            return .constant(annotations.type(of: expression) == .double ? .double(Double(value)) : .int(value))
        case .double(let value):
            return .constant(.double(value))
        case .bool(let value):
            return .constant(.bool(value))
        case .nilLiteral, .invalid:
            return .constant(.null)
        case .string(let parts):
            var codes: [Code] = []
            var texts: [String?] = []
            for part in parts {
                switch part {
                case .text(let text):
                    texts.append(text)
                case .expression(let inner):
                    texts.append(nil)
                    codes.append(self.expression(inner))
                }
            }
            if codes.isEmpty { return .constant(.string(texts.compactMap { $0 }.joined())) }
            return Code.combine(codes, at(expression.span) { values in
                var result = ""
                var next = 0
                for text in texts {
                    if let text {
                        try ScriptLimits.checkStringBytes(result.utf8.count + text.utf8.count)
                        result += text
                    } else {
                        result += try ValueFormatter.boundedDescription(values[next], alongside: result.utf8.count)
                        next += 1
                    }
                }
                return .string(result)
            })
        case .name:
            guard let binding = annotations.binding(of: expression) else { return .constant(.null) }
            return load(binding, span)
        case .dollar(let number):
            return Code { frame in frame.argument(number) }
        case .array(let elements):
            return Code.combine(elements.map { self.expression($0) }, at(span) { values in
                try ScriptLimits.checkNesting(values)
                return .array(values)
            })
        case .dictionary(let pairs):
            let codes = pairs.flatMap { [self.expression($0.key), self.expression($0.value)] }
            return Code.combine(codes, at(span) { values in
                try ScriptLimits.checkNesting(values)
                var result: [String: Value] = [:]
                var index = 0
                while index + 1 < values.count {
                    if case .string(let key) = values[index] { result[key] = values[index + 1] }
                    index += 2
                }
                return .dictionary(result)
            })
        case .member(let base, let name, _, let optional):
            return member(expression, base: base, name: name, optional: optional || base.isInOptionalChain)
        case .subscriptAccess(let base, let index, let optional):
            let chained = optional || base.isInOptionalChain
            return Code.binary(self.expression(base), self.expression(index), at2(span) { base, index in
                if chained, base.isNull { return .null }
                return try Members.subscriptValue(base, index)
            })
        case .call(let callee, let arguments):
            return call(expression, callee: callee, arguments: arguments)
        case .forceUnwrap(let operand):
            let source = source
            // `env("NAME")!`, as a saved script reads a secret: the message names the variable.
            var message = "unexpectedly found nil while unwrapping an optional value"
            var notes: [Diagnostic.Note] = [.init("use '?? default' or 'if let' to handle nil")]
            if case .call(let callee, let arguments) = operand.kind, case .name("env") = annotations.kind(of: callee), arguments.count == 1,
               case .string(let parts) = arguments[0].value.kind, parts.count == 1, case .text(let variable) = parts[0] {
                message = "the environment variable \(variable) is not set, so env(\"\(variable)\") is nil"
                notes = [.init("set it first: export \(variable)=… (at the prompt, :secrets FILE writes the session's credentials for `source FILE`), or write env(\"\(variable)\") ?? \"…\"")]
            }
            return Code.unary(self.expression(operand)) { [message, notes] value in
                if value.isNull {
                    throw Diagnostic(kind: .runtime, message: message, source: source, span: span, notes: notes)
                }
                return value
            }
        case .unary(let op, let operand):
            let code = self.expression(operand)
            if op == .not {
                return Code.unary(code, at1(span) { value in .bool(!(try Operators.truth(value))) })
            }
            return Code.unary(code, at1(span) { try Operators.negate($0) })
        case .binary(let op, let left, let right, _):
            return binary(op, left, right, span)
        case .ternary(let condition, let whenTrue, let whenFalse):
            let test = self.expression(condition)
            let yes = self.expression(whenTrue)
            let no = self.expression(whenFalse)
            if let t = test.sync, let y = yes.sync, let n = no.sync {
                return Code { frame in try Operators.truth(try t(frame)) ? try y(frame) : try n(frame) }
            }
            return Code(async: { frame in
                try Operators.truth(try await test.async(frame)) ? try await yes.async(frame) : try await no.async(frame)
            })
        case .cast(let operand, let kind, _):
            let code = self.expression(operand)
            let target = annotations.castTarget(of: expression)
            switch kind {
            case .plain: return code
            case .optional: return Code.unary(code) { (try? DynamicConformance.conform($0, to: target)) ?? .null }
            case .forced:
                return Code.unary(code, at1(span) { value in
                    do {
                        return try DynamicConformance.conform(value, to: target)
                    } catch var failure as ScriptFailure {
                        failure.notes = [.init("'as?' gives nil instead of stopping here")]
                        throw failure
                    }
                })
            case .test: return Code.unary(code) { .bool((try? DynamicConformance.conform($0, to: target)) != nil) }
            }
        case .tryOptional(let operand):
            let code = self.expression(operand)
            let absorb: (any Error) throws -> Value = { error in
                if let diagnostic = error as? Diagnostic, diagnostic.kind == .runtime || diagnostic.kind == .host {
                    return .null
                }
                throw error
            }
            if let sync = code.sync {
                return Code { frame in
                    do { return try sync(frame) } catch { return try absorb(error) }
                }
            }
            let async = code.async
            return Code(async: { frame in
                do { return try await async(frame) } catch { return try absorb(error) }
            })
        case .closure(let closure):
            guard let inner = annotations.scope(of: closure) else { return .constant(.null) }
            var single: Expr?
            if closure.body.count == 1, case .expression(let only) = closure.body[0].kind { single = only }
            return makeFunction(name: "closure", scope: inner, body: closure.body, singleExpression: single,
                                parameterBindings: inner.parameters)
        case .implicitMember:
            guard case .enumCase(let value)? = annotations.callee(of: expression) else { return .constant(.null) }
            return .constant(value)
        case .operatorFunction(let op):
            let function = Function(name: op.rawValue, isPure: true, body: .operator(op))
            return .constant(.function(function))
        case .keyPath(let components):
            let names = components.map(\.name)
            let function = Function(name: "\\." + names.joined(separator: "."), isPure: true, body: .keyPath(names))
            return .constant(.function(function))
        }
    }

    /// Integer arithmetic that reports overflow (and division by zero) instead of trapping.
    static func integerOperation(_ op: BinaryOperator) -> ((Int, Int) -> (partialValue: Int, overflow: Bool))? {
        switch op {
        case .add: { $0.addingReportingOverflow($1) }
        case .subtract: { $0.subtractingReportingOverflow($1) }
        case .multiply: { $0.multipliedReportingOverflow(by: $1) }
        case .divide: { $1 == 0 ? (0, true) : $0.dividedReportingOverflow(by: $1) }
        case .remainder: { $1 == 0 ? (0, true) : $0.remainderReportingOverflow(dividingBy: $1) }
        default: nil
        }
    }

    private mutating func member(_ expression: Expr, base: Expr, name: String, optional: Bool) -> Code {
        let code = self.expression(base)
        let span = expression.span
        switch annotations.callee(of: expression) {
        case .field(let index)?:
            return Code.unary(code, at1(span) { value in
                if case .record(let record) = value, let field = record.value(at: index) { return field }
                if value.isNull, optional { return .null }
                return try Members.dynamicMember(value, name, span: nil)
            })
        case .property(let property)?:
            return Code.unary(code, at1(span) { value in
                if value.isNull, optional { return .null }
                return try Members.property(property, of: value)
            })
        default:
            return Code.unary(code, at1(span) { value in
                if value.isNull, optional { return .null }
                return try Members.dynamicMember(value, name, span: nil)
            })
        }
    }

    private mutating func binary(_ op: BinaryOperator, _ left: Expr, _ right: Expr, _ span: TextSpan) -> Code {
        let l = expression(left)
        let r = expression(right)
        switch op {
        case .and, .or:
            let isAnd = op == .and
            if let a = l.sync, let b = r.sync {
                return Code { frame in
                    let first = try Operators.truth(try a(frame))
                    if first != isAnd { return .bool(first) }
                    return .bool(try Operators.truth(try b(frame)))
                }
            }
            return Code(async: { frame in
                let first = try Operators.truth(try await l.async(frame))
                if first != isAnd { return .bool(first) }
                return .bool(try Operators.truth(try await r.async(frame)))
            })
        case .coalesce:
            if let a = l.sync, let b = r.sync {
                return Code { frame in
                    let value = try a(frame)
                    return value.isNull ? try b(frame) : value
                }
            }
            return Code(async: { frame in
                let value = try await l.async(frame)
                return value.isNull ? try await r.async(frame) : value
            })
        case .halfOpenRange, .closedRange:
            let closed = op == .closedRange
            return Code.binary(l, r, at2(span) { try Operators.range($0, $1, closed: closed) })
        case .equal, .notEqual:
            let equal = op == .equal
            if annotations.type(of: left) == .int, annotations.type(of: right) == .int, let a = l.sync, let b = r.sync {
                return Code { frame in
                    if case .int(let x) = try a(frame), case .int(let y) = try b(frame) { return .bool((x == y) == equal) }
                    return .null
                }
            }
            return Code.binary(l, r) { .bool(($0 == $1) == equal) }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if annotations.type(of: left) == .int, annotations.type(of: right) == .int, let a = l.sync, let b = r.sync {
                let test: (Int, Int) -> Bool = switch op {
                case .less: { $0 < $1 }
                case .lessOrEqual: { $0 <= $1 }
                case .greater: { $0 > $1 }
                default: { $0 >= $1 }
                }
                return Code { frame in
                    if case .int(let x) = try a(frame), case .int(let y) = try b(frame) { return .bool(test(x, y)) }
                    return .null
                }
            }
            return Code.binary(l, r, at2(span) { .bool(try Operators.compare(op, $0, $1)) })
        case .add, .subtract, .multiply, .divide, .remainder:
            if annotations.type(of: left) == .int, annotations.type(of: right) == .int, let a = l.sync, let b = r.sync,
                let operation = Self.integerOperation(op)
            {
                let source = source
                return Code { frame in
                    guard case .int(let x) = try a(frame), case .int(let y) = try b(frame) else { return .null }
                    let result = operation(x, y)
                    if result.overflow {
                        let failure = y == 0 && (op == .divide || op == .remainder)
                            ? ScriptFailure(op == .divide ? "division by zero" : "division by zero in remainder")
                            : Operators.overflow(op, x, y)
                        throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span,
                                         notes: failure.notes)
                    }
                    return .int(result.partialValue)
                }
            }
            return Code.binary(l, r, at2(span) { try Operators.arithmetic(op, $0, $1) })
        }
    }
}
