import Foundation

extension Compiler {
    mutating func call(_ expression: Expr, callee: Expr, arguments: [Argument]) -> Code {
        let span = expression.span
        switch annotations.callee(of: expression) {
        case .hostFunction(let host, let map)?:
            return hostCall(host, map: map, arguments: arguments, span: span)
        case .scriptFunction(let reference, let map)?:
            guard let binding = reference.binding, case .scriptFunction(let syntax) = binding.kind else { return .constant(.null) }
            var codes: [Code] = []
            for (position, argumentIndex) in map.enumerated() {
                if let argumentIndex {
                    codes.append(self.expression(arguments[argumentIndex].value))
                } else if position < syntax.parameters.count, let defaultValue = syntax.parameters[position].defaultValue {
                    codes.append(compiling(from: binding.declaredIn, with: binding.declaringAnnotations) {
                        $0.expression(defaultValue)
                    })
                } else {
                    codes.append(.constant(.null))
                }
            }
            let function = load(binding, span)
            let isPure = binding.functionScope?.isPure ?? false
            return callFunction(function, codes, isPure: isPure, span: span)
        case .builtin(let builtin)?:
            return self.builtin(builtin, arguments, span: span)
        case .method(let method)? where method.isMutating:
            guard case .member(let base, _, _, _) = annotations.kind(of: callee) else { return .constant(.null) }
            return mutatingCall(method, base: base, arguments: arguments, span: span)
        case .method(let method)?:
            guard case .member(let base, _, _, let optional) = annotations.kind(of: callee) else { return .constant(.null) }
            let chained = optional || base.isInOptionalChain
            let receiver = self.expression(base)
            let argumentCodes = arguments.map { self.expression($0.value) }
            let staticallyPure = !method.isConsuming && receiver.isPure && argumentCodes.allSatisfy(\.isPure)
                && arguments.allSatisfy { self.pureFunctionArgument($0.value) }
            let located = at(span) { values in
                if chained, values[0].isNull { return .null }
                return try method.implementation.call(values[0], Array(values.dropFirst()))
            }
            if staticallyPure { return Code.combine([receiver] + argumentCodes, located) }
            let source = source
            let all = [receiver] + argumentCodes
            return Code(async: { frame in
                var values: [Value] = []
                for code in all { values.append(try await code.async(frame)) }
                if chained, values[0].isNull { return .null }
                do {
                    return try await method.implementation.callAsync(values[0], Array(values.dropFirst()))
                } catch let failure as ScriptFailure {
                    throw Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span,
                                     notes: failure.notes)
                } catch {
                    // A stream's source failing as it is read (a closure's errors are placed already).
                    throw Self.hostFailure(error, source: source, span: span)
                }
            })
        default:
            let function = self.expression(callee)
            let codes = arguments.map { self.expression($0.value) }
            return callFunction(function, codes, isPure: false, span: span)
        }
    }

    /// `xs.append(x)` and friends: read the array, change it, write it back.
    private mutating func mutatingCall(_ method: BuiltinMethod, base: Expr, arguments: [Argument], span: TextSpan) -> Code {
        guard let place = place(base), case .mutating(let change) = method.implementation else { return .constant(.null) }
        let codes = arguments.map { expression($0.value) }
        let name = method.name
        let step: (Frame, [Value]) throws -> Value = { frame, values in
            guard case .array(var elements) = try place.get(frame) else {
                throw ScriptFailure("'\(name)' needs an array")
            }
            // Release the variable's reference so the array is changed in place, not copied.
            try place.set(frame, .null)
            defer { try? place.set(frame, .array(elements)) }
            return try change(&elements, values)
        }
        let source = source
        let located: (Frame, [Value]) throws -> Value = { frame, values in
            do { return try step(frame, values) } catch let failure as ScriptFailure {
                throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span)
            }
        }
        if codes.allSatisfy(\.isPure) {
            let syncs = codes.compactMap(\.sync)
            return Code { frame in try located(frame, try syncs.map { try $0(frame) }) }
        }
        return Code(async: { frame in
            var values: [Value] = []
            for code in codes { values.append(try await code.async(frame)) }
            return try located(frame, values)
        })
    }

    /// Whether an argument is a function known to run without suspending (or no function at all).
    func pureFunctionArgument(_ expression: Expr) -> Bool {
        switch annotations.kind(of: expression) {
        case .closure(let closure): return annotations.scope(of: closure)?.isPure ?? false
        case .keyPath: return true
        default:
            if case .function = annotations.type(of: expression).unwrapped { return false }
            return !annotations.type(of: expression).isDynamic
        }
    }

    private func callFunction(_ function: Code, _ arguments: [Code], isPure: Bool, span: TextSpan) -> Code {
        let source = source
        let context = context
        let notFunction: (Value) -> Diagnostic = { value in
            Diagnostic(kind: .runtime, message: "cannot call a value of type '\(ValueFormatter.typeName(value))'",
                       source: source, span: span)
        }
        let tooDeep: (String) -> Diagnostic = { message in
            Diagnostic(kind: .runtime, message: message, source: source, span: span)
        }
        if isPure, let load = function.sync, arguments.allSatisfy(\.isPure) {
            let syncs = arguments.compactMap(\.sync)
            return Code { frame in
                guard case .function(let callee) = try load(frame) else { throw notFunction(.null) }
                var values: [Value] = []
                values.reserveCapacity(syncs.count)
                for code in syncs { values.append(try code(frame)) }
                if let refusal = context.enterCall() { throw tooDeep(refusal) }
                defer { context.leaveCall() }
                return try callee.call(values)
            }
        }
        let asyncs = arguments.map(\.async)
        return Code(async: { frame in
            let value = try await function.async(frame)
            guard case .function(let callee) = value else { throw notFunction(value) }
            var values: [Value] = []
            for code in asyncs { values.append(try await code(frame)) }
            try Task.checkCancellation()
            if let refusal = context.enterCall() { throw tooDeep(refusal) }
            defer { context.leaveCall() }
            do {
                return try await callee.callAsync(values)
            } catch let failure as ScriptFailure {
                throw Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span, notes: failure.notes)
            }
        })
    }

    private mutating func hostCall(_ host: HostFunction, map: [Int?], arguments: [Argument], span: TextSpan) -> Code {
        var codes: [Code] = []
        var spans: [TextSpan] = []
        for (position, argumentIndex) in map.enumerated() {
            if let argumentIndex {
                codes.append(self.expression(arguments[argumentIndex].value))
                spans.append(arguments[argumentIndex].value.span)
            } else {
                codes.append(.constant(host.parameters[position].defaultValue ?? .null))
                spans.append(span)
            }
        }
        let asyncs = codes.map(\.async)
        let host = host
        let source = source
        let types = host.parameters.map(\.type)
        return Code(async: { frame in
            var values: [Value] = []
            values.reserveCapacity(asyncs.count)
            for (index, code) in asyncs.enumerated() {
                var value = try await code(frame)
                if types[index] == .secret, case .string(let text) = value { value = .secret(text) }
                values.append(value)
            }
            try Task.checkCancellation()
            do {
                // Under `concurrentMap`, other calls run script code while this one waits.
                return try await ScriptTurn.yielding { scope in try await host.call(values, scope: scope) }
            } catch let error as ArgumentError {
                let place = error.index >= 0 && error.index < spans.count ? spans[error.index] : span
                throw Diagnostic(kind: .host, message: error.message, source: source, span: place)
            } catch {
                throw Self.hostFailure(error, source: source, span: span)
            }
        })
    }

    /// What the host threw, as a diagnostic at `span`: its first line the message, the rest notes.
    /// Diagnostics (placed already), cancellation and the interpreter's own control errors pass.
    static func hostFailure(_ error: any Error, source: ScriptSource, span: TextSpan) -> any Error {
        switch error {
        case is Diagnostic, is ControlError: return error
        case is CancellationError: return CancellationError()
        case let failure as ScriptFailure:
            return Diagnostic(kind: failure.kind, message: failure.message, source: source, span: span, notes: failure.notes)
        case let noted as any NotedError:
            if Task.isCancelled { return CancellationError() }
            return hostDiagnostic(noted.message, notes: noted.notes, source: source, span: span)
        default:
            if Task.isCancelled { return CancellationError() }
            return hostDiagnostic(String(describing: error), notes: [], source: source, span: span)
        }
    }

    /// A host's failure as a diagnostic: the first line of `text` its message, its other lines
    /// (an error's own detail, such as a body's excerpt) and then `notes` its notes.
    private static func hostDiagnostic(_ text: String, notes: [String], source: ScriptSource, span: TextSpan) -> Diagnostic {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let rest = lines.dropFirst().map { String($0).trimmingSpaces } + notes
        return Diagnostic(kind: .host, message: lines.first.map(String.init) ?? "the call failed", source: source,
                          span: span, notes: rest.filter { !$0.isEmpty }.map { .init($0) })
    }

    // MARK: Built-ins

    private mutating func builtin(_ builtin: BuiltinFunction, _ arguments: [Argument], span: TextSpan) -> Code {
        let context = context
        switch builtin {
        case .print:
            var items: [Code] = []
            var separator: Code = .constant(.string(" "))
            var terminator: Code = .constant(.string("\n"))
            for argument in arguments {
                switch argument.label {
                case "separator"?: separator = expression(argument.value)
                case "terminator"?: terminator = expression(argument.value)
                default: items.append(expression(argument.value))
                }
            }
            let count = items.count
            return Code.combine(items + [separator, terminator], at(span) { values in
                for value in values.prefix(count) { try ValueFormatter.checkDescriptionSize(value) }
                let text = values.prefix(count).map(context.describe)
                    .joined(separator: ValueFormatter.description(values[count]))
                context.output(text + ValueFormatter.description(values[count + 1]))
                return .void
            })
        case .expect:
            return expect(arguments, span: span)
        case .env:
            return Code.combine(arguments.map { expression($0.value) }) { values in
                guard case .string(let name) = values.first ?? .null else { return .null }
                return context.environment(name).map(Value.string) ?? .null
            }
        case .int:
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                switch values.first ?? .null {
                case .int(let number): return .int(number)
                case .string(let text): return Int(text.trimmingSpaces).map(Value.int) ?? .null
                case .double(let number):
                    // `Int(exactly:)` after truncation: no bound written by hand (9.3e18 was above Int.max).
                    guard number.isFinite, let whole = Int(exactly: number.rounded(.towardZero)) else {
                        throw ScriptFailure("\(number) cannot be converted to Int: it is outside Int's range")
                    }
                    return .int(whole)
                case .null: return .null
                case let other: throw ScriptFailure("cannot convert '\(ValueFormatter.typeName(other))' to Int")
                }
            })
        case .double:
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                switch values.first ?? .null {
                case .int(let number): return .double(Double(number))
                case .double(let number): return .double(number)
                case .string(let text): return Double(text.trimmingSpaces).map(Value.double) ?? .null
                case .null: return .null
                case let other: throw ScriptFailure("cannot convert '\(ValueFormatter.typeName(other))' to Double")
                }
            })
        case .string:
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                .string(try ValueFormatter.boundedDescription(values.first ?? .null))
            })
        case .json:
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                guard case .string(let text) = values.first ?? .null else { throw ScriptFailure("json needs a String") }
                do throws(JSONReader.Failure) {
                    return try JSONReader.parse(Data(text.utf8))
                } catch {
                    throw ScriptFailure(error.description)
                }
            })
        case .typeOf:
            return Code.combine(arguments.map { expression($0.value) }) { values in
                .string(ValueFormatter.typeName(values.first ?? .null))
            }
        case .abs:
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                switch values.first ?? .null {
                case .int(let number):
                    guard number != Int.min else { throw ScriptFailure("abs(\(number)) does not fit in Int") }
                    return .int(Swift.abs(number))
                case .double(let number): return .double(Swift.abs(number))
                case let other: throw ScriptFailure("abs needs a number, not '\(ValueFormatter.typeName(other))'")
                }
            })
        case .min, .max:
            let wantsMin = builtin == .min
            return Code.combine(arguments.map { expression($0.value) }, at(span) { values in
                guard var best = values.first else { return .null }
                for value in values.dropFirst() {
                    if wantsMin ? try Operators.less(value, best) : try Operators.less(best, value) { best = value }
                }
                return best
            })
        }
    }

    private mutating func expect(_ arguments: [Argument], span: TextSpan) -> Code {
        guard let condition = arguments.first?.value else { return .constant(.void) }
        let message = arguments.count > 1 ? expression(arguments[1].value) : .constant(.string(""))
        let source = source
        let conditionText = source.text(of: condition.span)
        if case .binary(let op, let left, let right, _) = condition.kind, op.isEquality || op.isOrdering
        {
            let leftCode = expression(left)
            let rightCode = expression(right)
            let leftText = source.text(of: left.span)
            let rightText = source.text(of: right.span)
            let leftIsLiteral = self.isLiteral(left)
            let rightIsLiteral = self.isLiteral(right)
            return Code.combine([leftCode, rightCode, message]) { values in
                let holds: Bool
                do {
                    holds = try Operators.compare(op, values[0], values[1])
                } catch let failure as ScriptFailure {
                    throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: condition.span)
                }
                if holds { return .void }
                let shownLeft = leftIsLiteral ? leftText : "(\(leftText) → \(Self.shown(values[0])))"
                let shownRight = rightIsLiteral ? rightText : "(\(rightText) → \(Self.shown(values[1])))"
                throw Self.expectationFailure("\(shownLeft) \(op) \(shownRight)", values[2], source, span)
            }
        }
        return Code.combine([expression(condition), message]) { values in
            if case .bool(true) = values[0] { return .void }
            throw Self.expectationFailure(conditionText, values[1], source, span)
        }
    }

    private static func expectationFailure(_ text: String, _ message: Value, _ source: ScriptSource,
                                           _ span: TextSpan) -> Diagnostic {
        var notes: [Diagnostic.Note] = []
        if case .string(let note) = message, !note.isEmpty { notes.append(.init(note)) }
        return Diagnostic(kind: .expectation, message: "expectation failed: \(text)", source: source, span: span,
                          notes: notes)
    }

    private static func shown(_ value: Value) -> String {
        let text = ValueFormatter.literal(value)
        return text.count > 120 ? String(text.prefix(117)) + "…" : text
    }

    private func isLiteral(_ expression: Expr) -> Bool {
        switch annotations.kind(of: expression) {
        case .integer, .double, .bool, .nilLiteral: return true
        case .string(let parts): return parts.allSatisfy { if case .text = $0 { true } else { false } }
        default: return false
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
