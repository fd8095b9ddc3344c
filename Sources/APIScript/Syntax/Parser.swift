/// Builds the syntax tree from tokens. It recovers from errors at statement boundaries, so one run
/// reports every syntax error of a script; running out of input is its own diagnostic kind
/// (``Diagnostic/Kind/unexpectedEnd``) so that a prompt can ask for another line.
struct Parser {
    private let source: ScriptSource
    private var tokens: [Token]
    private var index = 0
    private(set) var diagnostics: [Diagnostic]
    /// Whether `{` after an expression starts a trailing closure (not in `if`/`while`/`for` heads).
    private var allowTrailingClosure = true
    /// How many levels deep the parser is; see ``ScriptLimits/maximumSyntaxNesting``.
    private var depth = 0
    /// Set once "nested too deeply" is reported: the statement unwinds without more errors.
    private var abandoned = false

    /// Parses `span` of `source`, or all of it; `nesting` is how deeply the span is nested already.
    init(source: ScriptSource, span: TextSpan? = nil, nesting: Int = 0) {
        self.source = source
        self.depth = nesting
        var lexer = Lexer(source: source, span: span, nesting: nesting)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
    }

    /// Parses a whole script.
    static func parse(_ source: ScriptSource) -> (statements: [Stmt], diagnostics: [Diagnostic]) {
        var parser = Parser(source: source)
        let statements = parser.parseStatements(until: nil)
        return (statements, parser.diagnostics)
    }

    // MARK: Tokens

    private var current: Token { tokens[min(index, tokens.count - 1)] }
    private func peek(_ offset: Int) -> Token { tokens[min(index + offset, tokens.count - 1)] }
    private var atEnd: Bool { current.kind == .end }

    private mutating func advance() -> Token {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private var previousEnd: Int { index > 0 ? tokens[index - 1].span.end : 0 }

    private mutating func error(_ message: String, at span: TextSpan, notes: [Diagnostic.Note] = []) {
        // Once the input is too deep, the statement unwinds quietly: its other errors follow from it.
        if abandoned { return }
        let kind: Diagnostic.Kind = current.kind == .end ? .unexpectedEnd : .syntax
        // One error per place is enough.
        if let last = diagnostics.last, last.span.start == span.start { return }
        diagnostics.append(Diagnostic(kind: kind, message: message, source: source, span: span, notes: notes))
    }

    // MARK: Nesting

    /// Enters one level of nesting, or reports (once per statement) that the input is nested
    /// too deeply; the caller then returns a placeholder.
    private mutating func enter() -> Bool {
        guard depth < ScriptLimits.maximumSyntaxNesting, !abandoned else {
            tooDeep(at: current.span)
            return false
        }
        depth += 1
        return true
    }

    private mutating func tooDeep(at span: TextSpan) {
        guard !abandoned else { return }
        abandoned = true
        diagnostics.append(Diagnostic(
            kind: .syntax,
            message: "the input is nested too deeply (more than \(ScriptLimits.maximumSyntaxNesting) levels); split it into smaller expressions or statements",
            source: source, span: span))
    }

    /// `expression`, or a placeholder when it makes a chain (`a.b.c…`, `1 + 1 + …`) deeper than the limit.
    private mutating func limited(_ expression: Expr) -> Expr {
        guard abandoned || depth + expression.height > ScriptLimits.maximumSyntaxNesting else { return expression }
        tooDeep(at: index > 0 ? tokens[index - 1].span : expression.span)
        return Expr(.invalid, expression.span)
    }

    private mutating func expect(_ symbol: String, _ context: String) -> Bool {
        if current.isSymbol(symbol) {
            _ = advance()
            return true
        }
        error(atEnd ? "unexpected end of input; expected '\(symbol)' \(context)"
                    : "expected '\(symbol)' \(context), found \(describe(current))", at: current.span)
        return false
    }

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: "the end of the input"
        case .identifier(let name): "'\(name)'"
        case .keyword(let keyword): "'\(keyword.rawValue)'"
        case .dollar(let number): "'$\(number)'"
        case .integer, .double: "a number"
        case .string: "a string"
        case .symbol(let text): "'\(text)'"
        }
    }

    private mutating func identifier(_ context: String) -> (String, TextSpan)? {
        if case .identifier(let name) = current.kind {
            let span = advance().span
            return (name, span)
        }
        error(atEnd ? "unexpected end of input; expected \(context)" : "expected \(context), found \(describe(current))",
              at: current.span)
        return nil
    }

    // MARK: Statements

    /// Statements until `}` (when `closing` is set) or the end.
    mutating func parseStatements(until closing: String?) -> [Stmt] {
        var statements: [Stmt] = []
        while true {
            while current.isSymbol(";") { _ = advance() }
            if atEnd {
                if closing != nil { error("unexpected end of input; expected '}'", at: current.span) }
                return statements
            }
            if let closing, current.isSymbol(closing) { return statements }
            if current.isSymbol("}") {
                error("unexpected '}'", at: current.span)
                _ = advance()
                continue
            }
            let before = index
            let errorsBefore = diagnostics.count
            if closing == nil { abandoned = false }
            let statement = parseStatement()
            statements.append(statement)
            if diagnostics.count > errorsBefore {
                recover()
            } else if !atEnd, !current.isSymbol(";"), !current.isSymbol("}"), !current.newlineBefore {
                // Diagnostics come in source order: only the last can be on this line.
                let line = source.lineNumber(at: current.span.start)
                if diagnostics.last.map({ source.lineNumber(at: $0.span.start) != line }) ?? true {
                    error("consecutive statements on a line must be separated by ';'", at: .at(current.span.start))
                }
                recover()
            }
            if index == before { _ = advance() }
        }
    }

    /// Swift's statements and declarations the language does not have, with what to use instead.
    static let swiftOnlyStatements: [String: String] = [
        "struct": "the language has no 'struct': values are records the endpoints return, or dictionaries ([\"x\": 1])",
        "class": "the language has no 'class': values are records the endpoints return, dictionaries ([\"x\": 1]) or tuples",
        "enum": "the language has no 'enum': write a case as a string, or '.case' where a parameter takes the host's enum",
        "protocol": "the language has no 'protocol': functions take the types they use",
        "extension": "the language has no 'extension': write a 'func' that takes the value",
        "switch": "the language has no 'switch': use 'if … else if … else'",
        "import": "the language has no 'import': the host's endpoints and models are there already",
        "do": "the language has no 'do … catch': use 'try?' and check for nil",
        "repeat": "the language has no 'repeat … while': use 'while'",
        "defer": "the language has no 'defer'",
        "throw": "the language has no 'throw': use expect(condition, \"message\") to stop a script",
    ]

    /// Whether the identifier at hand starts one of those: followed on its line by a name or a
    /// brace, as Swift writes them (so a variable called `class` still reads as one).
    private func peekStartsSwiftOnlyStatement() -> Bool {
        let next = peek(1)
        guard !next.newlineBefore else { return false }
        switch next.kind {
        case .identifier: return true
        case .symbol(let symbol): return symbol == "{"
        case .integer, .double, .string, .keyword, .dollar: return true
        default: return false
        }
    }

    /// Skips to the start of the next statement.
    private mutating func recover() {
        var nesting = 0
        while !atEnd {
            let token = current
            if nesting == 0 {
                if token.isSymbol(";") { return }
                if token.isSymbol("}") { return }
                if token.newlineBefore, index > 0 { return }
            }
            if token.isSymbol("{") || token.isSymbol("(") || token.isSymbol("[") { nesting += 1 }
            if token.isSymbol(")") || token.isSymbol("]") || token.isSymbol("}") { nesting = max(0, nesting - 1) }
            _ = advance()
            if nesting == 0, !atEnd, current.newlineBefore { return }
        }
    }

    private mutating func parseBlock(_ context: String) -> [Stmt] {
        let opening = current.span
        guard expect("{", context) else { return [] }
        let errors = diagnostics.count
        let body = parseStatements(until: "}")
        if current.isSymbol("}") {
            _ = advance()
        } else if diagnostics.count > errors, let last = diagnostics.last, last.kind == .unexpectedEnd {
            diagnostics[diagnostics.count - 1].notes.append(.init("to match this '{'", span: opening))
        }
        return body
    }

    private mutating func parseStatement() -> Stmt {
        let start = current.span.start
        guard enter() else { return Stmt(.invalid, current.span) }
        defer { depth -= 1 }
        switch current.kind {
        case .keyword(.let), .keyword(.var):
            return parseDeclaration()
        case .keyword(.if):
            return parseIf()
        case .keyword(.guard):
            _ = advance()
            let conditions = parseConditions()
            guard current.isKeyword(.else) else {
                error("expected 'else' after the guard condition", at: current.span)
                return Stmt(.invalid, span(from: start))
            }
            _ = advance()
            let body = parseBlock("after 'guard … else'")
            return Stmt(.guardStatement(conditions, elseBody: body), span(from: start))
        case .keyword(.for):
            _ = advance()
            // `for try await x in stream`: reads a stream item by item (`for await` is taken too, as
            // every stream here can fail).
            var awaits = false
            if current.isKeyword(.try) {
                _ = advance()
                guard current.isIdentifier("await") else {
                    error("expected 'await' after 'for try': a stream is read with 'for try await x in …'", at: current.span)
                    return Stmt(.invalid, span(from: start))
                }
            }
            if current.isIdentifier("await") {
                _ = advance()
                awaits = true
            }
            let pattern = parsePattern()
            guard current.isKeyword(.in) else {
                error("expected 'in' after the for-loop variable", at: current.span)
                return Stmt(.invalid, span(from: start))
            }
            _ = advance()
            let sequence = withoutTrailingClosures { $0.parseExpression() }
            let body = parseBlock("to start the loop body")
            return Stmt(.forIn(pattern, sequence: sequence, body: body, awaits: awaits), span(from: start))
        case .keyword(.while):
            _ = advance()
            let conditions = parseConditions()
            let body = parseBlock("to start the loop body")
            return Stmt(.whileLoop(conditions, body: body), span(from: start))
        case .keyword(.break):
            _ = advance()
            return Stmt(.breakStatement, span(from: start))
        case .keyword(.continue):
            _ = advance()
            return Stmt(.continueStatement, span(from: start))
        case .keyword(.return):
            _ = advance()
            if atEnd || current.newlineBefore || current.isSymbol("}") || current.isSymbol(";") {
                return Stmt(.returnStatement(nil), span(from: start))
            }
            return Stmt(.returnStatement(parseExpression()), span(from: start))
        case .keyword(.func):
            return parseFunction()
        case .keyword(.else):
            error("'else' without an 'if'", at: current.span)
            _ = advance()
            return Stmt(.invalid, span(from: start))
        case .identifier(let word) where Self.swiftOnlyStatements[word] != nil && peekStartsSwiftOnlyStatement():
            // `struct Point {`, `switch x {`: Swift the language does not have, said plainly.
            error(Self.swiftOnlyStatements[word] ?? "", at: current.span)
            return Stmt(.invalid, span(from: start))
        default:
            let expression = parseExpression()
            if let symbol = current.kind.symbol, symbol == "=" || BinaryOperator(compoundAssignment: symbol) != nil {
                _ = advance()
                let value = parseExpression()
                if symbol == "=", case .name("_") = expression.kind { return Stmt(.discard(value), span(from: start)) }
                return Stmt(.assignment(target: expression, operator: BinaryOperator(compoundAssignment: symbol), value: value),
                            span(from: start))
            }
            return Stmt(.expression(expression), span(from: start))
        }
    }

    private func span(from start: Int) -> TextSpan { TextSpan(start: start, end: max(start, previousEnd)) }

    private mutating func parseDeclaration() -> Stmt {
        let start = current.span.start
        let isLet = advance().isKeyword(.let)
        guard let (name, nameSpan) = identifier("a name after '\(isLet ? "let" : "var")'") else {
            return Stmt(.invalid, span(from: start))
        }
        var annotation: TypeSyntax?
        if current.isSymbol(":") {
            _ = advance()
            annotation = parseType()
        }
        var value: Expr?
        if current.isSymbol("=") {
            _ = advance()
            value = parseExpression()
        } else if annotation == nil {
            error("'\(name)' needs a value or a type, as in '\(isLet ? "let" : "var") \(name) = …'", at: nameSpan)
        }
        return Stmt(.declaration(isLet: isLet, name: name, nameSpan: nameSpan, annotation: annotation, value: value),
                    span(from: start))
    }

    private mutating func parseIf() -> Stmt {
        let start = current.span.start
        var clauses: [(conditions: [Condition], body: [Stmt])] = []
        var elseBody: [Stmt]?
        _ = advance()
        clauses.append((parseConditions(), parseBlock("after the if condition")))
        while current.isKeyword(.else) {
            _ = advance()
            if current.isKeyword(.if) {
                _ = advance()
                clauses.append((parseConditions(), parseBlock("after the if condition")))
            } else {
                elseBody = parseBlock("after 'else'")
                break
            }
        }
        return Stmt(.ifStatement(clauses, elseBody: elseBody), span(from: start))
    }

    private mutating func parseConditions() -> [Condition] {
        var conditions: [Condition] = []
        repeat {
            if !conditions.isEmpty { _ = advance() }
            let start = current.span.start
            if current.isKeyword(.let) || current.isKeyword(.var) {
                let isLet = advance().isKeyword(.let)
                guard let (name, nameSpan) = identifier("a name in the optional binding") else { break }
                var value: Expr?
                if current.isSymbol("=") {
                    _ = advance()
                    value = withoutTrailingClosures { $0.parseExpression() }
                }
                conditions.append(Condition(.optionalBinding(isLet: isLet, name: name, nameSpan: nameSpan, value: value),
                                            span(from: start)))
            } else {
                let expression = withoutTrailingClosures { $0.parseExpression() }
                conditions.append(Condition(.boolean(expression), expression.span))
            }
        } while current.isSymbol(",")
        return conditions
    }

    private mutating func parsePattern() -> Pattern {
        let start = current.span.start
        if current.isSymbol("(") {
            _ = advance()
            var elements: [Pattern] = []
            while !current.isSymbol(")"), !atEnd {
                elements.append(parsePattern())
                if !current.isSymbol(",") { break }
                _ = advance()
            }
            _ = expect(")", "to close the tuple pattern")
            return .tuple(elements, span(from: start))
        }
        if case .identifier("_") = current.kind { return .wildcard(advance().span) }
        if case .keyword(.let) = current.kind { _ = advance() }
        if let (name, nameSpan) = identifier("a loop variable name") { return .name(name, nameSpan) }
        return .wildcard(span(from: start))
    }

    private mutating func parseFunction() -> Stmt {
        let start = advance().span.start
        guard let (name, nameSpan) = identifier("a function name") else { return Stmt(.invalid, span(from: start)) }
        guard expect("(", "to start the parameter list") else { return Stmt(.invalid, span(from: start)) }
        var parameters: [FunctionSyntax.Parameter] = []
        while !current.isSymbol(")"), !atEnd {
            let parameterStart = current.span.start
            guard let (first, _) = identifier("a parameter name") else { break }
            var label: String? = first
            var parameterName = first
            if case .identifier(let second) = current.kind {
                _ = advance()
                parameterName = second
            }
            if label == "_" { label = nil }
            guard expect(":", "after the parameter name") else { break }
            let type = parseType()
            var defaultValue: Expr?
            if current.isSymbol("=") {
                _ = advance()
                defaultValue = parseExpression()
            }
            parameters.append(.init(label: label, name: parameterName, span: span(from: parameterStart), type: type,
                                    defaultValue: defaultValue))
            if !current.isSymbol(",") { break }
            _ = advance()
        }
        _ = expect(")", "to close the parameter list")
        var returnType: TypeSyntax?
        if current.isSymbol("->") {
            _ = advance()
            returnType = parseType()
        }
        let body = parseBlock("to start the function body")
        return Stmt(.function(FunctionSyntax(name: name, nameSpan: nameSpan, parameters: parameters,
                                             returnType: returnType, body: body)), span(from: start))
    }

    private mutating func parseType() -> TypeSyntax {
        guard enter() else { return .name("Any", current.span) }
        defer { depth -= 1 }
        let start = current.span.start
        var type: TypeSyntax
        if current.isSymbol("[") {
            _ = advance()
            let element = parseType()
            if current.isSymbol(":") {
                _ = advance()
                let value = parseType()
                _ = expect("]", "to close the dictionary type")
                type = .dictionary(element, value, span(from: start))
            } else {
                _ = expect("]", "to close the array type")
                type = .array(element, span(from: start))
            }
        } else if current.isSymbol("(") {
            _ = advance()
            var parameters: [TypeSyntax] = []
            while !current.isSymbol(")"), !atEnd {
                parameters.append(parseType())
                if !current.isSymbol(",") { break }
                _ = advance()
            }
            _ = expect(")", "to close the parameter types")
            _ = expect("->", "in a function type")
            type = .function(parameters, parseType(), span(from: start))
        } else if let (name, nameSpan) = identifier("a type") {
            type = .name(name, nameSpan)
        } else {
            type = .name("Any", span(from: start))
        }
        var optionals = 0
        while current.isSymbol("?"), !current.spaceBefore {
            _ = advance()
            optionals += 1
            if depth + optionals > ScriptLimits.maximumSyntaxNesting {
                tooDeep(at: span(from: start))
                return .name("Any", span(from: start))
            }
            type = .optional(type, span(from: start))
        }
        return type
    }

    // MARK: Expressions

    private mutating func withoutTrailingClosures<T>(_ body: (inout Parser) -> T) -> T {
        let saved = allowTrailingClosure
        allowTrailingClosure = false
        defer { allowTrailingClosure = saved }
        return body(&self)
    }

    private mutating func withTrailingClosures<T>(_ body: (inout Parser) -> T) -> T {
        let saved = allowTrailingClosure
        allowTrailingClosure = true
        defer { allowTrailingClosure = saved }
        return body(&self)
    }

    mutating func parseExpression() -> Expr {
        guard enter() else { return Expr(.invalid, advance().span) }
        defer { depth -= 1 }
        return parseTernary()
    }

    private mutating func parseTernary() -> Expr {
        let condition = parseBinary(minimum: 1)
        guard current.isSymbol("?"), current.spaceBefore else { return condition }
        _ = advance()
        let whenTrue = parseExpression()
        guard expect(":", "in the conditional expression") else { return Expr(.invalid, condition.span) }
        let whenFalse = parseExpression()
        return Expr(.ternary(condition, whenTrue, whenFalse), condition.span.joined(whenFalse.span))
    }


    /// Whether the operator token continues the expression across a line break.
    private func continuesAcrossLine(_ token: Token) -> Bool {
        !token.newlineBefore || token.spaceAfter
    }

    private mutating func parseBinary(minimum: Int) -> Expr {
        var left = parseUnary()
        // A cast binds tighter than `??` and looser than ranges, as Swift's CastingPrecedence does.
        while minimum <= BinaryOperator.coalesce.precedence, let kind = castAhead() {
            left = parseCast(left, kind)
            if abandoned { return left }
        }
        while let symbol = current.kind.symbol, let op = BinaryOperator(rawValue: symbol), op.precedence >= minimum,
            continuesAcrossLine(current)
        {
            let level = op.precedence
            let operatorToken = advance()
            let rightOperand: Expr
            if op.isRightAssociative {
                // A right-associative chain (`a ?? b ?? …`) nests to the right: one level each.
                guard enter() else { return Expr(.invalid, operatorToken.span) }
                rightOperand = parseBinary(minimum: level)
                depth -= 1
            } else {
                rightOperand = parseBinary(minimum: level + 1)
            }
            left = limited(Expr(.binary(op, left, rightOperand, operatorSpan: operatorToken.span),
                                left.span.joined(rightOperand.span)))
            if abandoned { return left }
            while minimum <= BinaryOperator.coalesce.precedence, let kind = castAhead() {
                left = parseCast(left, kind)
                if abandoned { return left }
            }
            if op.isNonAssociative, let next = current.kind.symbol.flatMap(BinaryOperator.init(rawValue:)),
                next.precedence == level, continuesAcrossLine(current)
            {
                error("adjacent \(op.isRange ? "ranges" : "comparisons") need parentheses", at: current.span)
            }
        }
        return left
    }

    /// The cast that starts at the current token (`as?`, `as!`, `as`, `is`), if one does: on the
    /// operand's line, or on the next with `as?` or `as!` (which cannot start a statement).
    private func castAhead() -> CastKind? {
        let word: String
        switch current.kind {
        case .identifier("as"): word = "as"
        case .identifier("is"): word = "is"
        default: return nil
        }
        let next = peek(1)
        let marked = !next.spaceBefore && (next.isSymbol("?") || next.isSymbol("!"))
        guard !current.newlineBefore || (word == "as" && marked) else { return nil }
        if word == "is" { return .test }
        return marked ? (next.isSymbol("?") ? .optional : .forced) : .plain
    }

    private mutating func parseCast(_ operand: Expr, _ kind: CastKind) -> Expr {
        _ = advance()
        if kind == .optional || kind == .forced { _ = advance() }
        let type = parseType()
        return limited(Expr(.cast(operand, kind, type), operand.span.joined(type.span)))
    }

    private mutating func parseUnary() -> Expr {
        let start = current.span.start
        if current.isSymbol("-") || current.isSymbol("!") || current.isKeyword(.try) {
            // Prefix operators nest: `!!!x`, `- - 1`, `try? try? x`.
            guard enter() else { return Expr(.invalid, advance().span) }
            defer { depth -= 1 }
            return parsePrefixed(start)
        }
        return parsePostfix(parsePrimary())
    }

    private mutating func parsePrefixed(_ start: Int) -> Expr {
        if current.isSymbol("-") || current.isSymbol("!") {
            let op: UnaryOperator = advance().kind.symbol == "!" ? .not : .negate
            // A literal token of `.min` is the magnitude 9223372036854775808, which the lexer lets
            // through only after a prefix `-`: `-9223372036854775808` is Int.min, as in Swift.
            if op == .negate, current.kind == .integer(.min) {
                _ = advance()
                return Expr(.integer(.min), span(from: start))
            }
            let operand = parseUnary()
            if op == .negate, case .integer(let value) = operand.kind, value != .min {
                return Expr(.integer(-value), span(from: start))
            }
            if op == .negate, case .double(let value) = operand.kind {
                return Expr(.double(-value), span(from: start))
            }
            return Expr(.unary(op, operand), span(from: start))
        }
        if current.isKeyword(.try) {
            _ = advance()
            guard current.isSymbol("?"), !current.spaceBefore else {
                error("only 'try?' is supported: it turns a failure into nil", at: span(from: start))
                return parseUnary()
            }
            _ = advance()
            let operand = parseBinary(minimum: 1)
            return Expr(.tryOptional(operand), span(from: start))
        }
        return parsePostfix(parsePrimary())
    }

    private mutating func parsePostfix(_ base: Expr) -> Expr {
        var expression = base
        while true {
            expression = limited(expression)
            if abandoned { return expression }
            let token = current
            if token.isSymbol(".") || token.isSymbol("?.") {
                // A leading '.' on the next line continues the chain.
                _ = advance()
                if case .integer(let position) = current.kind {
                    let span = advance().span
                    expression = Expr(.member(expression, name: String(position), nameSpan: span,
                                              optional: token.isSymbol("?.")), expression.span.joined(span))
                    continue
                }
                guard let (name, nameSpan) = memberName() else { return expression }
                expression = Expr(.member(expression, name: name, nameSpan: nameSpan, optional: token.isSymbol("?.")),
                                  expression.span.joined(nameSpan))
            } else if token.isSymbol("("), !token.newlineBefore {
                _ = advance()
                var arguments = withTrailingClosures { $0.parseArguments(closing: ")") }
                let closeEnd = previousEnd
                arguments.append(contentsOf: trailingClosures())
                expression = Expr(.call(expression, arguments),
                                  TextSpan(start: expression.span.start, end: max(closeEnd, previousEnd)))
            } else if token.isSymbol("["), !token.newlineBefore, !token.spaceBefore {
                _ = advance()
                let index = withTrailingClosures { $0.parseExpression() }
                _ = expect("]", "to close the subscript")
                expression = Expr(.subscriptAccess(expression, index: index, optional: false), span(from: expression.span.start))
            } else if token.isSymbol("?"), !token.spaceBefore, peek(1).isSymbol("["), !peek(1).spaceBefore {
                _ = advance()
                _ = advance()
                let index = withTrailingClosures { $0.parseExpression() }
                _ = expect("]", "to close the subscript")
                expression = Expr(.subscriptAccess(expression, index: index, optional: true), span(from: expression.span.start))
            } else if token.isSymbol("!"), !token.spaceBefore {
                _ = advance()
                expression = Expr(.forceUnwrap(expression), span(from: expression.span.start))
            } else if token.isSymbol("{"), allowTrailingClosure, !token.newlineBefore {
                let closures = trailingClosures()
                expression = Expr(.call(expression, closures), span(from: expression.span.start))
            } else {
                return expression
            }
        }
    }

    private mutating func memberName() -> (String, TextSpan)? {
        switch current.kind {
        case .identifier(let name):
            return (name, advance().span)
        case .keyword(let keyword):
            return (keyword.rawValue, advance().span)
        default:
            error(atEnd ? "unexpected end of input; expected a member name after '.'"
                        : "expected a member name after '.', found \(describe(current))", at: current.span)
            return nil
        }
    }

    private mutating func trailingClosures() -> [Argument] {
        guard allowTrailingClosure, current.isSymbol("{"), !current.newlineBefore else { return [] }
        return [Argument(label: nil, labelSpan: nil, value: parseClosure())]
    }

    private mutating func parseArguments(closing: String) -> [Argument] {
        var arguments: [Argument] = []
        while !current.isSymbol(closing), !atEnd {
            var label: String?
            var labelSpan: TextSpan?
            if peek(1).isSymbol(":") {
                if case .identifier(let name) = current.kind {
                    label = name
                } else if case .keyword(let keyword) = current.kind {
                    label = keyword.rawValue
                }
                if label != nil {
                    labelSpan = advance().span
                    _ = advance()
                }
            }
            arguments.append(Argument(label: label, labelSpan: labelSpan, value: parseExpression()))
            if !current.isSymbol(",") { break }
            _ = advance()
        }
        _ = expect(closing, "to close the argument list")
        return arguments
    }

    private mutating func parsePrimary() -> Expr {
        let token = current
        switch token.kind {
        case .integer(let value):
            _ = advance()
            return Expr(.integer(value), token.span)
        case .double(let value):
            _ = advance()
            return Expr(.double(value), token.span)
        case .string(let segments):
            _ = advance()
            return Expr(.string(stringParts(segments)), token.span)
        case .keyword(.true), .keyword(.false):
            _ = advance()
            return Expr(.bool(token.isKeyword(.true)), token.span)
        case .keyword(.nil):
            _ = advance()
            return Expr(.nilLiteral, token.span)
        case .identifier(let name):
            _ = advance()
            return Expr(.name(name), token.span)
        case .dollar(let number):
            _ = advance()
            return Expr(.dollar(number), token.span)
        case .symbol("("):
            _ = advance()
            let inner = withTrailingClosures { $0.parseExpression() }
            if current.isSymbol(",") {
                error("tuples are not supported; use an array or a dictionary", at: current.span)
            }
            _ = expect(")", "to close the parenthesis")
            return Expr(inner.kind, span(from: token.span.start))
        case .symbol("["):
            return parseCollection()
        case .symbol("{"):
            return parseClosure()
        case .symbol("\\"):
            return parseKeyPath()
        case .symbol(".") where !peek(1).spaceBefore && peek(1).isMemberName:
            // `.stars`: a case of the enum a parameter expects.
            _ = advance()
            guard let (name, _) = memberName() else { return Expr(.invalid, token.span) }
            return Expr(.implicitMember(name), span(from: token.span.start))
        case .symbol(let symbol) where BinaryOperator(rawValue: symbol)?.isFunction == true
            && (peek(1).isSymbol(")") || peek(1).isSymbol(",")):
            // An operator used as a function: `reduce(0, +)`, `sorted(by: >)`.
            _ = advance()
            return Expr(.operatorFunction(BinaryOperator(rawValue: symbol) ?? .add), token.span)
        case .symbol("."):
            error("a member needs something before the '.'", at: token.span)
            _ = advance()
            return Expr(.invalid, token.span)
        case .end:
            error("unexpected end of input; expected an expression", at: token.span)
            return Expr(.invalid, token.span)
        case .symbol(")"), .symbol("]"), .symbol("}"):
            // Leave the closer for the construct it closes.
            error("expected an expression, found \(describe(token))", at: token.span)
            return Expr(.invalid, token.span)
        default:
            error("expected an expression, found \(describe(token))", at: token.span)
            _ = advance()
            return Expr(.invalid, token.span)
        }
    }

    private mutating func stringParts(_ segments: [StringSegment]) -> [Expr.StringPart] {
        segments.map { segment in
            switch segment {
            case .text(let text):
                return .text(text)
            case .interpolation(let span):
                var inner = Parser(source: source, span: span, nesting: depth)
                let expression = inner.parseExpression()
                if !inner.atEnd {
                    inner.error("expected ')' to end the interpolation, found \(inner.describe(inner.current))",
                                at: inner.current.span)
                }
                if case .invalid = expression.kind, inner.diagnostics.isEmpty {
                    inner.error("an interpolation needs an expression", at: span)
                }
                for var diagnostic in inner.diagnostics {
                    if diagnostic.kind == .unexpectedEnd { diagnostic.kind = .syntax }
                    // A string nested too deeply is reported by each lexer that reads it: once is enough.
                    if diagnostics.contains(where: { $0.span.start == diagnostic.span.start && $0.message == diagnostic.message }) {
                        continue
                    }
                    diagnostics.append(diagnostic)
                }
                if inner.abandoned { abandoned = true }
                return .expression(expression)
            }
        }
    }

    private mutating func parseCollection() -> Expr {
        let start = advance().span.start
        if current.isSymbol(":"), peek(1).isSymbol("]") {
            _ = advance()
            _ = advance()
            return Expr(.dictionary([]), span(from: start))
        }
        var elements: [Expr] = []
        var pairs: [(key: Expr, value: Expr)] = []
        var isDictionary = false
        while !current.isSymbol("]"), !atEnd {
            let first = withTrailingClosures { $0.parseExpression() }
            if current.isSymbol(":") {
                if !elements.isEmpty { error("expected ',' between array elements", at: current.span) }
                isDictionary = true
                _ = advance()
                pairs.append((first, withTrailingClosures { $0.parseExpression() }))
            } else {
                if isDictionary { error("expected ':' and a value in the dictionary literal", at: current.span) }
                elements.append(first)
            }
            if !current.isSymbol(",") { break }
            _ = advance()
        }
        _ = expect("]", isDictionary ? "to close the dictionary" : "to close the array")
        return Expr(isDictionary ? .dictionary(pairs) : .array(elements), span(from: start))
    }

    private mutating func parseClosure() -> Expr {
        let start = advance().span.start
        var parameters: [(name: String, span: TextSpan)]?
        // `{ a, b in …}` or `{ (a, b) in …}`: look ahead for `in`.
        var names: [(String, TextSpan)] = []
        var types: [TypeSyntax?] = []
        let saved = index
        let savedErrors = diagnostics.count
        let parenthesized = current.isSymbol("(")
        if parenthesized { _ = advance() }
        while case .identifier(let name) = current.kind {
            names.append((name, current.span))
            _ = advance()
            if parenthesized, current.isSymbol(":") {
                _ = advance()
                let errors = diagnostics.count
                types.append(parseType())
                if diagnostics.count > errors { break }
            } else {
                types.append(nil)
            }
            if current.isSymbol(",") { _ = advance() } else { break }
        }
        if parenthesized, current.isSymbol(")") { _ = advance() }
        if current.isKeyword(.in), !names.isEmpty || parenthesized {
            parameters = names.map { (name: $0.0, span: $0.1) }
            _ = advance()
        } else {
            index = saved
            types = []
            diagnostics.removeSubrange(savedErrors...)
        }
        let body = withTrailingClosures { $0.parseStatements(until: "}") }
        if current.isSymbol("}") { _ = advance() }
        let span = span(from: start)
        let closure = ClosureSyntax(parameters: parameters, body: body, span: span)
        closure.parameterTypes = types
        return Expr(.closure(closure), span)
    }

    private mutating func parseKeyPath() -> Expr {
        let start = advance().span.start
        if case .identifier(let name) = current.kind, name.first?.isUppercase == true, peek(1).isSymbol(".") {
            _ = advance()
        }
        var components: [(name: String, span: TextSpan)] = []
        while current.isSymbol("."), !(current.spaceBefore && !components.isEmpty) {
            _ = advance()
            guard let (name, nameSpan) = memberName() else { break }
            components.append((name, nameSpan))
        }
        if components.isEmpty {
            error("expected a key path such as \\.title", at: span(from: start))
            return Expr(.invalid, span(from: start))
        }
        return Expr(.keyPath(components), span(from: start))
    }
}

