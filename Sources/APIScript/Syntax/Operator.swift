/// The binary operators: one list for the parser (spelling, precedence), the syntax tree, the
/// checker and the compiler. Messages show an operator by its spelling.
enum BinaryOperator: String, Sendable, CaseIterable, CustomStringConvertible {
    case or = "||", and = "&&"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case coalesce = "??"
    case halfOpenRange = "..<", closedRange = "..."
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"

    var description: String { rawValue }

    /// How tightly it binds, in Swift's order of precedence groups (higher binds tighter).
    var precedence: Int {
        switch self {
        case .or: 1
        case .and: 2
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: 3
        case .coalesce: 4
        case .halfOpenRange, .closedRange: 5
        case .add, .subtract: 6
        case .multiply, .divide, .remainder: 7
        }
    }

    /// `a ?? b ?? c` groups as `a ?? (b ?? c)`.
    var isRightAssociative: Bool { self == .coalesce }

    /// Comparisons and ranges do not chain without parentheses (`a < b < c` is an error).
    var isNonAssociative: Bool { precedence == 3 || precedence == 5 }

    var isLogical: Bool { self == .and || self == .or }
    var isEquality: Bool { self == .equal || self == .notEqual }
    var isOrdering: Bool { [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }
    var isRange: Bool { self == .halfOpenRange || self == .closedRange }
    var isArithmetic: Bool { precedence >= 6 }

    /// Whether it can be passed where a function of two values is expected (`reduce(0, +)`).
    var isFunction: Bool { !isRange && self != .coalesce }

    /// The operator of a compound assignment: `+=` is `+`.
    init?(compoundAssignment symbol: String) {
        guard symbol.count == 2, symbol.hasSuffix("="), let op = BinaryOperator(rawValue: String(symbol.dropLast())),
            op.isArithmetic
        else { return nil }
        self = op
    }
}

/// The prefix operators.
enum UnaryOperator: String, Sendable, CustomStringConvertible {
    case not = "!", negate = "-"

    var description: String { rawValue }
}
