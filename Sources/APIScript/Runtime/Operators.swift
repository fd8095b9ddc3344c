/// Arithmetic and comparison on values whose types are known only at run time, with Swift's
/// rules: `Int` overflow and division by zero are errors, not traps.
enum Operators {
    static func arithmetic(_ op: BinaryOperator, _ left: Value, _ right: Value) throws -> Value {
        switch (left, right) {
        case (.int(let a), .int(let b)):
            return .int(try integer(op, a, b))
        case (.double(let a), .double(let b)):
            return .double(try floating(op, a, b))
        case (.int(let a), .double(let b)):
            return .double(try floating(op, Double(a), b))
        case (.double(let a), .int(let b)):
            return .double(try floating(op, a, Double(b)))
        case (.string(let a), .string(let b)) where op == .add:
            try ScriptLimits.checkStringBytes(a.utf8.count + b.utf8.count)
            return .string(a + b)
        case (.array(let a), .array(let b)) where op == .add:
            try ScriptLimits.checkElements(a.count + b.count)
            return .array(a + b)
        default:
            throw ScriptFailure("binary operator '\(op)' cannot be applied to '\(ValueFormatter.typeName(left))' and '\(ValueFormatter.typeName(right))'")
        }
    }

    @inline(__always)
    static func integer(_ op: BinaryOperator, _ a: Int, _ b: Int) throws -> Int {
        let result: (partialValue: Int, overflow: Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { throw ScriptFailure("division by zero") }
            result = a.dividedReportingOverflow(by: b)
        case .remainder:
            guard b != 0 else { throw ScriptFailure("division by zero in remainder") }
            result = a.remainderReportingOverflow(dividingBy: b)
        default:
            throw ScriptFailure("unknown operator '\(op)'")
        }
        if result.overflow { throw overflow(op, a, b) }
        return result.partialValue
    }

    static func overflow(_ op: BinaryOperator, _ a: Int, _ b: Int) -> ScriptFailure {
        ScriptFailure("arithmetic overflow: \(a) \(op) \(b) does not fit in Int",
                      notes: [.init("Int holds \(Int.min)...\(Int.max); use Double for larger numbers")])
    }

    static func floating(_ op: BinaryOperator, _ a: Double, _ b: Double) throws -> Double {
        switch op {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide: return a / b
        case .remainder: return a.truncatingRemainder(dividingBy: b)
        default: throw ScriptFailure("unknown operator '\(op)'")
        }
    }

    static func negate(_ value: Value) throws -> Value {
        switch value {
        case .int(let number):
            guard number != Int.min else { throw ScriptFailure("arithmetic overflow: -(\(number)) does not fit in Int") }
            return .int(-number)
        case .double(let number): return .double(-number)
        default: throw ScriptFailure("cannot negate a value of type '\(ValueFormatter.typeName(value))'")
        }
    }

    /// `a < b`.
    static func less(_ a: Value, _ b: Value) throws -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.double(let x), .double(let y)): return x < y
        case (.int(let x), .double(let y)): return Double(x) < y
        case (.double(let x), .int(let y)): return x < Double(y)
        case (.string(let x), .string(let y)): return x < y
        default:
            throw ScriptFailure("cannot compare '\(ValueFormatter.typeName(a))' with '\(ValueFormatter.typeName(b))'")
        }
    }

    static func compare(_ op: BinaryOperator, _ a: Value, _ b: Value) throws -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return try less(a, b)
        case .greater: return try less(b, a)
        case .lessOrEqual: return try !less(b, a)
        case .greaterOrEqual: return try !less(a, b)
        default: throw ScriptFailure("unknown operator '\(op)'")
        }
    }

    static func truth(_ value: Value) throws -> Bool {
        if case .bool(let flag) = value { return flag }
        throw ScriptFailure("a condition must be a Bool, found '\(ValueFormatter.typeName(value))'")
    }

    static func range(_ lower: Value, _ upper: Value, closed: Bool) throws -> Value {
        guard case .int(let low) = lower, case .int(let high) = upper else {
            throw ScriptFailure("range bounds must be Int")
        }
        if closed {
            guard high != Int.max else { throw ScriptFailure("the range's upper bound \(high)... does not fit in Int") }
            guard low <= high + 1 else { throw ScriptFailure("range requires lowerBound <= upperBound (\(low)...\(high))") }
            return .range(low, high + 1)
        }
        guard low <= high else { throw ScriptFailure("range requires lowerBound <= upperBound (\(low)..<\(high))") }
        return .range(low, high)
    }
}
