/// Turns source bytes into tokens. Errors are collected, never thrown, and lexing always ends.
struct Lexer {
    private let source: ScriptSource
    private let bytes: [UInt8]
    private var index: Int
    private let limit: Int
    private(set) var diagnostics: [Diagnostic] = []
    /// How deep in string interpolations the lexer is (starting from the parser's nesting when it
    /// lexes an interpolation's contents again).
    private var nesting: Int
    /// Set when interpolations nest too deeply: the rest of that line is skipped without more errors.
    private var abandonedLine = false

    /// Lexes `span` of `source` (the whole source by default); `nesting` is how deeply the span
    /// is nested in the syntax already.
    init(source: ScriptSource, span: TextSpan? = nil, nesting: Int = 0) {
        self.source = source
        self.nesting = nesting
        self.bytes = source.bytes
        self.index = span?.start ?? 0
        self.limit = min(span?.end ?? source.bytes.count, source.bytes.count)
        if span == nil, bytes.starts(with: Array("#!".utf8)) {
            while index < limit, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        }
    }

    /// All tokens, ending with `.end`.
    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(limit / 3)
        while true {
            let token = next()
            if !tokens.isEmpty, token.spaceBefore { tokens[tokens.count - 1].spaceAfter = true }
            if token.span.start == intMinMagnitude, !Self.negates(tokens) {
                error("integer literal '\(UInt64(Int.max) + 1)' does not fit in Int (largest: \(Int.max))", token.span)
            }
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// Where the literal 9223372036854775808 stands: it is `Int.min`'s magnitude, which fits only
    /// right after a prefix `-` (Swift accepts `-9223372036854775808`).
    private var intMinMagnitude = -1

    /// Whether the last token is a `-` the parser takes as a prefix: nothing before it that ends
    /// a value (after one, `a -9223372036854775808` is a subtraction, and the literal too large).
    private static func negates(_ tokens: [Token]) -> Bool {
        guard let minus = tokens.last, minus.isSymbol("-"), !minus.spaceAfter else { return false }
        guard tokens.count >= 2 else { return true }
        switch tokens[tokens.count - 2].kind {
        case .integer, .double, .string, .identifier, .dollar: return false
        case .symbol(let symbol) where [")", "]", "}", "?", "!"].contains(symbol): return false
        default: return true
        }
    }

    private var current: UInt8? { index < limit ? bytes[index] : nil }

    private func peek(_ offset: Int = 1) -> UInt8? {
        index + offset < limit ? bytes[index + offset] : nil
    }

    private mutating func error(_ message: String, _ span: TextSpan, kind: Diagnostic.Kind = .syntax) {
        if abandonedLine { return }
        diagnostics.append(Diagnostic(kind: kind, message: message, source: source, span: span))
    }

    private mutating func next() -> Token {
        var newline = false
        var space = false
        skipping: while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                space = true
                index += 1
            case UInt8(ascii: "\n"):
                newline = true
                space = true
                abandonedLine = false
                index += 1
            case UInt8(ascii: "/") where peek() == UInt8(ascii: "/"):
                space = true
                while let next = current, next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where peek() == UInt8(ascii: "*"):
                space = true
                skipBlockComment()
            default:
                break skipping
            }
        }
        let start = index
        guard let byte = current else {
            return Token(kind: .end, span: .at(limit), newlineBefore: newline, spaceBefore: space)
        }
        let kind: TokenKind
        if byte.isIdentifierStart {
            kind = identifier()
        } else if byte.isDigit {
            kind = number()
        } else if byte == UInt8(ascii: "\"") {
            kind = string()
        } else if byte == UInt8(ascii: "$"), let next = peek(), next.isDigit {
            index += 1
            var value = 0
            while let digit = current, digit.isDigit {
                value = min(value * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            kind = .dollar(value)
        } else if let (symbol, stand) = swiftOnlyOperator(at: start) {
            // One error that names it; the parse goes on as if an operator it has stood there,
            // so no second error follows from the first.
            error(Self.swiftOnlyOperators[symbol] ?? "", TextSpan(start: start, end: index))
            kind = .symbol(stand)
        } else if let symbol = symbol() {
            kind = .symbol(symbol)
        } else {
            let scalarEnd = Self.scalarEnd(bytes, from: index, limit: limit)
            let text = String(decoding: bytes[index..<scalarEnd], as: UTF8.self)
            index = scalarEnd
            error("unexpected character '\(text)'", TextSpan(start: start, end: index))
            return next()
        }
        return Token(kind: kind, span: TextSpan(start: start, end: index), newlineBefore: newline, spaceBefore: space)
    }

    private mutating func skipBlockComment() {
        let start = index
        var depth = 0
        while index < limit {
            if current == UInt8(ascii: "/"), peek() == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if current == UInt8(ascii: "*"), peek() == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
        error("unterminated block comment", TextSpan(start: start, end: start + 2), kind: .unexpectedEnd)
    }

    private mutating func identifier() -> TokenKind {
        let start = index
        while let byte = current, byte.isIdentifierContinue { index += 1 }
        var text = String(decoding: bytes[start..<index], as: UTF8.self)
        if bytes[start..<index].contains(where: { $0 >= 0x80 }),
           let hidden = text.unicodeScalars.first(where: { $0.properties.generalCategory == .format || $0.properties.isWhitespace }) {
            // Swift refuses these in names too: a name that looks like another must not pass for it.
            let hex = String(hidden.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .format && !$0.properties.isWhitespace }))
            error("the name '\(visible)' holds an invisible character, \(code)\(hidden.properties.name.map { " (\($0))" } ?? ""): delete it",
                  TextSpan(start: start, end: index))
            text = visible
        }
        if let keyword = Keyword(rawValue: text) { return .keyword(keyword) }
        return .identifier(text)
    }

    private mutating func number() -> TokenKind {
        let start = index
        if current == UInt8(ascii: "0"), let marker = peek(),
            marker == UInt8(ascii: "x") || marker == UInt8(ascii: "b") || marker == UInt8(ascii: "o")
        {
            let radix = marker == UInt8(ascii: "x") ? 16 : marker == UInt8(ascii: "b") ? 2 : 8
            index += 2
            let digitsStart = index
            while let byte = current, byte.isHexDigit || byte == UInt8(ascii: "_") || byte.isIdentifierContinue {
                index += 1
            }
            let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self).replacing("_", with: "")
            guard let value = Int(digits, radix: radix) else {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                let valid = !digits.isEmpty && digits.allSatisfy { Int(String($0), radix: radix) != nil }
                error(valid ? "integer literal '\(text)' does not fit in Int" : "'\(text)' is not a valid number",
                      TextSpan(start: start, end: index))
                return .integer(0)
            }
            return .integer(value)
        }
        var isDouble = false
        while let byte = current, byte.isDigit || byte == UInt8(ascii: "_") { index += 1 }
        if current == UInt8(ascii: "."), let next = peek(), next.isDigit {
            isDouble = true
            index += 1
            while let byte = current, byte.isDigit || byte == UInt8(ascii: "_") { index += 1 }
        }
        if let e = current, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var lookahead = 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { lookahead = 2 }
            if let digit = peek(lookahead), digit.isDigit {
                isDouble = true
                index += lookahead
                while let byte = current, byte.isDigit { index += 1 }
            }
        }
        let endOfNumber = index
        if let byte = current, byte.isIdentifierStart {
            while let byte = current, byte.isIdentifierContinue { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            error("'\(text)' is not a valid number", TextSpan(start: start, end: index))
            return .integer(0)
        }
        let text = String(decoding: bytes[start..<endOfNumber], as: UTF8.self).replacing("_", with: "")
        if isDouble {
            return .double(Double(text) ?? 0)
        }
        guard let value = Int(text) else {
            if text == String(UInt64(Int.max) + 1) {
                intMinMagnitude = start
                return .integer(.min)
            }
            error("integer literal '\(text)' does not fit in Int (largest: \(Int.max))", TextSpan(start: start, end: index))
            return .integer(0)
        }
        return .integer(value)
    }

    // MARK: Strings

    private mutating func string() -> TokenKind {
        if peek() == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
            return multilineString()
        }
        let start = index
        index += 1
        var segments: [StringSegment] = []
        var text: [UInt8] = []
        while true {
            guard let byte = current else {
                error("unterminated string literal", TextSpan(start: start, end: start + 1), kind: .unexpectedEnd)
                break
            }
            if byte == UInt8(ascii: "\n") {
                error("unterminated string literal; use \"\"\" for text over several lines",
                      TextSpan(start: start, end: index))
                break
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                if peek() == UInt8(ascii: "(") {
                    if !text.isEmpty { segments.append(.text(String(decoding: text, as: UTF8.self))) }
                    text = []
                    guard let span = interpolation() else { break }
                    segments.append(.interpolation(span))
                    continue
                }
                escape(into: &text)
                continue
            }
            text.append(byte)
            index += 1
        }
        if !text.isEmpty || segments.isEmpty { segments.append(.text(String(decoding: text, as: UTF8.self))) }
        return .string(segments)
    }

    /// Reads `\(…)` and returns the span inside the parentheses.
    private mutating func interpolation() -> TextSpan? {
        let open = index
        index += 2
        guard nesting < ScriptLimits.maximumSyntaxNesting else {
            error("string interpolations are nested too deeply (more than \(ScriptLimits.maximumSyntaxNesting) levels)",
                  TextSpan(start: open, end: open + 2))
            abandonedLine = true
            while let byte = current, byte != UInt8(ascii: "\n") { index += 1 }
            return nil
        }
        nesting += 1
        defer { nesting -= 1 }
        let inner = index
        var depth = 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 {
                    let span = TextSpan(start: inner, end: index)
                    index += 1
                    return span
                }
            case UInt8(ascii: "\""):
                // A string inside the interpolation: skip it whole.
                _ = string()
                continue
            case UInt8(ascii: "\n"):
                error("unterminated interpolation", TextSpan(start: open, end: open + 2))
                return nil
            default: break
            }
            index += 1
        }
        error("unterminated interpolation", TextSpan(start: open, end: open + 2), kind: .unexpectedEnd)
        return nil
    }

    private mutating func escape(into text: inout [UInt8]) {
        let start = index
        index += 1
        guard let byte = current else { return }
        index += 1
        switch byte {
        case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "0"): text.append(0)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): text.append(byte)
        case UInt8(ascii: "u") where current == UInt8(ascii: "{"):
            index += 1
            let digitsStart = index
            while let digit = current, digit.isHexDigit { index += 1 }
            let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
            if current == UInt8(ascii: "}") { index += 1 }
            if let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                text.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                error("'\\u{\(digits)}' is not a Unicode scalar", TextSpan(start: start, end: index))
            }
        default:
            let scalarEnd = Self.scalarEnd(bytes, from: index - 1, limit: limit)
            let shown = String(decoding: bytes[(index - 1)..<scalarEnd], as: UTF8.self)
            index = scalarEnd
            error("invalid escape sequence '\\\(shown)'", TextSpan(start: start, end: index))
        }
    }

    private mutating func multilineString() -> TokenKind {
        let start = index
        index += 3
        // The opening delimiter must end its line.
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
        if current == UInt8(ascii: "\r") { index += 1 }
        if current == nil {
            // `"""` ends the input so far: a prompt reads the string's lines next.
            error("unterminated multi-line string", TextSpan(start: start, end: start + 3), kind: .unexpectedEnd)
            return .string([.text("")])
        }
        guard current == UInt8(ascii: "\n") else {
            error("a multi-line string starts on the line after \"\"\"", TextSpan(start: start, end: start + 3))
            return .string([.text("")])
        }
        index += 1
        var pieces: [(segment: StringSegment, startOfLine: Bool)] = []
        var text: [UInt8] = []
        var atLineStart = true
        var textStartsLine = true
        func flush() {
            if !text.isEmpty {
                pieces.append((.text(String(decoding: text, as: UTF8.self)), textStartsLine))
                text = []
            }
        }
        var closingIndent = ""
        while true {
            guard let byte = current else {
                error("unterminated multi-line string", TextSpan(start: start, end: start + 3), kind: .unexpectedEnd)
                break
            }
            if atLineStart {
                // Is this the closing line?
                var probe = index
                while probe < limit, bytes[probe] == UInt8(ascii: " ") || bytes[probe] == UInt8(ascii: "\t") { probe += 1 }
                if probe + 2 < limit, bytes[probe] == UInt8(ascii: "\""), bytes[probe + 1] == UInt8(ascii: "\""),
                    bytes[probe + 2] == UInt8(ascii: "\"")
                {
                    closingIndent = String(decoding: bytes[index..<probe], as: UTF8.self)
                    index = probe + 3
                    break
                }
                flush()
                textStartsLine = true
                atLineStart = false
                continue
            }
            if byte == UInt8(ascii: "\\") {
                if peek() == UInt8(ascii: "(") {
                    flush()
                    guard let span = interpolation() else { continue }
                    pieces.append((.interpolation(span), false))
                    textStartsLine = false
                    continue
                }
                escape(into: &text)
                continue
            }
            text.append(byte)
            index += 1
            if byte == UInt8(ascii: "\n") {
                flush()
                atLineStart = true
            }
        }
        flush()
        // Remove the closing delimiter's indentation from every line, and the last line break.
        var segments: [StringSegment] = []
        for (offset, piece) in pieces.enumerated() {
            guard case .text(var value) = piece.segment else {
                segments.append(piece.segment)
                continue
            }
            if piece.startOfLine, !closingIndent.isEmpty {
                if value.hasPrefix(closingIndent) {
                    value.removeFirst(closingIndent.count)
                } else if !value.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) {
                    error("a line of a multi-line string is indented less than its closing \"\"\"",
                          TextSpan(start: start, end: start + 3))
                }
            }
            if offset == pieces.count - 1, value.hasSuffix("\n") { value.removeLast() }
            segments.append(.text(value))
        }
        if segments.isEmpty { segments.append(.text("")) }
        return .string(segments)
    }

    // MARK: Symbols

    /// Swift's operators the language does not have, with what to say.
    static let swiftOnlyOperators: [String: String] = [
        "<<=": "the language has no '<<=' operator (Swift's bit shift); multiply by a power of two instead",
        ">>=": "the language has no '>>=' operator (Swift's bit shift); divide by a power of two instead",
        "<<": "the language has no '<<' operator (Swift's bit shift); multiply by a power of two instead",
        ">>": "the language has no '>>' operator (Swift's bit shift); divide by a power of two instead",
        "===": "the language has no '===' operator (Swift's identity of class instances); compare with '=='",
        "!==": "the language has no '!==' operator (Swift's identity of class instances); compare with '!='",
        "&+": "the language has no '&+' operator (Swift's wrapping addition); '+' stops on overflow",
        "&-": "the language has no '&-' operator (Swift's wrapping subtraction); '-' stops on overflow",
        "&*": "the language has no '&*' operator (Swift's wrapping multiplication); '*' stops on overflow",
        "&": "the language has no '&' operator (Swift's bitwise AND); for Bool use '&&'",
        "|": "the language has no '|' operator (Swift's bitwise OR); for Bool use '||'",
        "^": "the language has no '^' operator (Swift's bitwise XOR); for Bool use '!='",
        "~": "the language has no '~' operator (Swift's bitwise NOT); for Bool use '!'",
    ]

    /// A Swift-only operator at `start` (not the start of `&&` or `||`), consumed, with the
    /// operator the parse goes on with.
    private mutating func swiftOnlyOperator(at start: Int) -> (String, String)? {
        guard let byte = current, "<>=!&|^~".utf8.contains(byte) else { return nil }
        for length in [3, 2, 1] where start + length <= limit {
            let text = String(decoding: bytes[start..<start + length], as: UTF8.self)
            guard Self.swiftOnlyOperators[text] != nil else { continue }
            if text == "&" || text == "|", start + 1 < limit, bytes[start + 1] == byte { return nil }
            index = start + length
            let stand = text.hasPrefix("=") || text.hasPrefix("!") ? "==" : (text.hasSuffix("=") ? "*=" : "*")
            return (text, stand)
        }
        return nil
    }

    /// The symbols with their bytes, longest first, so that `..<` wins over `.`: the operators
    /// (``BinaryOperator``, ``UnaryOperator``, compound assignments) and the punctuation.
    private static let symbols: [(text: String, bytes: [UInt8])] = {
        let operators = BinaryOperator.allCases.map(\.rawValue) + ["!"]
            + BinaryOperator.allCases.filter(\.isArithmetic).map { $0.rawValue + "=" }
        let punctuation = ["->", "?.", "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "?", "=", "\\"]
        return (operators + punctuation).sorted { $0.utf8.count > $1.utf8.count }.map { ($0, Array($0.utf8)) }
    }()

    private mutating func symbol() -> String? {
        for symbol in Self.symbols where index + symbol.bytes.count <= limit && bytes[index] == symbol.bytes[0] {
            var matches = true
            for offset in 1..<symbol.bytes.count where bytes[index + offset] != symbol.bytes[offset] {
                matches = false
                break
            }
            if matches {
                index += symbol.bytes.count
                return symbol.text
            }
        }
        return nil
    }

    /// The end of the Unicode scalar that starts at `index`.
    static func scalarEnd(_ bytes: [UInt8], from index: Int, limit: Int) -> Int {
        var end = index + 1
        while end < limit, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return min(end, limit)
    }
}

extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
    var isIdentifierStart: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || self == UInt8(ascii: "_") || self >= 0xC0
    }
    var isIdentifierContinue: Bool { isIdentifierStart || isDigit || (self >= 0x80 && self < 0xC0) }
}
