extension Compiler {
    /// Something that can be read and written: a variable, a record field, an element.
    struct Place {
        let get: (Frame) throws -> Value
        let set: (Frame, Value) throws -> Void
    }

    mutating func place(_ target: Expr) -> Place? {
        switch annotations.kind(of: target) {
        case .name:
            guard let binding = annotations.binding(of: target), let get = load(binding, target.span).sync else { return nil }
            return Place(get: get, set: store(binding, target.span))
        case .member(let base, let name, _, _):
            guard let basePlace = place(base) else { return nil }
            let source = source
            let span = target.span
            let fieldIndex: Int? = if case .field(let index)? = annotations.callee(of: target) { index } else { nil }
            return Place(get: { frame in
                let value = try basePlace.get(frame)
                if let fieldIndex, case .record(let record) = value, let field = record.value(at: fieldIndex) {
                    return field
                }
                do { return try Members.dynamicMember(value, name, span: nil) } catch let failure as ScriptFailure {
                    throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span)
                }
            }, set: { frame, newValue in
                var value = try basePlace.get(frame)
                switch value {
                case .record(var record):
                    guard let index = fieldIndex ?? record.type.index(of: name), index < record.fieldCount else {
                        throw Diagnostic(kind: .runtime, message: "\(record.type.name) has no member '\(name)'",
                                         source: source, span: span)
                    }
                    record.values[index] = newValue
                    value = .record(record)
                case .dictionary(var entries):
                    entries[name] = newValue.isNull ? nil : newValue
                    value = .dictionary(entries)
                default:
                    throw Diagnostic(kind: .runtime, message: "cannot set '\(name)' on a value of type '\(ValueFormatter.typeName(value))'",
                                     source: source, span: span)
                }
                try basePlace.set(frame, value)
            })
        case .subscriptAccess(let base, let index, _):
            guard let basePlace = place(base) else { return nil }
            let indexCode = expression(index)
            guard let indexSync = indexCode.sync else {
                diagnostics.append(runtimeError("a call in an assignment target is not supported; assign its result to a variable first",
                                                index.span))
                return nil
            }
            let source = source
            let span = target.span
            return Place(get: { frame in
                do { return try Members.subscriptValue(try basePlace.get(frame), try indexSync(frame)) }
                catch let failure as ScriptFailure {
                    throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span, notes: failure.notes)
                }
            }, set: { frame, newValue in
                var value = try basePlace.get(frame)
                let key = try indexSync(frame)
                switch (value, key) {
                case (.array(var elements), .int(let position)):
                    guard position >= 0, position < elements.count else {
                        throw Diagnostic(kind: .runtime,
                                         message: "index \(position) is out of range for an array of \(elements.count) elements",
                                         source: source, span: span)
                    }
                    value = .null
                    elements[position] = newValue
                    value = .array(elements)
                case (.dictionary(var entries), .string(let name)):
                    value = .null
                    entries[name] = newValue.isNull ? nil : newValue
                    value = .dictionary(entries)
                default:
                    throw Diagnostic(kind: .runtime, message: "cannot assign through this subscript", source: source, span: span)
                }
                try basePlace.set(frame, value)
            })
        default:
            return nil
        }
    }

    mutating func assignment(target: Expr, op: BinaryOperator?, value: Expr, _ span: TextSpan) -> Block {
        guard let place = place(target) else {
            if diagnostics.isEmpty { diagnostics.append(runtimeError("cannot assign to this expression", target.span)) }
            return .empty
        }
        var valueCode = expression(value)
        if case .name = annotations.kind(of: target) {} else {
            // A value stored inside a container goes one level down in it.
            valueCode = Code.unary(valueCode, at1(value.span) { value in
                try ScriptLimits.checkNesting(value)
                return value
            })
        }
        if annotations.type(of: target) == .secret {
            valueCode = Code.unary(valueCode) { value in
                if case .string(let text) = value { return .secret(text) }
                return value
            }
        }
        let source = source
        let combine: ((Value, Value) throws -> Value)?
        if let symbol = op {
            let isAddition = symbol == .add
            // The common `total += i` on Int stays on a fast path.
            combine = { current, operand in
                if isAddition, case .int(let a) = current, case .int(let b) = operand {
                    let (sum, overflow) = a.addingReportingOverflow(b)
                    if !overflow { return .int(sum) }
                }
                do { return try Operators.arithmetic(symbol, current, operand) } catch let failure as ScriptFailure {
                    throw Diagnostic(kind: .runtime, message: failure.message, source: source, span: span, notes: failure.notes)
                }
            }
        } else {
            combine = nil
        }
        if let sync = valueCode.sync, let combine, case .name = annotations.kind(of: target), let binding = annotations.binding(of: target),
            case .variable = binding.kind
        {
            // `s += i` on a plain variable: one closure, no read-modify-write indirection.
            if binding.isGlobal {
                let box = context.global(binding.assignedSlot)
                return Block { frame in
                    box.value = try combine(box.value, try sync(frame))
                    return .normal
                }
            }
            if binding.owner === scope, !binding.isCaptured {
                let slot = binding.assignedSlot
                return Block { frame in
                    frame.slots[slot] = try combine(frame.slots[slot], try sync(frame))
                    return .normal
                }
            }
        }
        if let sync = valueCode.sync {
            if let combine {
                return Block { frame in
                    let operand = try sync(frame)
                    try place.set(frame, try combine(try place.get(frame), operand))
                    return .normal
                }
            }
            return Block { frame in
                try place.set(frame, try sync(frame))
                return .normal
            }
        }
        let async = valueCode.async
        return Block(async: { frame in
            let operand = try await async(frame)
            if let combine {
                try place.set(frame, try combine(try place.get(frame), operand))
            } else {
                try place.set(frame, operand)
            }
            return .normal
        })
    }
}
