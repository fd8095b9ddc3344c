extension Checker {
    mutating func checkMethodCall(_ expression: Expr, base: Expr, name: String, nameSpan: TextSpan, optional: Bool,
                                  arguments: [Argument]) -> ScriptType {
        var receiver = checkExpression(base, expected: nil)
        if optional {
            if !receiver.isOptional, !receiver.isDynamic {
                error("cannot use optional chaining on non-optional value of type '\(receiver)'", nameSpan)
            }
            receiver = receiver.unwrapped
        } else if receiver.isOptional, base.isInOptionalChain {
            receiver = receiver.unwrapped
            let result = methodType(expression, receiver: receiver, name: name, nameSpan: nameSpan, arguments: arguments)
            return result == .void ? .void : result.optional
        } else if receiver.isOptional {
            error("value of optional type '\(receiver)' must be unwrapped to call '\(name)'", nameSpan,
                  notes: [.init("use '?.' to call it only when the value is not nil, or '!'")])
            receiver = receiver.unwrapped
        }
        // A record field holding a function: call it as a value.
        if case .record(let record) = receiver, let field = record.field(named: name), case .function = field.type {
            let memberExpression = Expr(.member(base, name: name, nameSpan: nameSpan, optional: optional), base.span)
            _ = memberType(memberExpression, of: receiver, name: name, nameSpan: nameSpan)
            annotations.setCallee(.value, of: expression)
            return field.type
        }
        let result = methodType(expression, receiver: receiver, name: name, nameSpan: nameSpan, arguments: arguments)
        return optional && result != .void ? result.optional : result
    }

    /// Finds the method in ``BuiltinMethod/byKey`` and applies its type rule.
    private mutating func methodType(_ expression: Expr, receiver: ScriptType, name: String, nameSpan: TextSpan,
                                     arguments: [Argument]) -> ScriptType {
        let call = MethodCall(expression: expression, receiver: receiver, name: name, nameSpan: nameSpan,
                              arguments: arguments)
        guard let method = Self.method(named: name, arguments: arguments, table: BuiltinMethod.byKey(for: receiver)) else {
            if receiver.isStream, BuiltinMethod.byKey.keys.contains(where: { $0.hasPrefix(name + "(") }) {
                return rejectMethod(call, "a stream has no '\(name)': its items arrive one at a time; read them with 'for try await', or narrow the stream with prefix, filter, map or dropFirst")
            }
            return rejectMethod(call, receiver.isDynamic ? "unknown method '\(name)'" : nil)
        }
        if receiver.isDynamic {
            // Known only as it runs: closures take `Any`, the result is `Any`.
            for (index, argument) in arguments.enumerated() {
                switch argument.value.kind {
                case .closure, .keyPath:
                    let arity = method.name == "reduce" && index == 0 ? 1 : max(method.closureArity, 1)
                    if case .keyPath = argument.value.kind {
                        methodClosure(call, index, [.any])
                    } else {
                        methodClosure(call, index, Array(repeating: .any, count: arity))
                    }
                default:
                    checkExpression(argument.value, expected: nil)
                }
            }
            annotations.setCallee(.method(method), of: expression)
            return .any
        }
        guard let kind = Receivers(receiver), method.receivers.contains(kind) else { return rejectMethod(call) }
        annotations.setCallee(.method(method), of: expression)
        // Reading a stream suspends: the function that does is not pure.
        if method.isConsuming { function.isPure = false }
        return method.type(&self, call)
    }

    /// The method a call names: by its labels, where a trailing closure may fill a labeled
    /// parameter as in Swift (`sorted { … }` is `sorted(by:)`, `contains { … }` is `contains(where:)`).
    static func method(named name: String, arguments: [Argument],
                       table: [String: BuiltinMethod] = BuiltinMethod.byKey) -> BuiltinMethod? {
        let labels = arguments.map(\.label)
        let plain = table[BuiltinMethod.key(name, labels)]
        guard let last = arguments.last, last.label == nil, plain?.isHigherOrder != true else { return plain }
        switch last.value.kind {
        case .closure, .keyPath:
            for label in ["by", "where"] {
                var relabeled = labels
                relabeled[relabeled.count - 1] = label
                if let method = table[BuiltinMethod.key(name, relabeled)] { return method }
            }
        default: break
        }
        return plain
    }

    /// Reports a mutating method called on something that cannot change.
    mutating func requireMutable(_ methodCall: MethodCall) {
        let method = methodCall.name
        guard case .call(let callee, _) = methodCall.expression.kind, case .member(let base, _, _, _) = callee.kind else { return }
        var root = base
        while true {
            switch annotations.kind(of: root) {
            case .member(let inner, _, _, _), .subscriptAccess(let inner, _, _): root = inner
            default:
                guard case .name(let name) = annotations.kind(of: root) else {
                    error("cannot use mutating member '\(method)' on a temporary value; store it in a 'var' first", base.span)
                    return
                }
                if let binding = annotations.binding(of: root), case .variable = binding.kind, !binding.isMutable {
                    error("cannot use mutating member '\(method)' on '\(name)': it is a 'let' constant", base.span,
                          notes: immutabilityNotes(binding))
                } else if let binding = annotations.binding(of: root), case .hostGlobal(let global) = binding.kind, global.set == nil {
                    error("cannot use mutating member '\(method)' on '\(name)': it is read-only", base.span)
                } else if let binding = annotations.binding(of: root), case .hostFunction = binding.kind {
                    error("cannot use mutating member '\(method)' on a function", base.span)
                }
                return
            }
        }
    }
}
