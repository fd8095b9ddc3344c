/// What can be typed at a cursor.
public struct Completions: Sendable, Equatable {
    /// The text being completed (the part of a name before the cursor).
    public var prefix: String
    /// Candidates that start with `prefix`: names sorted, a value's members in declaration order;
    /// argument labels end in `:`.
    public var candidates: [String]
    /// Whether the candidates are members (after a `.`), which take no trailing space.
    public var areMembers: Bool
}

extension Interpreter {
    private static let placeholder = "__typist_completion__"
    private static let keywords = ["let", "var", "if", "else", "guard", "for", "in", "while", "break", "continue",
                                   "func", "return", "true", "false", "nil", "try"]

    /// The names and members valid at a cursor, from static types (and from values where data is
    /// dynamic), without running any host function.
    ///
    /// - Parameters:
    ///   - text: The input so far (previous lines of an unfinished block included).
    ///   - cursor: The cursor's offset in UTF-8 bytes.
    public func completions(for text: String, cursor: Int) -> Completions {
        StackGuard.withRoom { completionsHere(for: text, cursor: cursor) }
    }

    private func completionsHere(for text: String, cursor: Int) -> Completions {
        let bytes = Array(text.utf8.prefix(max(0, cursor)))
        var start = bytes.count
        while start > 0, bytes[start - 1].isIdentifierContinue || bytes[start - 1] == UInt8(ascii: "$") { start -= 1 }
        let prefix = String(decoding: bytes[start...], as: UTF8.self)
        let before = String(decoding: bytes[..<start], as: UTF8.self)
        if before.last == "." && !before.hasSuffix("..") {
            // `session.`, `Swift.`, `api.`: the names under the qualifier.
            let qualifier = String(before.dropLast().reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
            if QualifiedName.qualifiers.contains(qualifier), declaredNames(in: before).contains(qualifier) == false,
               before.dropLast(qualifier.count + 1).last.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) ?? true {
                let names = table.bindings.keys.filter { $0.hasPrefix(qualifier + ".") }.map { String($0.dropFirst(qualifier.count + 1)) }
                return Completions(prefix: prefix, candidates: names.filter { $0.hasPrefix(prefix) }.sorted(), areMembers: true)
            }
            // A model's fields and an enum's cases in the order they are declared, as Xcode shows
            // them (readline is told not to sort them again); other members sorted.
            var seen = Set<String>()
            let (names, declared) = memberNames(probe: before + Self.placeholder)
            let members = names.filter { seen.insert($0).inserted && $0.hasPrefix(prefix) }
            return Completions(prefix: prefix, candidates: declared ? members : members.sorted(), areMembers: true)
        }
        if let arguments = ArgumentPosition(before: before), let parameters = parameters(of: arguments.callee),
            let candidates = argumentCandidates(parameters, at: arguments, prefix: prefix)
        {
            return Completions(prefix: prefix, candidates: candidates, areMembers: false)
        }
        // Qualified spellings (`session.token`) are offered after their qualifier's dot, not here.
        var candidates = Set(table.bindings.keys.filter { !$0.contains(".") }).union(Self.keywords)
        candidates.formUnion(declaredNames(in: before))
        return Completions(prefix: prefix,
                           candidates: candidates.filter { $0.hasPrefix(prefix) && $0 != Self.placeholder }.sorted(),
                           areMembers: false)
    }

    /// At an argument's start (`getRecords(bucketId: "b", ` + Tab): the labels not given yet —
    /// required ones first, in the function's order — or, where an unlabeled parameter comes
    /// next, the values that fit it. At a value (`bucketId: ` + Tab): the names whose type fits the
    /// parameter (its variables and the functions that return one) and the literals that do
    /// (`true`, `nil`), no statement keywords. `nil` where nothing fits a typed prefix, so that the
    /// names in scope are offered as before.
    private func argumentCandidates(_ parameters: [(label: String?, type: ScriptType, required: Bool)],
                                    at position: ArgumentPosition, prefix: String) -> [String]? {
        let missing = parameters.filter { $0.label.map { !position.labels.contains($0) } ?? true }
        var labels: [String] = []
        let parameter: (label: String?, type: ScriptType, required: Bool)?
        if let label = position.valueOf {
            parameter = parameters.first { $0.label == label }
        } else {
            labels = (missing.filter(\.required) + missing.filter { !$0.required }).compactMap(\.label)
                .map { $0 + ":" }.filter { $0.hasPrefix(prefix) }
            parameter = missing.first.flatMap { $0.label == nil ? $0 : nil }
        }
        guard let parameter else { return labels.isEmpty && !prefix.isEmpty ? nil : labels }
        let wanted = parameter.type.unwrapped
        func fits(_ type: ScriptType) -> Bool {
            if wanted.isDynamic { return true }
            if case .function(_, let result) = type { return result.unwrapped == wanted }
            return type.unwrapped == wanted || (wanted == .secret && type == .string)
        }
        var values = table.bindings.filter { !$0.key.contains(".") && $0.key != Self.placeholder && fits($0.value.type) }.map(\.key)
        if wanted == .bool { values += ["true", "false"] }
        if parameter.type.isOptional { values.append("nil") }
        let offered = labels + values.filter { $0.hasPrefix(prefix) }.sorted()
        return offered.isEmpty && !prefix.isEmpty ? nil : offered
    }

    /// A callee's parameters: a host function's, or a script function's with their types.
    private func parameters(of callee: String) -> [(label: String?, type: ScriptType, required: Bool)]? {
        guard let binding = table.bindings[callee] else { return nil }
        switch binding.kind {
        case .hostFunction(let function):
            return function.parameters.map { ($0.label, $0.type, $0.defaultValue == nil && !$0.type.isOptional) }
        case .scriptFunction(let syntax):
            guard case .function(let types, _) = binding.type, types.count == syntax.parameters.count else { return nil }
            return zip(syntax.parameters, types).map { ($0.label, $1, $0.defaultValue == nil) }
        default:
            return nil
        }
    }

    /// Whether an argument is the `.` being completed, alone or as an element of an array literal.
    private static func holdsCasePlaceholder(_ argument: Expr) -> Bool {
        switch argument.kind {
        case .implicitMember(let name): name == placeholder
        case .array(let elements): elements.contains { if case .implicitMember(placeholder) = $0.kind { true } else { false } }
        default: false
        }
    }

    /// Member names of the expression before a `.`, from its static type, or from its value when
    /// the type is dynamic and the expression can be evaluated without calling the host.
    /// The members at a probe, and whether they are in declaration order (a record's fields, an
    /// enum's cases) rather than in no particular one.
    private func memberNames(probe: String) -> (names: [String], declared: Bool) {
        let text = probe + Self.closers(for: probe)
        let source = ScriptSource(name: "<completion>", text: text)
        let (statements, _) = Parser.parse(source)
        let slotsBefore = table.slotCount
        defer { table.slotCount = slotsBefore }
        var checker = Checker(source: source, globals: table, isPrompt: true)
        checker.check(statements)
        let annotations = checker.annotations
        var base: Expr?
        var cases: [String]?
        SyntaxWalker.forEach(in: statements) { expression in
            if case .member(let inner, let name, _, _) = annotations.kind(of: expression), name == Self.placeholder { base = inner }
            if case .call(_, let arguments) = annotations.kind(of: expression),
                let position = arguments.firstIndex(where: { Self.holdsCasePlaceholder($0.value) }),
                case .hostFunction(let host, let map)? = annotations.callee(of: expression),
                let parameter = map.firstIndex(of: position), let enumeration = host.parameters[parameter].enumeration
            {
                // `sort: .` (or `states: [.open, .`): the cases of the enum the parameter takes.
                cases = enumeration.cases.map(\.name)
            }
            if case .call(let callee, _) = annotations.kind(of: expression), case .member(let inner, let name, _, _) = annotations.kind(of: callee),
                name == Self.placeholder
            {
                base = inner
            }
        }
        if let cases { return (cases, true) }
        guard let base else { return ([], false) }
        let type = annotations.type(of: base).unwrapped
        // An open record's fields, then the other keys its value holds (`last.data.` offers the
        // `id` the service sent), when the value can be read.
        let isOpenRecord = if case .record(let record) = type { record.isOpen } else { false }
        if !type.isDynamic, !isOpenRecord {
            if case .record = type { return (BuiltinMembers.names(for: type), true) }
            return (BuiltinMembers.names(for: type), false)
        }
        // Dynamic data: look at the value, if reading it calls nothing on the host and the
        // expression is in the input's own scope, not in a closure or function body.
        var outside = false
        SyntaxWalker.forEach(in: statements, intoFunctions: false) { expression in
            if expression === base { outside = true }
        }
        // Only code that checked cleanly is compiled (a half-resolved name has no place to read),
        // and only when the input declares nothing of its own (it runs in an empty frame).
        guard outside, !checker.diagnostics.contains(where: { $0.severity == .error }),
            checker.main.slotCount == 0, checker.main.boxCount == 0, checker.newGlobals.isEmpty
        else { return (isOpenRecord ? BuiltinMembers.names(for: type) : [], isOpenRecord) }
        let names = valueMemberNames(of: base, source: source, scope: checker.main, annotations: annotations)
        return isOpenRecord ? (BuiltinMembers.names(for: type) + names, true) : (names, false)
    }

    private func valueMemberNames(of base: Expr, source: ScriptSource, scope main: FunctionScope,
                                  annotations: Annotations) -> [String] {
        var compiler = Compiler(source: source, context: context, scope: main, annotations: annotations)
        guard let code = compiler.expression(base).sync, compiler.diagnostics.isEmpty else { return [] }
        let frame = Frame(slotCount: 0, boxCount: 0, captures: [], context: context)
        // Reading the value runs no host function, but may loop: within a small budget of steps.
        context.limitSteps(Self.completionSteps)
        defer { context.limitSteps(nil) }
        guard let value = try? code(frame) else { return [] }
        switch value {
        case .dictionary(let entries): return Array(entries.keys) + ["count", "isEmpty", "keys", "values"]
        case .record(let record):
            // An open record's other keys, where one can be written as a member (`data.id`).
            let additional = record.additionalProperties.keys.filter(Self.isMemberName).sorted()
            return record.type.fields.map(\.name) + additional
        case .array: return BuiltinMembers.names(for: .array(.any))
        case .string: return BuiltinMembers.names(for: .string)
        default: return []
        }
    }

    /// Whether a key can be written after a `.`: an identifier that is not a keyword.
    static func isMemberName(_ key: String) -> Bool {
        guard let first = key.utf8.first, first.isIdentifierStart else { return false }
        return key.utf8.allSatisfy(\.isIdentifierContinue) && !keywords.contains(key)
    }

    /// Closing brackets for every one still open, so a partial input parses.
    static func closers(for text: String) -> String {
        var stack: [Character] = []
        var inString = false
        var previous: Character = " "
        for character in text {
            if inString {
                if character == "\"", previous != "\\" { inString = false }
            } else {
                switch character {
                case "\"": inString = true
                case "(": stack.append(")")
                case "[": stack.append("]")
                case "{": stack.append("}")
                case ")", "]", "}": if !stack.isEmpty { stack.removeLast() }
                default: break
                }
            }
            previous = character
        }
        return (inString ? "\"" : "") + String(stack.reversed())
    }

    /// Names declared by `let`, `var`, `func` and `for` earlier in an unfinished input.
    private func declaredNames(in text: String) -> [String] {
        var names: [String] = []
        let words = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        for (index, word) in words.enumerated() where ["let", "var", "func", "for"].contains(word) {
            if index + 1 < words.count { names.append(String(words[index + 1])) }
        }
        return names
    }
}

/// A call of a host function in a source text, for tools that rewrite scripts (`:swift`).
package struct HostCallSite: Sendable, Equatable {
    /// The function's name.
    public var name: String
    /// The whole call, such as `post(id: 1)`, as UTF-8 offsets.
    public var span: TextSpan
    /// The text between the parentheses, such as `id: 1`.
    public var argumentText: String
}

extension Interpreter {
    /// Where a text assigns one of `names` (`token = …`, `session.token = …`): each name with the
    /// UTF-8 offset of its assignment, in source order.
    package func assignments(of names: Set<String>, in text: String) -> [(name: String, offset: Int)] {
        let (statements, _) = Parser.parse(ScriptSource(name: "<assignments>", text: text))
        var found: [(name: String, offset: Int)] = []
        SyntaxWalker.forEachStatement(in: statements) { statement in
            guard case .assignment(let target, _, _) = statement.kind else { return }
            switch target.kind {
            case .name(let name) where names.contains(name):
                found.append((name, statement.span.start))
            case .member(let base, let name, _, _) where names.contains(name):
                if case .name("session") = base.kind { found.append((name, statement.span.start)) }
            default: break
            }
        }
        return found.sorted { $0.offset < $1.offset }
    }

    /// The spans of a text's `try?` expressions: a failure inside one is a value, not an error.
    package func optionalTrySpans(in text: String) -> [TextSpan] {
        let (statements, _) = Parser.parse(ScriptSource(name: "<try>", text: text))
        var spans: [TextSpan] = []
        SyntaxWalker.forEach(in: statements) { expression in
            if case .tryOptional = expression.kind { spans.append(expression.span) }
        }
        return spans
    }

    /// The calls of registered host functions in a text, in source order.
    package func hostCalls(in text: String) -> [HostCallSite] {
        let source = ScriptSource(name: "<calls>", text: text)
        let (statements, _) = Parser.parse(source)
        var sites: [HostCallSite] = []
        SyntaxWalker.forEach(in: statements) { expression in
            guard case .call(let callee, let arguments) = expression.kind, case .name(let name) = callee.kind,
                case .hostFunction? = table.bindings[name]?.kind
            else { return }
            let argumentText = arguments.isEmpty ? "" : source.text(of: TextSpan(
                start: arguments.first.map { $0.labelSpan?.start ?? $0.value.span.start } ?? 0,
                end: arguments.last?.value.span.end ?? 0))
            sites.append(HostCallSite(name: name, span: expression.span, argumentText: argumentText))
        }
        return sites.sorted { $0.span.start < $1.span.start }
    }
}
