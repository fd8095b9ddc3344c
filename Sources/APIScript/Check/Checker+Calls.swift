extension Checker {
    mutating func checkCall(_ expression: Expr, callee: Expr, arguments: [Argument], expected: ScriptType?) -> ScriptType {
        switch annotations.kind(of: callee) {
        case .name(let name):
            if refusesCircularUse(of: name, callee.span) {
                for argument in arguments { checkExpression(argument.value, expected: nil) }
                return .unknown
            }
            guard let binding = lookup(name) else {
                // `.cat` has no type to come from when the function is unknown: the one error is the name.
                for argument in arguments {
                    if case .implicitMember = annotations.kind(of: argument.value) {
                        annotations.setType(.unknown, of: argument.value)
                    } else {
                        checkExpression(argument.value, expected: nil)
                    }
                }
                if let hint = Self.promptWords[name] {
                    error(hint, callee.span)
                    return .unknown
                }
                let suggestion = Suggestions.nearest(to: name, in: visibleNames())
                error("cannot find '\(name)' in scope", callee.span,
                      notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
                return .unknown
            }
            annotations.setBinding(binding, of: callee)
            var kind = binding.kind
            let holdsFunction = if case .function = binding.type.unwrapped { true } else { false }
            if case .variable = kind, binding.isGlobal, !holdsFunction, let hidden = globals.hiddenHostFunctions[name] {
                // A constant the host defined over an endpoint's name: calling the name calls the endpoint.
                kind = .hostFunction(hidden)
            }
            switch kind {
            case .hostFunction(var host):
                function.isPure = false
                if host.specialization != nil {
                    switch specialize(host, arguments: arguments) {
                    case .some(let specialized): host = specialized
                    case nil:
                        for argument in arguments.dropFirst() { checkExpression(argument.value, expected: nil) }
                        return .unknown
                    }
                }
                let parameters = host.parameters.map {
                    ParameterShape(label: $0.label, name: $0.name, type: $0.type, hasDefault: $0.defaultValue != nil,
                                   enumeration: $0.enumeration, rule: $0.rule, typeRule: $0.typeRule)
                }
                let map = matchArguments(arguments, to: parameters, calling: name, callSpan: expression.span)
                annotations.setCallee(.hostFunction(host, arguments: map), of: expression)
                if let deprecation = host.deprecation { warning("'\(name)' is deprecated: \(deprecation)", callee.span) }
                if let typed = host.resultFromArguments {
                    let types = map.map { index in index.map { annotations.type(of: arguments[$0].value) } }
                    do {
                        if let result = try typed(types) { return result }
                    } catch {
                        self.error("\(error)", expression.span)
                        return .unknown
                    }
                }
                return host.returnType
            case .scriptFunction(let syntax):
                function.callees.append(binding)
                let parameters = syntax.parameters.enumerated().map { position, parameter in
                    ParameterShape(label: parameter.label, name: parameter.name,
                                   type: { if case .function(let types, _) = binding.type, position < types.count { types[position] } else { .unknown } }(),
                                   hasDefault: parameter.defaultValue != nil)
                }
                let map = matchArguments(arguments, to: parameters, calling: name, callSpan: expression.span)
                annotations.setCallee(.scriptFunction(WeakBinding(binding), arguments: map), of: expression)
                if case .function(_, let result) = binding.type { return result }
                return .unknown
            case .builtin(let builtin):
                annotations.setCallee(.builtin(builtin), of: expression)
                return checkBuiltin(builtin, arguments, expression)
            case .variable, .hostGlobal:
                annotations.setType(binding.type, of: callee)
                return checkValueCall(expression, calleeType: binding.type, arguments: arguments, span: callee.span)
            }
        case .member(let base, let name, let nameSpan, let optional):
            if !optional, let qualified = qualifiedName(base: base, member: name) {
                guard globals.bindings[qualified] != nil else {
                    for argument in arguments { checkExpression(argument.value, expected: nil) }
                    unknownQualifiedName(qualified, callee.span)
                    return .unknown
                }
                annotations.rewrite(callee, as: .name(qualified))
                return checkCall(expression, callee: callee, arguments: arguments, expected: expected)
            }
            return checkMethodCall(expression, base: base, name: name, nameSpan: nameSpan, optional: optional,
                                   arguments: arguments)
        default:
            let type = checkExpression(callee, expected: nil)
            return checkValueCall(expression, calleeType: type, arguments: arguments, span: callee.span)
        }
    }

    private mutating func checkValueCall(_ expression: Expr, calleeType: ScriptType, arguments: [Argument],
                                         span: TextSpan) -> ScriptType {
        function.isPure = false
        annotations.setCallee(.value, of: expression)
        if calleeType.isDynamic {
            for argument in arguments { checkExpression(argument.value, expected: nil) }
            return calleeType
        }
        guard case .function(let parameters, let result) = calleeType.unwrapped else {
            for argument in arguments { checkExpression(argument.value, expected: nil) }
            error("cannot call value of non-function type '\(calleeType)'", span)
            return .unknown
        }
        if calleeType.isOptional {
            error("value of optional type '\(calleeType)' must be unwrapped before it is called", span)
        }
        for (position, argument) in arguments.enumerated() {
            if let label = argument.label, let labelSpan = argument.labelSpan {
                error("extraneous argument label '\(label):' in call", labelSpan)
            }
            let type = checkExpression(argument.value, expected: position < parameters.count ? parameters[position] : nil)
            if position < parameters.count { requireAssignable(type, to: parameters[position], argument.value.span) }
        }
        if arguments.count != parameters.count {
            error("function takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given", span)
        }
        return result
    }

    // MARK: Argument matching

    struct ParameterShape {
        var label: String?
        var name: String
        var type: ScriptType
        var hasDefault: Bool
        var enumeration: HostEnumeration? = nil
        var rule: (@Sendable (Value) -> String?)? = nil
        var typeRule: (@Sendable (ScriptType) -> String?)? = nil
    }

    /// Matches arguments to parameters as Swift does; `result[i]` is the argument for parameter `i`.
    mutating func matchArguments(_ arguments: [Argument], to parameters: [ParameterShape], calling name: String,
                                 callSpan: TextSpan) -> [Int?] {
        var map = [Int?](repeating: nil, count: parameters.count)
        var cursor = 0
        for (position, parameter) in parameters.enumerated() {
            guard cursor < arguments.count else {
                if !parameter.hasDefault {
                    let label = parameter.label.map { "\($0): " } ?? ""
                    error("missing argument for parameter '\(parameter.label ?? parameter.name)' in call", callSpan,
                          notes: [.init("\(name) takes \(label)\(parameter.type)")])
                }
                continue
            }
            // An argument whose label no parameter has, where a later argument carries this
            // parameter's label: it is extra, not this parameter's under a wrong label (taking it
            // for that put the later argument out of order, an error that was not so).
            while let label = arguments[cursor].label, let own = parameter.label,
                  !parameters.contains(where: { $0.label == label }), arguments[(cursor + 1)...].contains(where: { $0.label == own }) {
                checkExpression(arguments[cursor].value, expected: nil)
                error("extra argument '\(label)' in call to '\(name)'", arguments[cursor].value.span)
                cursor += 1
            }
            let argument = arguments[cursor]
            let isTrailingClosure = cursor == arguments.count - 1 && argument.label == nil
                && { if case .closure = argument.value.kind { true } else { false } }()
            if argument.label == parameter.label || (isTrailingClosure && position == parameters.count - 1) {
                map[position] = cursor
                cursor += 1
                continue
            }
            if parameter.hasDefault {
                // Skipped: does the argument belong to a later parameter?
                if parameters[(position + 1)...].contains(where: { $0.label == argument.label }) { continue }
                // An argument for an earlier parameter that was passed over: out of order, which
                // is said after the loop (not as this parameter's misplaced argument).
                if parameters[..<position].indices.contains(where: { parameters[$0].label == argument.label && map[$0] == nil }) { continue }
            }
            if argument.label == nil, let label = parameter.label {
                error("missing argument label '\(label):' in call", argument.value.span, suggestion: "\(label): ")
            } else if let label = argument.label, parameter.label == nil {
                error("extraneous argument label '\(label):' in call", argument.labelSpan ?? argument.value.span)
            } else if let label = argument.label {
                if parameters.contains(where: { $0.label == label }) {
                    // Out of order: say it as Swift does, then match every argument by its label,
                    // so no type error follows from the order alone.
                    let expected = parameter.label.map { "'\($0)'" } ?? "_"
                    let later = arguments[cursor...].first { $0.label == parameter.label }
                    error("argument \(expected) must precede argument '\(label)'",
                          later?.labelSpan ?? argument.labelSpan ?? argument.value.span,
                          notes: [.init("\(name) takes its arguments in this order: "
                                        + parameters.map { ($0.label ?? "_") + ":" }.joined(separator: " "))])
                    return matchByLabel(arguments, to: parameters, calling: name, callSpan: callSpan)
                } else {
                    let suggestion = Suggestions.nearest(to: label, in: parameters.compactMap(\.label))
                    error("incorrect argument label in call (have '\(label):', expected '\(parameter.label ?? "_"):')",
                          argument.labelSpan ?? argument.value.span, suggestion: suggestion ?? parameter.label)
                }
            }
            map[position] = cursor
            cursor += 1
        }
        // A later argument for a parameter that was passed over: the order is wrong, not the argument.
        if let extra = arguments[min(cursor, arguments.count)...].first(where: { argument in
            parameters.indices.contains { parameters[$0].label == argument.label && map[$0] == nil }
        }), let position = parameters.indices.first(where: { parameters[$0].label == extra.label && map[$0] == nil }) {
            let following = parameters.indices.first { $0 > position && map[$0] != nil }
            let before = following.flatMap { map[$0] }.map { arguments[$0].label.map { "'\($0)'" } ?? "_" } ?? "the others"
            error("argument '\(extra.label ?? "_")' must precede argument \(before)", extra.labelSpan ?? extra.value.span,
                  notes: [.init("\(name) takes its arguments in this order: "
                                + parameters.map { ($0.label ?? "_") + ":" }.joined(separator: " "))])
            return matchByLabel(arguments, to: parameters, calling: name, callSpan: callSpan)
        }
        for extra in arguments[min(cursor, arguments.count)...] {
            checkExpression(extra.value, expected: nil)
            error("extra argument\(extra.label.map { " '\($0)'" } ?? "") in call to '\(name)'", extra.value.span)
        }
        checkArguments(arguments, mappedBy: map, to: parameters)
        return map
    }

    /// Checks each argument against the parameter it was matched to (an enum's `.case` resolved).
    private mutating func checkArguments(_ arguments: [Argument], mappedBy map: [Int?], to parameters: [ParameterShape]) {
        for (position, argumentIndex) in map.enumerated() {
            guard let argumentIndex else { continue }
            let argument = arguments[argumentIndex].value
            if case .implicitMember(let caseName) = argument.kind, let enumeration = parameters[position].enumeration {
                resolveCase(caseName, of: enumeration, argument, type: parameters[position].type)
                continue
            }
            // `states: [.open, .closed]` for a parameter that takes an array of an enum: each case resolved.
            if case .array(let elements) = argument.kind, let enumeration = parameters[position].enumeration,
               case .array(let elementType) = parameters[position].type.unwrapped,
               elements.contains(where: { if case .implicitMember = $0.kind { true } else { false } })
            {
                for element in elements {
                    if case .implicitMember(let caseName) = element.kind {
                        resolveCase(caseName, of: enumeration, element, type: elementType)
                    } else {
                        requireArgument(checkExpression(element, expected: elementType), to: elementType, element.span)
                    }
                }
                annotations.setType(.array(elementType), of: argument)
                continue
            }
            let type = checkExpression(argument, expected: parameters[position].type)
            requireArgument(type, to: parameters[position].type, argument.span)
            // A literal the parameter's rule rules out (`limit: 0` where the document says at least 1).
            if let value = Self.literalValue(of: argument) {
                if let rule = parameters[position].rule, let message = rule(value) { error(message, argument.span) }
            } else if let typeRule = parameters[position].typeRule, let message = typeRule(type) {
                // Not a literal: what its type allows (`data: count` where the document has an object).
                error(message, argument.span)
            }
        }
    }

    /// The value a literal argument is (`3`, `-1`, `"dog"`, `[1, 2]`); nil for anything computed.
    static func literalValue(of expression: Expr) -> Value? {
        switch expression.kind {
        case .integer(let number): return .int(number)
        case .double(let number): return .double(number)
        case .unary(.negate, let operand):
            switch operand.kind {
            case .integer(let number): return number == Int.min ? nil : .int(-number)
            case .double(let number): return .double(-number)
            default: return nil
            }
        case .string(let parts):
            var text = ""
            for part in parts {
                guard case .text(let piece) = part else { return nil }
                text += piece
            }
            return .string(text)
        case .array(let elements):
            var values: [Value] = []
            for element in elements {
                guard let value = literalValue(of: element) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .dictionary(let pairs):
            var entries: [String: Value] = [:]
            for pair in pairs {
                guard case .string(let key)? = literalValue(of: pair.key), entries[key] == nil,
                      let value = literalValue(of: pair.value) else { return nil }
                entries[key] = value
            }
            return .dictionary(entries)
        case .bool(let flag): return .bool(flag)
        case .nilLiteral: return .null
        default: return nil
        }
    }

    /// After an ordering error: each argument to the parameter of its label, types checked, so
    /// the one error stands alone.
    private mutating func matchByLabel(_ arguments: [Argument], to parameters: [ParameterShape], calling name: String,
                                       callSpan: TextSpan) -> [Int?] {
        var map = [Int?](repeating: nil, count: parameters.count)
        for (index, argument) in arguments.enumerated() {
            guard let position = parameters.indices.first(where: { parameters[$0].label == argument.label && map[$0] == nil }) else {
                checkExpression(argument.value, expected: nil)
                error("extra argument\(argument.label.map { " '\($0)'" } ?? "") in call to '\(name)'", argument.value.span)
                continue
            }
            map[position] = index
        }
        for (position, parameter) in parameters.enumerated() where map[position] == nil && !parameter.hasDefault {
            error("missing argument for parameter '\(parameter.label ?? parameter.name)' in call", callSpan)
        }
        checkArguments(arguments, mappedBy: map, to: parameters)
        return map
    }

    /// `.stars` for a parameter that takes `RepositorySort`: the case's value, or an error naming the cases.
    private mutating func resolveCase(_ name: String, of enumeration: HostEnumeration, _ argument: Expr,
                                      type: ScriptType) {
        annotations.setType(type, of: argument)
        if let match = enumeration.named(name) {
            annotations.setCallee(.enumCase(match.value), of: argument)
            return
        }
        let names = enumeration.cases.map(\.name)
        let suggestion = Suggestions.nearest(to: name, in: names)
            ?? names.first { $0.lowercased().hasPrefix(name.lowercased()) }
        error("type '\(enumeration.typeName)' has no member '\(name)'", argument.span,
              notes: [.init("its cases: " + names.map { "." + $0 }.joined(separator: ", "))]
                + (suggestion.map { [.init("did you mean '.\($0)'?")] } ?? []),
              suggestion: suggestion.map { "." + $0 })
    }

    private mutating func requireArgument(_ found: ScriptType, to expected: ScriptType, _ span: TextSpan) {
        if expected.accepts(found) || (expected == .secret && found == .string) { return }
        if found.isOptional, expected.accepts(found.unwrapped) {
            error("value of optional type '\(found)' must be unwrapped to a value of type '\(expected)'", span,
                  notes: [.init("use '?? default' or '!'")])
            return
        }
        error("cannot convert value of type '\(found)' to expected argument type '\(expected)'", span)
    }

    // MARK: Built-in functions

    private mutating func checkBuiltin(_ builtin: BuiltinFunction, _ arguments: [Argument], _ expression: Expr) -> ScriptType {
        func unlabeled(_ count: ClosedRange<Int>, _ what: String) -> [ScriptType] {
            if !count.contains(arguments.count) {
                error("'\(builtin.rawValue)' takes \(what)", expression.span, notes: [.init(builtin.summary)])
            }
            return arguments.map { argument in
                if let label = argument.label, let labelSpan = argument.labelSpan {
                    error("extraneous argument label '\(label):' in call", labelSpan)
                }
                return checkExpression(argument.value, expected: nil)
            }
        }
        switch builtin {
        case .print:
            for argument in arguments {
                switch argument.label {
                case nil:
                    let type = checkExpression(argument.value, expected: nil)
                    if type == .void { error("a Void value has nothing to print", argument.value.span) }
                case "separator"?, "terminator"?:
                    let type = checkExpression(argument.value, expected: .string)
                    requireAssignable(type, to: .string, argument.value.span)
                case let label?:
                    error("unknown argument '\(label):' to print; it takes separator: and terminator:",
                          argument.labelSpan ?? argument.value.span)
                    checkExpression(argument.value, expected: nil)
                }
            }
            return .void
        case .expect:
            guard (1...2).contains(arguments.count) else {
                for argument in arguments { checkExpression(argument.value, expected: nil) }
                error("'expect' takes a condition and an optional message", expression.span)
                return .void
            }
            let condition = checkExpression(arguments[0].value, expected: .bool)
            if !condition.isDynamic, condition != .bool {
                error("expect needs a Bool condition, not '\(condition)'", arguments[0].value.span)
            }
            if arguments.count == 2 {
                let message = checkExpression(arguments[1].value, expected: .string)
                requireAssignable(message, to: .string, arguments[1].value.span)
            }
            return .void
        case .env:
            let types = unlabeled(1...1, "one argument, the variable's name")
            if let type = types.first { requireAssignable(type, to: .string, arguments[0].value.span) }
            return .string.optional
        case .int, .double:
            let types = unlabeled(1...1, "one argument")
            let target: ScriptType = builtin == .int ? .int : .double
            switch types.first {
            case .string?, .any?, .unknown?, nil: return target.optional
            case .int?, .double?: return target
            case let other?:
                error("cannot convert '\(other)' to \(target)", arguments[0].value.span)
                return .unknown
            }
        case .string:
            if arguments.count == 1, arguments[0].label == "describing" {
                checkExpression(arguments[0].value, expected: nil)
                return .string
            }
            _ = unlabeled(1...1, "one argument")
            return .string
        case .json:
            let types = unlabeled(1...1, "one String argument")
            if let type = types.first { requireAssignable(type, to: .string, arguments[0].value.span) }
            return .any
        case .typeOf:
            guard arguments.count == 1, arguments[0].label == "of" else {
                for argument in arguments { checkExpression(argument.value, expected: nil) }
                error("write 'type(of: value)'", expression.span)
                return .string
            }
            checkExpression(arguments[0].value, expected: nil)
            return .string
        case .abs:
            let types = unlabeled(1...1, "one number")
            guard let type = types.first else { return .unknown }
            if !type.isDynamic, type != .int, type != .double {
                error("abs needs an Int or a Double, not '\(type)'", arguments[0].value.span)
            }
            return type
        case .min, .max:
            let types = unlabeled(2...Int.max, "two or more values")
            guard var result = types.first else { return .unknown }
            for (position, type) in types.enumerated().dropFirst() {
                if type == .double, result == .int, case .integer = arguments[0].value.kind { result = .double }
                if !type.isDynamic, !result.isDynamic, type != result,
                    !(type == .int && result == .double && { if case .integer = arguments[position].value.kind { true } else { false } }())
                {
                    error("'\(builtin.rawValue)' needs values of one type; found '\(result)' and '\(type)'",
                          arguments[position].value.span)
                }
            }
            if result == .double {
                for argument in arguments where annotations.type(of: argument.value) == .int {
                    if case .integer = argument.value.kind { annotations.setType(.double, of: argument.value) }
                }
            }
            if !result.isComparable { error("values of type '\(result)' cannot be compared", expression.span) }
            return result
        }
    }
}
