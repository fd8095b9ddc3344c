extension Checker {
    mutating func checkMethodCall(_ expression: Expr, base: Expr, name: String, nameSpan: TextSpan, optional: Bool,
                                  arguments: [Argument]) -> ScriptType {
        var receiver = checkExpression(base, expected: nil)
        if optional {
            if !receiver.isOptional, !receiver.isDynamic {
                error("cannot use optional chaining on non-optional value of type '\(receiver)'", nameSpan)
            }
            receiver = receiver.unwrapped
        } else if receiver.isOptional, Compiler.inChain(base) {
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
            expression.callee = .value
            return field.type
        }
        let result = methodType(expression, receiver: receiver, name: name, nameSpan: nameSpan, arguments: arguments)
        return optional && result != .void ? result.optional : result
    }

    private mutating func methodType(_ expression: Expr, receiver: ScriptType, name: String, nameSpan: TextSpan,
                                     arguments: [Argument]) -> ScriptType {
        var labels = arguments.map(\.label)
        // A trailing closure fills the last labeled function parameter, as in Swift.
        if let last = arguments.last, last.label == nil, case .closure = last.value.kind, arguments.count >= 1 {
            labels[labels.count - 1] = nil
        }
        var key = Self.methodKey(name, labels)
        if Self.methodsByKey[key] == nil, let last = arguments.last, last.label == nil, case .closure = last.value.kind {
            // A trailing closure fills a labeled parameter: `sorted { … }` is `sorted(by:)`.
            for label in ["by", "where"] {
                var relabeled = labels
                relabeled[relabeled.count - 1] = label
                if Self.methodsByKey[Self.methodKey(name, relabeled)] != nil {
                    key = Self.methodKey(name, relabeled)
                    break
                }
            }
        }
        func reject(_ message: String? = nil) -> ScriptType {
            for argument in arguments where argument.value.type == .unknown {
                checkExpression(argument.value, expected: nil)
            }
            let members = BuiltinMembers.names(for: receiver)
            if let message {
                error(message, nameSpan)
            } else if receiver == .secret {
                error(Self.secretHasNoMembers, nameSpan)
            } else if members.contains(name) {
                error("no '\(name)' on '\(receiver)' takes (\(labels.map { ($0 ?? "_") + ":" }.joined()))", nameSpan)
            } else {
                let suggestion = Suggestions.nearest(to: name, in: members)
                error("value of type '\(receiver)' has no member '\(name)'", nameSpan,
                      notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [], suggestion: suggestion)
            }
            return .unknown
        }
        func argument(_ index: Int, _ expected: ScriptType) -> ScriptType {
            guard index < arguments.count else { return .unknown }
            let type = checkExpression(arguments[index].value, expected: expected)
            if !expected.isDynamic, !expected.accepts(type) {
                requireAssignable(type, to: expected, arguments[index].value.span)
            }
            return type
        }
        func function(_ index: Int, _ parameters: [ScriptType], _ result: ScriptType = .unknown) -> ScriptType {
            guard index < arguments.count else { return .unknown }
            let type = checkExpression(arguments[index].value, expected: .function(parameters: parameters, result: result))
            guard case .function(_, let found) = type else {
                if !type.isDynamic {
                    error("'\(name)' takes a closure here, not '\(type)'", arguments[index].value.span)
                }
                return .unknown
            }
            if result != .unknown, !result.isDynamic, !result.accepts(found), found != .unknown {
                error("the closure must return '\(result)', not '\(found)'", arguments[index].value.span)
            }
            return found
        }
        func resolved(_ method: Method, _ type: ScriptType) -> ScriptType {
            expression.callee = .method(method)
            return type
        }
        if receiver.isDynamic {
            guard let method = Self.methodsByKey[key] else { return reject("unknown method '\(name)'") }
            for (index, argument) in arguments.enumerated() {
                if case .closure = argument.value.kind {
                    _ = function(index, Array(repeating: .any, count: method == .reduce && index == 1 ? 2 : 1), .unknown)
                } else if case .keyPath = argument.value.kind {
                    _ = function(index, [.any])
                } else {
                    checkExpression(argument.value, expected: nil)
                }
            }
            return resolved(method, .any)
        }
        switch receiver {
        case .array, .range:
            let element: ScriptType = { if case .array(let e) = receiver { e } else { .int } }()
            switch key {
            case "map(_:)":
                return resolved(.map, .array(function(0, [element])))
            case "filter(_:)":
                _ = function(0, [element], .bool)
                return resolved(.filter, .array(element))
            case "compactMap(_:)":
                return resolved(.compactMap, .array(function(0, [element]).unwrapped))
            case "reduce(_:_:)":
                var initial = argument(0, .unknown)
                if initial == .int, case .integer = arguments[0].value.kind {
                    // `reduce(0) { $0 + $1.price }`: the literal takes the closure's Double type.
                    let mark = diagnostics.count
                    let trial = function(1, [initial, element])
                    if trial == .double || diagnostics.count > mark {
                        diagnostics.removeSubrange(mark...)
                        arguments[0].value.type = .double
                        initial = .double
                        _ = function(1, [initial, element], initial)
                    }
                    if diagnostics.count > mark { return resolved(.reduce, initial) }
                    return resolved(.reduce, initial)
                }
                _ = function(1, [initial, element], initial)
                return resolved(.reduce, initial)
            case "sorted()":
                if !element.isComparable { return reject("'\(element)' values have no order; use sorted(by:)") }
                return resolved(.sorted, .array(element))
            case "sorted(by:)":
                _ = function(0, [element, element], .bool)
                return resolved(.sorted, .array(element))
            case "forEach(_:)":
                _ = function(0, [element], .void)
                return resolved(.forEach, .void)
            case "contains(_:)":
                _ = argument(0, element)
                return resolved(.contains, .bool)
            case "contains(where:)":
                _ = function(0, [element], .bool)
                return resolved(.contains, .bool)
            case "allSatisfy(_:)":
                _ = function(0, [element], .bool)
                return resolved(.allSatisfy, .bool)
            case "first(where:)":
                _ = function(0, [element], .bool)
                return resolved(.firstWhere, element.optional)
            case "last(where:)":
                _ = function(0, [element], .bool)
                return resolved(.lastWhere, element.optional)
            case "count(where:)":
                _ = function(0, [element], .bool)
                return resolved(.countWhere, .int)
            case "prefix(_:)", "suffix(_:)", "dropFirst(_:)", "dropLast(_:)", "dropFirst()", "dropLast()":
                if !arguments.isEmpty { _ = argument(0, .int) }
                let chosen: Method = name == "prefix" ? .prefix : name == "suffix" ? .suffix
                    : name == "dropFirst" ? .dropFirst : .dropLast
                return resolved(chosen, .array(element))
            case "reversed()":
                return resolved(.reversed, .array(element))
            case "shuffled()":
                return resolved(.shuffled, .array(element))
            case "randomElement()":
                return resolved(.randomElement, element.optional)
            case "joined()", "joined(separator:)":
                if !element.isDynamic, element != .string {
                    return reject("joined needs an array of String, not '\(receiver)'; map to strings first")
                }
                if !arguments.isEmpty { _ = argument(0, .string) }
                return resolved(.joined, .string)
            case "min()", "max()":
                if !element.isComparable { return reject("'\(element)' values have no order") }
                return resolved(name == "min" ? .min : .max, element.optional)
            case "append(_:)", "append(contentsOf:)", "insert(_:at:)", "remove(at:)", "removeFirst()", "removeLast()",
                "removeAll()":
                guard let method = Self.methodsByKey[key], receiver != .range else { return reject() }
                requireMutable(base: expression, method: name)
                switch method {
                case .append: _ = argument(0, element)
                case .appendContentsOf: _ = argument(0, .array(element))
                case .insert:
                    _ = argument(0, element)
                    _ = argument(1, .int)
                case .removeAt: _ = argument(0, .int)
                default: break
                }
                let result: ScriptType = switch method {
                case .removeAt, .removeFirst, .removeLast: element
                default: .void
                }
                return resolved(method, result)
            case "enumerated()":
                return resolved(.enumerated, .array(.record(RecordType.tuple([.init("offset", .int), .init("element", element)]))))
            default:
                return reject()
            }
        case .string:
            switch key {
            case "uppercased()": return resolved(.uppercased, .string)
            case "lowercased()": return resolved(.lowercased, .string)
            case "hasPrefix(_:)":
                _ = argument(0, .string)
                return resolved(.hasPrefix, .bool)
            case "hasSuffix(_:)":
                _ = argument(0, .string)
                return resolved(.hasSuffix, .bool)
            case "contains(_:)":
                _ = argument(0, .string)
                return resolved(.contains, .bool)
            case "split(separator:)":
                _ = argument(0, .string)
                return resolved(.split, .array(.string))
            case "reversed()": return resolved(.reversed, .string)
            case "prefix(_:)", "suffix(_:)", "dropFirst(_:)", "dropLast(_:)", "dropFirst()", "dropLast()":
                if !arguments.isEmpty { _ = argument(0, .int) }
                let chosen: Method = name == "prefix" ? .prefix : name == "suffix" ? .suffix
                    : name == "dropFirst" ? .dropFirst : .dropLast
                return resolved(chosen, .string)
            case "trimmingWhitespace()": return resolved(.trimmed, .string)
            default: return reject()
            }
        case .dictionary(let value):
            let pair = ScriptType.record(RecordType.tuple([.init("key", .string), .init("value", value)]))
            switch key {
            case "mapValues(_:)":
                return resolved(.mapValues, .dictionary(function(0, [value])))
            case "filter(_:)":
                _ = function(0, [pair], .bool)
                return resolved(.filter, .dictionary(value))
            case "map(_:)":
                return resolved(.map, .array(function(0, [pair])))
            case "contains(where:)":
                _ = function(0, [pair], .bool)
                return resolved(.contains, .bool)
            default: return reject()
            }
        default:
            return reject()
        }
    }

    /// Reports a mutating method called on something that cannot change.
    private mutating func requireMutable(base call: Expr, method: String) {
        guard case .call(let callee, _) = call.kind, case .member(let base, _, _, _) = callee.kind else { return }
        var root = base
        while true {
            switch root.kind {
            case .member(let inner, _, _, _), .subscriptAccess(let inner, _, _): root = inner
            default:
                guard case .name(let name) = root.kind else {
                    error("cannot use mutating member '\(method)' on a temporary value; store it in a 'var' first", base.span)
                    return
                }
                if let binding = root.binding, case .variable = binding.kind, !binding.isMutable {
                    error("cannot use mutating member '\(method)' on '\(name)': it is a 'let' constant", base.span,
                          notes: binding.span.map { [.init("change 'let' to 'var' to make it mutable", span: $0)] } ?? [])
                } else if let binding = root.binding, case .hostGlobal(let global) = binding.kind, global.set == nil {
                    error("cannot use mutating member '\(method)' on '\(name)': it is read-only", base.span)
                } else if let binding = root.binding, case .hostFunction = binding.kind {
                    error("cannot use mutating member '\(method)' on a function", base.span)
                }
                return
            }
        }
    }

    static func methodKey(_ name: String, _ labels: [String?]) -> String {
        "\(name)(\(labels.map { ($0 ?? "_") + ":" }.joined()))"
    }

    static let methodsByKey: [String: Method] = [
        "map(_:)": .map, "filter(_:)": .filter, "compactMap(_:)": .compactMap, "reduce(_:_:)": .reduce,
        "sorted()": .sorted, "sorted(by:)": .sorted, "forEach(_:)": .forEach, "contains(_:)": .contains,
        "contains(where:)": .contains, "allSatisfy(_:)": .allSatisfy, "first(where:)": .firstWhere,
        "last(where:)": .lastWhere, "count(where:)": .countWhere, "prefix(_:)": .prefix, "suffix(_:)": .suffix,
        "dropFirst()": .dropFirst, "dropFirst(_:)": .dropFirst, "dropLast()": .dropLast, "dropLast(_:)": .dropLast,
        "reversed()": .reversed, "joined()": .joined, "joined(separator:)": .joined, "min()": .min, "max()": .max,
        "enumerated()": .enumerated, "uppercased()": .uppercased, "lowercased()": .lowercased,
        "hasPrefix(_:)": .hasPrefix, "hasSuffix(_:)": .hasSuffix, "split(separator:)": .split,
        "mapValues(_:)": .mapValues, "randomElement()": .randomElement, "shuffled()": .shuffled,
        "trimmingWhitespace()": .trimmed, "append(_:)": .append, "append(contentsOf:)": .appendContentsOf,
        "insert(_:at:)": .insert, "remove(at:)": .removeAt, "removeFirst()": .removeFirst,
        "removeLast()": .removeLast, "removeAll()": .removeAll,
    ]
}
