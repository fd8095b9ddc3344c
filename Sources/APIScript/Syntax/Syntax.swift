/// An expression in the syntax tree, as the parser made it. What the checker learns about it (its
/// type, what it resolves to) is kept beside the tree, in the checker's ``Annotations``.
final class Expr {
    enum Kind {
        case integer(Int)
        case double(Double)
        case string([StringPart])
        case bool(Bool)
        case nilLiteral
        case name(String)
        case dollar(Int)
        case array([Expr])
        case dictionary([(key: Expr, value: Expr)])
        case member(Expr, name: String, nameSpan: TextSpan, optional: Bool)
        case subscriptAccess(Expr, index: Expr, optional: Bool)
        case call(Expr, [Argument])
        case forceUnwrap(Expr)
        case unary(UnaryOperator, Expr)
        case binary(BinaryOperator, Expr, Expr, operatorSpan: TextSpan)
        case ternary(Expr, Expr, Expr)
        case tryOptional(Expr)
        /// `x as? T`, `x as! T`, `x as T` and `x is T`.
        case cast(Expr, CastKind, TypeSyntax)
        case closure(ClosureSyntax)
        case keyPath([(name: String, span: TextSpan)])
        /// An operator used as a function: `+` in `reduce(0, +)`.
        case operatorFunction(BinaryOperator)
        /// `.stars`: a case of the enum a parameter expects (see ``HostEnumeration``).
        case implicitMember(String)
        /// A placeholder where the parser found an error.
        case invalid
    }

    enum StringPart {
        case text(String)
        case expression(Expr)
    }

    /// What it is, as written. (A qualified name written as a member access, `session.token`, is
    /// parsed as one; the checker's annotations say which name it stands for.)
    let kind: Kind
    let span: TextSpan
    /// How many expressions deep this tree is (1 for a leaf; a closure counts as a leaf, its body
    /// is nested in statements). The parser refuses trees deeper than
    /// ``ScriptLimits/maximumSyntaxNesting``, so the passes that walk them recursively stay shallow.
    let height: Int

    /// Whether this expression is part of an optional chain (`a?.b.c`: `.c` continues it): the
    /// one statement of the rule, which the checker and the compiler both read.
    var isInOptionalChain: Bool {
        switch kind {
        case .member(let base, _, _, let optional): optional || base.isInOptionalChain
        case .subscriptAccess(let base, _, let optional): optional || base.isInOptionalChain
        case .call(let callee, _):
            if case .member(let base, _, _, let optional) = callee.kind { optional || base.isInOptionalChain } else { false }
        default: false
        }
    }

    init(_ kind: Kind, _ span: TextSpan) {
        self.kind = kind
        self.span = span
        self.height = 1 + Self.childHeight(kind)
    }

    private static func childHeight(_ kind: Kind) -> Int {
        switch kind {
        case .integer, .double, .bool, .nilLiteral, .name, .dollar, .closure, .keyPath, .operatorFunction,
            .implicitMember, .invalid:
            0
        case .string(let parts):
            parts.reduce(0) { tallest, part in
                if case .expression(let expression) = part { max(tallest, expression.height) } else { tallest }
            }
        case .array(let elements):
            elements.reduce(0) { max($0, $1.height) }
        case .dictionary(let pairs):
            pairs.reduce(0) { max($0, $1.key.height, $1.value.height) }
        case .member(let base, _, _, _), .forceUnwrap(let base), .unary(_, let base), .tryOptional(let base),
            .cast(let base, _, _):
            base.height
        case .subscriptAccess(let base, let index, _):
            max(base.height, index.height)
        case .call(let callee, let arguments):
            arguments.reduce(callee.height) { max($0, $1.value.height) }
        case .binary(_, let left, let right, _):
            max(left.height, right.height)
        case .ternary(let condition, let whenTrue, let whenFalse):
            max(condition.height, whenTrue.height, whenFalse.height)
        }
    }
}

/// One argument of a call.
struct Argument {
    var label: String?
    var labelSpan: TextSpan?
    var value: Expr
}

/// A closure literal: `{ $0.id }` or `{ post in post.title }`.
final class ClosureSyntax {
    /// Named parameters (with their written types, if any), or `nil` when the body uses `$0`, `$1` ….
    let parameters: [(name: String, span: TextSpan)]?
    /// The written types of the parameters, where given: `{ (x: Int) in … }`.
    var parameterTypes: [TypeSyntax?] = []
    let body: [Stmt]
    let span: TextSpan

    init(parameters: [(name: String, span: TextSpan)]?, body: [Stmt], span: TextSpan) {
        self.parameters = parameters
        self.body = body
        self.span = span
    }
}

/// A statement in the syntax tree.
final class Stmt {
    enum Kind {
        case expression(Expr)
        case declaration(isLet: Bool, name: String, nameSpan: TextSpan, annotation: TypeSyntax?, value: Expr?)
        /// `operator` is `nil` for `=`, and `+` for `+=`.
        case assignment(target: Expr, operator: BinaryOperator?, value: Expr)
        /// `_ = e`: evaluated for its effect, its value dropped (nothing shown at the prompt).
        case discard(Expr)
        case ifStatement([(conditions: [Condition], body: [Stmt])], elseBody: [Stmt]?)
        case guardStatement([Condition], elseBody: [Stmt])
        /// `for x in xs { … }`, or with `awaits`, `for try await x in stream { … }`.
        case forIn(Pattern, sequence: Expr, body: [Stmt], awaits: Bool)
        case whileLoop([Condition], body: [Stmt])
        case breakStatement
        case continueStatement
        case returnStatement(Expr?)
        case function(FunctionSyntax)
        case invalid
    }

    let kind: Kind
    let span: TextSpan

    init(_ kind: Kind, _ span: TextSpan) {
        self.kind = kind
        self.span = span
    }
}

/// A condition of `if`, `guard` or `while`.
final class Condition {
    enum Kind {
        case boolean(Expr)
        /// `let x = e`, or `let x` alone (shorthand for `let x = x`).
        case optionalBinding(isLet: Bool, name: String, nameSpan: TextSpan, value: Expr?)
    }

    let kind: Kind
    let span: TextSpan

    init(_ kind: Kind, _ span: TextSpan) {
        self.kind = kind
        self.span = span
    }
}

/// The left side of `for … in`.
indirect enum Pattern {
    case name(String, TextSpan)
    case wildcard(TextSpan)
    case tuple([Pattern], TextSpan)

    var span: TextSpan {
        switch self {
        case .name(_, let span), .wildcard(let span), .tuple(_, let span): span
        }
    }
}

/// What a cast asks: `as?` (the value as the type, or nil), `as!` (the value as the type, or an
/// error), `as` (the type it already has, or `Any`) and `is` (whether it is of the type).
enum CastKind: String, Sendable {
    case optional = "as?", forced = "as!", plain = "as", test = "is"
}

/// A type as written: `Int`, `[Post]`, `[String: Int]`, `String?`.
indirect enum TypeSyntax: CustomStringConvertible {
    case name(String, TextSpan)
    case optional(TypeSyntax, TextSpan)
    case array(TypeSyntax, TextSpan)
    case dictionary(TypeSyntax, TypeSyntax, TextSpan)
    case function([TypeSyntax], TypeSyntax, TextSpan)

    var span: TextSpan {
        switch self {
        case .name(_, let span), .optional(_, let span), .array(_, let span), .dictionary(_, _, let span),
            .function(_, _, let span):
            span
        }
    }

    /// As written in Swift.
    var description: String {
        switch self {
        case .name(let name, _): name
        case .optional(let wrapped, _): (wrapped.isFunction ? "(\(wrapped))" : wrapped.description) + "?"
        case .array(let element, _): "[\(element)]"
        case .dictionary(let key, let value, _): "[\(key): \(value)]"
        case .function(let parameters, let result, _): "(" + parameters.map(\.description).joined(separator: ", ") + ") -> \(result)"
        }
    }

    private var isFunction: Bool { if case .function = self { true } else { false } }
}

/// `func name(label parameter: Type = default, …) -> Type { … }`.
final class FunctionSyntax {
    struct Parameter {
        var label: String?
        var name: String
        var span: TextSpan
        var type: TypeSyntax
        var defaultValue: Expr?
    }

    let name: String
    let nameSpan: TextSpan
    let parameters: [Parameter]
    let returnType: TypeSyntax?
    let body: [Stmt]

    init(name: String, nameSpan: TextSpan, parameters: [Parameter], returnType: TypeSyntax?, body: [Stmt]) {
        self.name = name
        self.nameSpan = nameSpan
        self.parameters = parameters
        self.returnType = returnType
        self.body = body
    }
}
