/// A call of a built-in method as its type rule sees it.
struct MethodCall {
    /// The whole call expression (the resolved method is recorded on it).
    let expression: Expr
    /// The receiver's type, unwrapped.
    let receiver: ScriptType
    let name: String
    let nameSpan: TextSpan
    let arguments: [Argument]

    /// What the method walks over: an array's or a range's elements, a string's characters (as
    /// `String`), bytes as `Int`s, a dictionary's `(key, value)` pairs.
    var element: ScriptType {
        switch receiver {
        case .array(let element), .stream(let element): element
        case .range, .bytes: .int
        case .string: .string
        case .dictionary(let value): .record(RecordType.tuple([.init("key", .string), .init("value", value)]))
        default: .any
        }
    }

    /// A dictionary's value type.
    var dictionaryValue: ScriptType? {
        if case .dictionary(let value) = receiver { return value }
        return nil
    }
}

/// The checks a method's type rule is made of.
extension Checker {
    /// Checks argument `index` against `expected`.
    @discardableResult
    mutating func methodArgument(_ call: MethodCall, _ index: Int, _ expected: ScriptType) -> ScriptType {
        guard index < call.arguments.count else { return .unknown }
        let argument = call.arguments[index].value
        let type = checkExpression(argument, expected: expected)
        if !expected.isDynamic, !expected.accepts(type) {
            requireAssignable(type, to: expected, argument.span)
        }
        return type
    }

    /// Checks argument `index` as a closure taking `parameters`; gives the closure's result type.
    @discardableResult
    mutating func methodClosure(_ call: MethodCall, _ index: Int, _ parameters: [ScriptType],
                                returning result: ScriptType = .unknown) -> ScriptType {
        guard index < call.arguments.count else { return .unknown }
        let argument = call.arguments[index].value
        let type = checkExpression(argument, expected: .function(parameters: parameters, result: result))
        // The method calls the closure here: a closure that calls an endpoint makes this function do so.
        if case .closure(let closure) = argument.kind, let scope = annotations.scope(of: closure) { function.invokedClosures.append(scope) }
        guard case .function(_, let found) = type else {
            if !type.isDynamic { error("'\(call.name)' takes a closure here, not '\(type)'", argument.span) }
            return .unknown
        }
        if result != .unknown, !result.isDynamic, !result.accepts(found), found != .unknown {
            error("the closure must return '\(result)', not '\(found)'", argument.span)
        }
        return found
    }

    /// Checks the optional count argument of `prefix`, `dropFirst` and the like.
    mutating func methodCount(_ call: MethodCall) {
        if !call.arguments.isEmpty { methodArgument(call, 0, .int) }
    }

    /// Refuses the call: with `message`, or with what the receiver does offer.
    mutating func rejectMethod(_ call: MethodCall, _ message: String? = nil) -> ScriptType {
        for argument in call.arguments where annotations.type(of: argument.value) == .unknown {
            checkExpression(argument.value, expected: nil)
        }
        let members = BuiltinMembers.names(for: call.receiver)
        if let message {
            error(message, call.nameSpan)
        } else if call.receiver == .secret {
            error(Self.secretHasNoMembers, call.nameSpan)
        } else if members.contains(call.name) {
            let labels = call.arguments.map { ($0.label ?? "_") + ":" }.joined()
            let spellings = BuiltinMethod.named(call.name).flatMap { method in
                method.labelings.map { BuiltinMethod.key(method.name, $0) }
            }
            error("no '\(call.name)' on '\(call.receiver)' takes (\(labels))", call.nameSpan,
                  notes: [.init("it is spelled: \(spellings.joined(separator: ", "))")])
        } else {
            let suggestion = Suggestions.nearest(to: call.name, in: members)
            error("value of type '\(call.receiver)' has no member '\(call.name)'", call.nameSpan,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
        }
        return .unknown
    }
}
