/// Writes a checked script as Swift: statements as statements, each endpoint call as the host
/// writes it with `try await`, built-in methods as Swift's own (slices made arrays again, a
/// string's `first` a `String`), and literals as written.
///
/// Swift does not allow `await` in an autoclosure (`precondition`'s condition, the right side of
/// `??`, `&&`, `||`) or a string interpolation, so a call there is hoisted into a `let` before
/// its statement, named after the endpoint.
struct SwiftPrinter {
    let source: ScriptSource
    let host: SwiftHostWriting
    let isPrompt: Bool
    let statements: [Stmt]
    /// What the checker found about them.
    let annotations: Annotations

    private var lines: [String] = []
    private var depth = 0
    private var functions: [String] = []
    private var globals: [String] = []
    private var hasResult = false
    /// Names the script uses, which a hoisted constant must not take.
    private var reserved: Set<String>
    /// Hoisted expressions by identity, with the constant that holds their value.
    private var hoisted: [ObjectIdentifier: String] = [:]
    /// The host functions the current statement calls, for their notes.
    private var calledInStatement: [HostFunction] = []
    /// Declarations the Swift needs beside the statements (`concurrentMap`'s task group).
    private var helpers: [String] = []
    /// Names the text declares at its top level; other top-level variables are the session's.
    private let declaredHere: Set<String>
    /// The session's variables the text uses, with their types.
    private var sessionVariables: [(name: String, type: String)] = []

    init(source: ScriptSource, host: SwiftHostWriting, isPrompt: Bool, statements: [Stmt], annotations: Annotations) {
        self.source = source
        self.host = host
        self.isPrompt = isPrompt
        self.statements = statements
        self.annotations = annotations
        let annotations = annotations
        // Every name the script writes, but its endpoints' (a constant `post` and the factory
        // `.post` do not clash), and the names the Swift around it declares.
        var called = Set<String>()
        SyntaxWalker.forEach(in: statements) { expression in
            if case .call(let callee, _) = annotations.kind(of: expression), case .name(let name) = annotations.kind(of: callee),
                case .hostFunction? = annotations.callee(of: expression)
            {
                called.insert(name)
            }
        }
        var declared = Set<String>()
        SyntaxWalker.forEach(in: statements) { expression in
            if case .name(let name) = annotations.kind(of: expression), !called.contains(name) { declared.insert(name) }
        }
        declaredHere = Set(statements.compactMap { statement -> String? in
            switch statement.kind {
            case .declaration(_, let name, _, _, _): name
            case .function(let function): function.name
            default: nil
            }
        })
        reserved = Set(source.text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            .subtracting(called).union(declared)
            .union(["result", "client", "token", "username", "password", "apiKey", "response", "await", "try", "let",
                    "var", "in", "for", "if", "func", "return"])
    }

    mutating func program() throws -> SwiftProgram {
        for (index, statement) in statements.enumerated() {
            try self.statement(statement, isResult: isPrompt && index == statements.count - 1)
        }
        return SwiftProgram(lines: lines, functions: functions, globals: globals, hasResult: hasResult, helpers: helpers,
                            sessionVariables: sessionVariables.map { SwiftProgram.SessionVariable(name: $0.name, type: $0.type) })
    }

    // MARK: Statements

    private mutating func emit(_ line: String) {
        lines.append(String(repeating: "    ", count: depth) + line)
    }

    private mutating func block(_ body: [Stmt]) throws {
        depth += 1
        for statement in body { try self.statement(statement) }
        depth -= 1
    }

    private mutating func statement(_ statement: Stmt, isResult: Bool = false) throws {
        calledInStatement = []
        try hoistCalls(in: statement)
        switch statement.kind {
        case .expression(let expression):
            if case .call(_, let arguments) = annotations.kind(of: expression), case .builtin(.expect)? = annotations.callee(of: expression),
                let condition = arguments.first
            {
                var text = "precondition(" + (try self.expression(condition.value, leading: true))
                if arguments.count > 1 { text += ", " + (try self.expression(arguments[1].value, leading: true)) }
                emit(text + ")")
            } else if annotations.type(of: expression) == .void || annotations.type(of: expression) == .optional(.void) {
                emit((annotations.type(of: expression) == .void ? "" : "_ = ") + (try self.expression(expression, leading: true)))
            } else if isResult {
                let annotation = Self.shownType(annotations.type(of: expression)).map { ": " + $0 } ?? ""
                emit("let result\(annotation) = " + (try self.expression(expression, leading: true)))
                hasResult = true
            } else {
                emit("_ = " + (try self.expression(expression, leading: true)))
            }
        case .declaration(let isLet, let name, _, let annotation, let value):
            var text = (isLet ? "let " : "var ") + name
            if let annotation {
                text += ": " + typeName(annotation)
            } else if let value, needsAnnotation(value), let type = Self.swiftType(annotations.type(of: value)) {
                text += ": " + type
            }
            if let value { text += " = " + (try expression(value, leading: true)) }
            emit(text)
        case .discard(let value):
            emit("_ = " + (try expression(value, leading: true)))
        case .assignment(let target, let op, let value):
            let valueText = try expression(value, leading: true)
            if case .name(let name) = annotations.kind(of: target), case .hostGlobal? = annotations.binding(of: target)?.kind {
                guard op == nil, let text = host.assignment(name, valueText) else {
                    throw unsupported("the session's '\(name)' has no Swift counterpart", target.span)
                }
                use(global: name)
                emit(text)
            } else {
                emit((try expression(target)) + " " + (op.map(\.rawValue) ?? "") + "= " + valueText)
            }
        case .ifStatement(let branches, let elseBody):
            for (index, branch) in branches.enumerated() {
                let head = (index == 0 ? "if " : "} else if ") + (try conditions(branch.conditions)) + " {"
                emit(head)
                try block(branch.body)
            }
            if let elseBody {
                emit("} else {")
                try block(elseBody)
            }
            emit("}")
        case .guardStatement(let guards, let elseBody):
            emit("guard " + (try conditions(guards)) + " else {")
            try block(elseBody)
            emit("}")
        case .forIn(let pattern, let sequence, let body, let awaits):
            var sequenceText = try expression(sequence, leading: true)
            if case .dictionary = annotations.type(of: sequence).unwrapped {
                // The language walks a dictionary in key order; Swift's order is unspecified.
                sequenceText = postfixBase(sequence, sequenceText) + ".sorted { $0.key < $1.key }"
            }
            emit("for \(awaits ? "try await " : "")\(Self.pattern(pattern)) in \(Self.closureSafe(sequenceText)) {")
            try block(body)
            emit("}")
        case .whileLoop(let loopConditions, let body):
            emit("while " + (try conditions(loopConditions)) + " {")
            try block(body)
            emit("}")
        case .breakStatement:
            emit("break")
        case .continueStatement:
            emit("continue")
        case .returnStatement(let value):
            if depth == 0 { throw unsupported("a script's top-level 'return' has no Swift counterpart in top-level code", statement.span) }
            emit("return" + (try value.map { " " + (try expression($0, leading: true)) } ?? ""))
        case .function(let function):
            try self.function(function)
        case .invalid:
            throw unsupported("the statement has an error", statement.span)
        }
        for function in calledInStatement {
            if let note = host.note(function) { emit(note) }
        }
        calledInStatement = []
    }

    private mutating func function(_ function: FunctionSyntax) throws {
        let parameters = try function.parameters.map { parameter -> String in
            var text = switch parameter.label {
            case nil: "_ \(parameter.name)"
            case parameter.name?: parameter.name
            case let label?: "\(label) \(parameter.name)"
            }
            text += ": " + typeName(parameter.type)
            if let defaultValue = parameter.defaultValue { text += " = " + (try expression(defaultValue, leading: true)) }
            return text
        }
        let effects = Self.isAsync(annotations.scope(of: function)) ? " async throws" : ""
        let result = function.returnType.map { " -> " + typeName($0) } ?? ""
        emit("func \(function.name)(\(parameters.joined(separator: ", ")))\(effects)\(result) {")
        try block(function.body)
        emit("}")
    }

    private static func isAsync(_ scope: FunctionScope?) -> Bool {
        scope.map { !$0.isPure } ?? false
    }

    private mutating func conditions(_ conditions: [Condition]) throws -> String {
        try conditions.map { condition -> String in
            switch condition.kind {
            case .boolean(let expression):
                return Self.closureSafe(try self.expression(expression, leading: true))
            case .optionalBinding(let isLet, let name, _, let value):
                let keyword = isLet ? "let" : "var"
                guard let value else { return "\(keyword) \(name)" }
                return "\(keyword) \(name) = " + Self.closureSafe(try expression(value, leading: true))
            }
        }.joined(separator: ", ")
    }

    /// A condition or a loop's sequence with a closure in it, in parentheses: a trailing closure
    /// there would be read as the statement's body.
    private static func closureSafe(_ text: String) -> String {
        text.contains("{") ? "(\(text))" : text
    }

    private static func pattern(_ pattern: Pattern) -> String {
        switch pattern {
        case .name(let name, _): name
        case .wildcard: "_"
        case .tuple(let parts, _): "(" + parts.map(Self.pattern).joined(separator: ", ") + ")"
        }
    }

    private func needsAnnotation(_ value: Expr) -> Bool {
        switch annotations.kind(of: value) {
        case .array(let elements): elements.isEmpty
        case .dictionary(let pairs): pairs.isEmpty
        case .nilLiteral: true
        default: false
        }
    }

    // MARK: Hoisting

    /// Hoists the calls of one statement that Swift cannot `await` where they stand.
    private mutating func hoistCalls(in statement: Stmt) throws {
        switch statement.kind {
        case .expression(let expression):
            let isExpect = if case .builtin(.expect)? = annotations.callee(of: expression) { true } else { false }
            if isExpect, case .call(_, let arguments) = annotations.kind(of: expression) {
                for argument in arguments { try hoist(argument.value, autoclosure: true) }
            } else {
                try hoist(expression, autoclosure: false)
            }
        case .declaration(_, _, _, _, let value):
            if let value { try hoist(value, autoclosure: false) }
        case .assignment(let target, _, let value):
            try hoist(target, autoclosure: false)
            try hoist(value, autoclosure: false)
        case .discard(let value):
            try hoist(value, autoclosure: false)
        case .ifStatement(let branches, _):
            for branch in branches { try hoist(branch.conditions) }
        case .guardStatement(let guards, _):
            try hoist(guards)
        case .whileLoop(let loopConditions, _):
            try hoist(loopConditions)
        case .forIn(_, let sequence, _, _):
            try hoist(sequence, autoclosure: false)
        case .returnStatement(let value):
            if let value { try hoist(value, autoclosure: false) }
        case .breakStatement, .continueStatement, .function, .invalid:
            break
        }
    }

    private mutating func hoist(_ conditions: [Condition]) throws {
        for condition in conditions {
            switch condition.kind {
            case .boolean(let expression): try hoist(expression, autoclosure: false)
            case .optionalBinding(_, _, _, let value): if let value { try hoist(value, autoclosure: false) }
            }
        }
    }

    private mutating func hoist(_ expression: Expr, autoclosure: Bool) throws {
        switch annotations.kind(of: expression) {
        case .call(let callee, let arguments):
            if case .hostFunction(let function, _)? = annotations.callee(of: expression), autoclosure {
                try hoistValue(expression, named: function.name)
                return
            }
            // Reading a stream (`first(where:)`, `contains(where:)` …) is awaited too.
            if case .method(let method)? = annotations.callee(of: expression), method.isConsuming, autoclosure {
                let names = ["first": "found", "contains": "anyMatches", "allSatisfy": "allMatch", "reduce": "reduced"]
                try hoistValue(expression, named: names[method.name] ?? "value")
                return
            }
            if case .member(let base, _, _, _) = annotations.kind(of: callee) { try hoist(base, autoclosure: autoclosure) }
            for argument in arguments { try hoist(argument.value, autoclosure: autoclosure) }
        case .tryOptional(let operand):
            if autoclosure, let name = self.firstHostCall(in: operand) {
                try hoistValue(expression, named: name)
                return
            }
            try hoist(operand, autoclosure: autoclosure)
        case .binary(let op, let left, let right, _):
            try hoist(left, autoclosure: autoclosure)
            try hoist(right, autoclosure: autoclosure || op == .coalesce || op.isLogical)
        case .string(let parts):
            for case .expression(let inner) in parts { try hoist(inner, autoclosure: true) }
        case .member(let base, _, _, _), .forceUnwrap(let base), .unary(_, let base), .cast(let base, _, _):
            try hoist(base, autoclosure: autoclosure)
        case .subscriptAccess(let base, let index, _):
            try hoist(base, autoclosure: autoclosure)
            try hoist(index, autoclosure: autoclosure)
        case .array(let elements):
            for element in elements { try hoist(element, autoclosure: autoclosure) }
        case .dictionary(let pairs):
            for pair in pairs {
                try hoist(pair.key, autoclosure: autoclosure)
                try hoist(pair.value, autoclosure: autoclosure)
            }
        case .ternary(let condition, let whenTrue, let whenFalse):
            try hoist(condition, autoclosure: autoclosure)
            try hoist(whenTrue, autoclosure: autoclosure)
            try hoist(whenFalse, autoclosure: autoclosure)
        case .integer, .double, .bool, .nilLiteral, .name, .dollar, .closure, .keyPath, .operatorFunction,
            .implicitMember, .invalid:
            break
        }
    }

    private mutating func hoistValue(_ expression: Expr, named base: String) throws {
        var name = base
        var number = 2
        while reserved.contains(name) {
            name = base + String(number)
            number += 1
        }
        reserved.insert(name)
        emit("let \(name) = " + (try self.expression(expression, leading: true)))
        hoisted[ObjectIdentifier(expression)] = name
    }

    /// The name of the first host function called in an expression, outside closures.
    private func firstHostCall(in expression: Expr) -> String? {
        var found: String?
        SyntaxWalker.walk(expression, false) { inner in
            if found == nil, case .hostFunction(let function, _)? = annotations.callee(of: inner) { found = function.name }
        }
        return found
    }

    // MARK: Expressions

    /// An expression in Swift.
    ///
    /// - Parameters:
    ///   - leading: Whether it begins its statement or argument, so that a call at its start may be
    ///     written `try await …` without parentheses (`try` covers what follows).
    ///   - covered: Whether a `try?` around it already handles errors, so calls need only `await`.
    private mutating func expression(_ expression: Expr, leading: Bool = false, covered: Bool = false) throws -> String {
        if let name = hoisted[ObjectIdentifier(expression)] { return name }
        switch annotations.kind(of: expression) {
        case .integer, .double:
            return source.text(of: expression.span)
        case .bool(let flag):
            return flag ? "true" : "false"
        case .nilLiteral:
            return "nil"
        case .string(let parts):
            var text = "\""
            for part in parts {
                switch part {
                case .text(let literal): text += String(ValueFormatter.quoted(literal).dropFirst().dropLast())
                case .expression(let inner): text += "\\(" + (try self.expression(inner, leading: true, covered: covered)) + ")"
                }
            }
            return text + "\""
        case .name(let name):
            if case .hostGlobal? = annotations.binding(of: expression)?.kind {
                guard let text = host.global(name) else {
                    throw unsupported("the session's '\(name)' has no Swift counterpart", expression.span)
                }
                use(global: name)
                return text
            }
            if let binding = annotations.binding(of: expression), case .variable = binding.kind, binding.isGlobal, !declaredHere.contains(name),
                !sessionVariables.contains(where: { $0.name == name })
            {
                sessionVariables.append((name, Self.swiftType(binding.type) ?? "\(binding.type)"))
            }
            return name
        case .dollar(let number):
            return "$\(number)"
        case .array(let elements):
            return "[" + (try elements.map { try self.expression($0, leading: true, covered: covered) }).joined(separator: ", ") + "]"
        case .dictionary(let pairs):
            if pairs.isEmpty { return "[:]" }
            return "[" + (try pairs.map {
                (try self.expression($0.key, leading: true, covered: covered)) + ": "
                    + (try self.expression($0.value, leading: true, covered: covered))
            }).joined(separator: ", ") + "]"
        case .member(let base, let name, _, let optional):
            return try member(expression, base: base, name: name, optional: optional, leading: leading, covered: covered)
        case .subscriptAccess(let base, let index, let optional):
            return try subscriptText(base: base, index: index, optional: optional, leading: leading, covered: covered, expression.span)
        case .call(let callee, let arguments):
            return try call(expression, callee: callee, arguments: arguments, leading: leading, covered: covered)
        case .forceUnwrap(let base):
            return postfixBase(base, try self.expression(base, leading: leading, covered: covered), leading: leading) + "!"
        case .unary(let op, let operand):
            return op.rawValue + postfixBase(operand, try self.expression(operand, covered: covered))
        case .binary(let op, let left, let right, _):
            let leftText = try self.expression(left, leading: leading, covered: covered)
            let rightText = try self.expression(right, covered: covered)
            return (hoisted[ObjectIdentifier(left)] == nil ? self.operand(left, leftText, of: op, onRight: false) : leftText)
                + " \(op.rawValue) "
                + (hoisted[ObjectIdentifier(right)] == nil ? self.operand(right, rightText, of: op, onRight: true) : rightText)
        case .ternary(let condition, let whenTrue, let whenFalse):
            func part(_ inner: Expr, _ text: String) -> String {
                switch annotations.kind(of: inner) {
                case .ternary, .tryOptional, .cast: "(\(text))"
                default: text
                }
            }
            return part(condition, try self.expression(condition, leading: leading, covered: covered)) + " ? "
                + part(whenTrue, try self.expression(whenTrue, covered: covered)) + " : "
                + part(whenFalse, try self.expression(whenFalse, covered: covered))
        case .tryOptional(let operand):
            let text = "try? " + (try self.expression(operand, leading: true, covered: true))
            return leading ? text : "(\(text))"
        case .cast(let operand, let kind, let type):
            let text = try self.expression(operand, leading: leading, covered: covered)
            let grouped: Bool = switch annotations.kind(of: operand) {
            case .binary(let op, _, _, _): op.precedence <= BinaryOperator.coalesce.precedence
            case .ternary, .tryOptional: true
            default: false
            }
            return (grouped ? "(\(text))" : text) + " \(kind.rawValue) \(type)"
        case .closure(let closure):
            return try self.closure(closure, expression.span)
        case .keyPath(let components):
            return "\\." + components.map(\.name).joined(separator: ".")
        case .operatorFunction(let op):
            return op.rawValue
        case .implicitMember(let name):
            return "." + name
        case .invalid:
            throw unsupported("the expression has an error", expression.span)
        }
    }

    /// A binary operator's operand, in parentheses where Swift would group it otherwise.
    private func operand(_ operand: Expr, _ text: String, of op: BinaryOperator, onRight: Bool) -> String {
        switch annotations.kind(of: operand) {
        case .binary(let inner, _, _, _):
            let tighter = inner.precedence > op.precedence
                || (inner.precedence == op.precedence && !op.isNonAssociative && onRight == op.isRightAssociative)
            return tighter ? text : "(\(text))"
        case .ternary, .tryOptional, .cast:
            return "(\(text))"
        default:
            return text
        }
    }

    /// A postfix operation's base, in parentheses unless it is already a primary expression. A
    /// call written `try await client.send(…)` at the start of a statement stays bare: `try` and
    /// `await` cover the whole chain after them.
    private func postfixBase(_ base: Expr, _ text: String, leading: Bool = false) -> String {
        switch annotations.kind(of: base) {
        case .binary, .ternary, .unary, .tryOptional, .closure, .cast:
            return "(\(text))"
        default:
            if leading { return text }
            return text.hasPrefix("try ") || text.hasPrefix("await ") ? "(\(text))" : text
        }
    }

    private mutating func member(_ expression: Expr, base: Expr, name: String, optional: Bool, leading: Bool,
                                 covered: Bool) throws -> String {
        let baseText = try self.expression(base, leading: leading, covered: covered)
        let receiver = postfixBase(base, baseText, leading: leading) + (optional ? "?." : ".")
        switch annotations.callee(of: expression) {
        case .property(let property)?:
            return try self.property(property, of: annotations.type(of: base).unwrapped, receiver: receiver, baseText: postfixBase(base, baseText, leading: leading),
                                     optional: optional, expression.span)
        case .field?:
            return receiver + name
        default:
            if annotations.type(of: base).unwrapped.isDynamic {
                throw unsupported("'\(source.text(of: expression.span))' reads a dynamic JSON value, which Swift reads only through a model (:model writes one)", expression.span)
            }
            return receiver + name
        }
    }

    private func property(_ property: Property, of type: ScriptType, receiver: String, baseText: String,
                          optional: Bool, _ span: TextSpan) throws -> String {
        switch (property, type) {
        case (.first, .string), (.last, .string):
            return receiver + property.rawValue + ".map(String.init)"
        case (.first, .bytes), (.last, .bytes):
            return receiver + property.rawValue + ".map(Int.init)"
        case (.keys, _):
            return receiver + "keys.sorted()"
        case (.values, _):
            return receiver + "sorted { $0.key < $1.key }.map(\\.value)"
        case (.base64, _):
            return receiver + "base64EncodedString()"
        case (.hex, _):
            return receiver + "map { String(format: \"%02x\", $0) }.joined()"
        case (.utf8, _):
            if optional { throw unsupported("'utf8' after '?.' has no one-line Swift counterpart", span) }
            return "String(data: \(baseText), encoding: .utf8)"
        default:
            return receiver + property.rawValue
        }
    }

    private mutating func subscriptText(base: Expr, index: Expr, optional: Bool, leading: Bool, covered: Bool,
                                        _ span: TextSpan) throws -> String {
        let baseText = postfixBase(base, try expression(base, leading: leading, covered: covered), leading: leading)
        let indexText = try expression(index, leading: true, covered: covered)
        let access = baseText + (optional ? "?[" : "[") + indexText + "]"
        let isRange = annotations.type(of: index).unwrapped == .range
        switch annotations.type(of: base).unwrapped {
        case .array:
            return isRange ? "Array(\(access))" : access
        case .string:
            // Swift indexes strings by `String.Index`; the language by character position.
            return "String(Array(\(baseText))[\(indexText)])"
        case .bytes:
            return isRange ? access : "Int(\(access))"
        case .any, .unknown:
            throw unsupported("'\(source.text(of: span))' reads a dynamic JSON value, which Swift reads only through a model (:model writes one)", span)
        default:
            return access
        }
    }

    // MARK: Calls

    private mutating func call(_ expression: Expr, callee: Expr, arguments: [Argument], leading: Bool,
                               covered: Bool) throws -> String {
        switch annotations.callee(of: expression) {
        case .hostFunction(let function, let map)?:
            if let reason = host.unsupported(function) { throw unsupported(reason, expression.span) }
            var swiftArguments: [SwiftArgument?] = []
            for argumentIndex in map {
                guard let argumentIndex else {
                    swiftArguments.append(nil)
                    continue
                }
                let value = arguments[argumentIndex].value
                swiftArguments.append(SwiftArgument(text: try self.expression(value, leading: true, covered: covered),
                                                    literal: self.literal(value), isLiteral: isLiteral(value)))
            }
            guard let text = host.call(function, swiftArguments) else {
                throw unsupported("'\(function.name)' has no Swift counterpart in this host", expression.span)
            }
            if !functions.contains(function.name) { functions.append(function.name) }
            if !calledInStatement.contains(where: { $0.name == function.name }) { calledInStatement.append(function) }
            // A stream is made without waiting (`client.stream(…)`); it is awaited where it is read.
            if function.returnType.isStream { return text }
            if function.isSynchronous { return covered ? text : leading ? "try " + text : "(try \(text))" }
            return awaited(text, leading: leading, covered: covered)
        case .scriptFunction(let weak, _)?:
            var text = (try argumentList(arguments, covered: covered)).map { "\(source.text(of: callee.span))\($0)" }
                ?? source.text(of: callee.span)
            if Self.isAsync(weak.binding?.functionScope) {
                text = awaited(text, leading: leading, covered: covered)
            }
            return text
        case .builtin(let builtin)?:
            return try self.builtin(builtin, arguments, covered: covered, expression.span)
        case .method(let method)?:
            guard case .member(let base, let name, _, let optional) = annotations.kind(of: callee) else {
                throw unsupported("a method call without a receiver", expression.span)
            }
            return try methodCall(method, name: name, base: base, optional: optional, arguments: arguments,
                                  leading: leading, covered: covered)
        default:
            let calleeText = postfixBase(callee, try self.expression(callee, leading: leading, covered: covered))
            return calleeText + ((try argumentList(arguments, covered: covered)) ?? "()")
        }
    }

    private func awaited(_ text: String, leading: Bool, covered: Bool) -> String {
        let written = (covered ? "await " : "try await ") + text
        return leading ? written : "(\(written))"
    }

    private func literal(_ expression: Expr) -> Value? {
        switch annotations.kind(of: expression) {
        case .string(let parts):
            guard parts.allSatisfy({ if case .text = $0 { true } else { false } }) else { return nil }
            return .string(parts.map { if case .text(let text) = $0 { text } else { "" } }.joined())
        case .integer(let number): return .int(number)
        case .bool(let flag): return .bool(flag)
        case .array(let elements):
            // `["OPEN", "CLOSED"]`, which a host may write as an enum's cases.
            var values: [Value] = []
            for element in elements {
                guard let value = literal(element) else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }

    /// Whether an expression is written wholly in literals (``SwiftArgument/isLiteral``).
    private func isLiteral(_ expression: Expr) -> Bool {
        switch annotations.kind(of: expression) {
        case .integer, .double, .bool, .nilLiteral: true
        case .string(let parts): parts.allSatisfy { if case .text = $0 { true } else { false } }
        case .array(let elements): elements.allSatisfy(isLiteral)
        case .dictionary(let entries): entries.allSatisfy { isLiteral($0.key) && isLiteral($0.value) }
        default: false
        }
    }

    /// `(a, label: b) { trailing }`; a last unlabeled closure is written as a trailing closure.
    /// `nil` when there are no arguments at all.
    private mutating func argumentList(_ arguments: [Argument], covered: Bool, trailingLabel: String? = nil) throws -> String? {
        guard !arguments.isEmpty else { return nil }
        var inside = arguments
        var trailing: String?
        if let last = arguments.last, last.label == nil, case .closure = annotations.kind(of: last.value), trailingLabel == nil {
            inside.removeLast()
            trailing = try expression(last.value, covered: covered)
        }
        let written = try inside.enumerated().map { index, argument -> String in
            let label = argument.label ?? (index == arguments.count - 1 ? trailingLabel : nil)
            return (label.map { "\($0): " } ?? "") + (try expression(argument.value, leading: true, covered: covered))
        }
        if let trailing { return (written.isEmpty ? "" : "(" + written.joined(separator: ", ") + ")") + " " + trailing }
        return "(" + written.joined(separator: ", ") + ")"
    }

    private mutating func builtin(_ builtin: BuiltinFunction, _ arguments: [Argument], covered: Bool,
                                  _ span: TextSpan) throws -> String {
        let values = try arguments.map { try expression($0.value, leading: true, covered: covered) }
        switch builtin {
        case .print:
            return "print" + ((try argumentList(arguments, covered: covered)) ?? "()")
        case .expect:
            return "precondition(" + values.joined(separator: ", ") + ")"
        case .env:
            return "ProcessInfo.processInfo.environment[\(values.first ?? "\"\"")]"
        case .int:
            return "Int(\(values.joined(separator: ", ")))"
        case .double:
            return "Double(\(values.joined(separator: ", ")))"
        case .string:
            return "String(describing: \(values.joined(separator: ", ")))"
        case .typeOf:
            return "String(describing: type(of: \(values.joined(separator: ", "))))"
        case .abs, .min, .max:
            return "\(builtin.rawValue)(\(values.joined(separator: ", ")))"
        case .json:
            throw unsupported("json(_:) makes dynamic values, which Swift reads only through a model (:model writes one)", span)
        }
    }

    private mutating func methodCall(_ method: BuiltinMethod, name: String, base: Expr, optional: Bool,
                                     arguments: [Argument], leading: Bool, covered: Bool) throws -> String {
        let baseText = postfixBase(base, try expression(base, leading: leading, covered: covered), leading: leading)
        let receiver = annotations.type(of: base).unwrapped
        let dot = optional ? "?." : "."
        if name == "concurrentMap" {
            return try concurrentMap(base: base, baseText: baseText, arguments: arguments, leading: leading, covered: covered)
        }
        // Swift's `count` is also a property: the closure form keeps its label.
        let list = try argumentList(arguments, covered: covered, trailingLabel: name == "count" ? "where" : nil)
        let call = baseText + dot + name + (list ?? "()")
        if case .stream = receiver {
            // Swift's AsyncSequence has these methods as they are; the consuming ones are awaited.
            return method.isConsuming ? awaited(call, leading: leading, covered: covered) : call
        }
        // A dictionary's `keys` are written sorted already (the language keeps them in order).
        if name == "sorted", arguments.isEmpty, baseText.hasSuffix(".keys.sorted()") { return baseText }
        switch name {
        case "prefix", "suffix", "dropFirst", "dropLast":
            switch receiver {
            case .string: return "String(\(call))"
            case .bytes: return call
            default: return "Array(\(call))"
            }
        case "reversed":
            switch receiver {
            case .string: return "String(\(call))"
            case .bytes: return call + ".map(Int.init)"
            default: return "Array(\(call))"
            }
        case "enumerated":
            return "Array(\(call))"
        case "split":
            return call + ".map(String.init)"
        case "trimmingWhitespace":
            return baseText + dot + "trimmingCharacters(in: .whitespaces)"
        default:
            return call
        }
    }

    /// `concurrentMap` as a task group: a function declared once beside the statements, called
    /// with the elements as an array and the closure, whose endpoint calls it awaits.
    private mutating func concurrentMap(base: Expr, baseText: String, arguments: [Argument], leading: Bool,
                                        covered: Bool) throws -> String {
        guard let last = arguments.last, case .closure(let closure) = annotations.kind(of: last.value) else {
            throw unsupported("concurrentMap without a closure literal has no Swift counterpart here", base.span)
        }
        if !helpers.contains(Self.concurrentMapHelper) { helpers.append(Self.concurrentMapHelper) }
        let limit = arguments.count == 2 ? try expression(arguments[0].value, leading: true) : "8"
        let transform = try self.closure(closure, last.value.span, callingHost: true)
        let elements = baseText.hasPrefix("Array(") ? baseText : "Array(\(baseText))"
        let text = "concurrentMap(\(elements), limit: \(limit)) \(transform)"
        let written = (covered ? "await " : "try await ") + text
        return leading ? written : "(\(written))"
    }

    static let concurrentMapHelper = """
        /// `concurrentMap(limit:)`: at most `limit` calls in flight, results in the elements' order.
        func concurrentMap<Element: Sendable, Transformed: Sendable>(
            _ elements: [Element], limit: Int, _ transform: @escaping @Sendable (Element) async throws -> Transformed
        ) async throws -> [Transformed] {
            try await withThrowingTaskGroup(of: (Int, Transformed).self) { group in
                var results = [Transformed?](repeating: nil, count: elements.count)
                var next = 0
                func start() {
                    let index = next
                    next += 1
                    group.addTask { (index, try await transform(elements[index])) }
                }
                while next < min(max(limit, 1), elements.count) { start() }
                while let (index, value) = try await group.next() {
                    results[index] = value
                    if next < elements.count { start() }
                }
                return results.compactMap { $0 }
            }
        }
        """

    private mutating func closure(_ closure: ClosureSyntax, _ span: TextSpan, callingHost allowed: Bool = false) throws -> String {
        var callsHost = false
        SyntaxWalker.forEach(in: closure.body) { inner in
            if case .hostFunction? = annotations.callee(of: inner) { callsHost = true }
        }
        if callsHost, !allowed {
            throw unsupported("an endpoint called inside a closure: Swift's map, filter and forEach cannot wait for a call; write a for loop (or, in an app, a task group)", span)
        }
        let head = closure.parameters.map { " " + $0.map(\.name).joined(separator: ", ") + " in" } ?? ""
        if closure.body.count == 1, case .expression(let only) = closure.body[0].kind {
            return "{\(head) \(try expression(only, leading: true)) }"
        }
        let saved = lines
        lines = []
        depth += 1
        for statement in closure.body { try self.statement(statement) }
        depth -= 1
        let body = lines
        lines = saved
        return "{\(head)\n" + body.joined(separator: "\n") + "\n" + String(repeating: "    ", count: depth) + "}"
    }

    // MARK: Types

    private func typeName(_ syntax: TypeSyntax) -> String {
        switch syntax {
        case .name(let name, _):
            switch name {
            case "Secret": return "String"
            case "Bytes": return "Data"
            default: return name
            }
        case .optional(let wrapped, _):
            if case .function = wrapped { return "(\(typeName(wrapped)))?" }
            return typeName(wrapped) + "?"
        case .array(let element, _): return "[" + typeName(element) + "]"
        case .dictionary(let key, let value, _): return "[" + typeName(key) + ": " + typeName(value) + "]"
        case .function(let parameters, let result, _):
            return "(" + parameters.map(typeName).joined(separator: ", ") + ") -> " + typeName(result)
        }
    }

    /// The type a prompt's result is annotated with, where the script's type is surely the Swift
    /// one: models, numbers and Booleans (a `String` may be a `UUID` or a `Date` in Swift).
    static func shownType(_ type: ScriptType) -> String? {
        switch type {
        case .int, .double, .bool: type.description
        case .record(let record): record.isTuple ? nil : record.name
        case .optional(let wrapped): shownType(wrapped).map { $0 + "?" }
        case .array(let element): shownType(element).map { "[\($0)]" }
        default: nil
        }
    }

    /// A checked type as Swift writes it, when it has a plain name.
    static func swiftType(_ type: ScriptType) -> String? {
        switch type {
        case .int, .double, .bool, .string, .void, .any, .range: type.description
        case .secret: "String"
        case .bytes: "Data"
        case .optional(let wrapped): swiftType(wrapped).map { $0 + "?" }
        case .array(let element): swiftType(element).map { "[\($0)]" }
        case .dictionary(let value): swiftType(value).map { "[String: \($0)]" }
        case .record(let record): record.isTuple ? nil : record.name
        case .stream(let item): swiftType(item).map { "AsyncThrowingStream<\($0), any Error>" }
        case .function, .nilLiteral, .unknown: nil
        }
    }

    private mutating func use(global name: String) {
        if !globals.contains(name) { globals.append(name) }
    }

    private func unsupported(_ message: String, _ span: TextSpan) -> SwiftTranslationFailure {
        let position = source.position(at: span.start)
        return SwiftTranslationFailure(message: "\(position.line):\(position.column): \(message)", diagnostics: [])
    }
}
