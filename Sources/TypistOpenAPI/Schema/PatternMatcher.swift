/// A document's `pattern` (an ECMA-262 regular expression), matched in time linear in the text.
///
/// A backtracking engine (Swift's `Regex`, like most) takes exponential time on patterns such as
/// `^(a+)+$` against `aaaa…b`: a document could make `typist check` spin for minutes on a
/// 23-character argument. This matcher compiles the pattern to a program and runs every
/// alternative at once (Pike's construction), so a match costs at most the text's length times the
/// program's.
///
/// It reads what JSON Schema patterns use: literals and escapes (`\t`, `\x41`, `\u0041`, `\u{1F600}`,
/// escaped punctuation), `.`, classes with ranges and negation, `\d \w \s` and their negations,
/// `^`, `$`, `\b`, `\B`, groups (capturing, `(?:…)`, `(?<name>…)`), `|`, and the quantifiers
/// `* + ? {n} {n,} {n,m}` (lazy or not: a match exists or it does not). Backreferences and
/// lookaround are outside; ``init(_:)`` returns nil for them and for a program over
/// ``maximumProgram`` instructions (`(a{1000}){1000}`).
package struct PatternMatcher: Sendable {
    /// A set of scalars: ranges, the complements of ranges (`\D` inside a class), negated as a whole.
    struct Scalars: Sendable {
        var ranges: [ClosedRange<UInt32>] = []
        var complements: [[ClosedRange<UInt32>]] = []
        var negated = false

        func contains(_ scalar: UInt32) -> Bool {
            let inside = ranges.contains { $0.contains(scalar) }
                || complements.contains { set in !set.contains { $0.contains(scalar) } }
            return inside != negated
        }
    }

    enum Assertion: Sendable { case start, end, wordBoundary, notWordBoundary }

    indirect enum Node: Sendable {
        case empty
        case scalars(Scalars)
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, min: Int, max: Int?)
        case assertion(Assertion)
    }

    enum Instruction: Sendable {
        case scalars(Scalars)
        case split(Int, Int)
        case jump(Int)
        case assertion(Assertion)
        case match
    }

    /// Instructions a pattern may compile to; a larger one is not checked.
    package static let maximumProgram = 20_000

    private let program: [Instruction]

    /// The matcher for `pattern`, or nil when the pattern is not one this matcher reads (the
    /// service still checks it).
    package init?(_ pattern: String) {
        var parser = Parser(Array(pattern.unicodeScalars))
        guard let tree = parser.parse() else { return nil }
        var compiler = Compiler()
        guard compiler.emit(tree) else { return nil }
        compiler.program.append(.match)
        guard compiler.program.count <= Self.maximumProgram else { return nil }
        program = compiler.program
    }

    /// Whether `text` contains a match (JSON Schema's rule: not anchored unless the pattern says so).
    package func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars.lazy.map(\.value))
        var current = ThreadList(count: program.count)
        var next = ThreadList(count: program.count)
        for position in 0...scalars.count {
            // A match may start anywhere: a new thread at every position.
            if add(0, at: position, in: scalars, to: &current) { return true }
            guard position < scalars.count else { break }
            next.clear()
            for pc in current.active {
                if case .scalars(let set) = program[pc], set.contains(scalars[position]) {
                    if add(pc + 1, at: position + 1, in: scalars, to: &next) { return true }
                }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds the thread at `pc` and everything it reaches without reading (splits, jumps,
    /// assertions that hold here); true when that reaches `match`.
    private func add(_ start: Int, at position: Int, in text: [UInt32], to list: inout ThreadList) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second): stack.append(second); stack.append(first)
            case .assertion(let assertion):
                if Self.holds(assertion, at: position, in: text) { stack.append(pc + 1) }
            case .scalars: break
            }
        }
        return false
    }

    private static func holds(_ assertion: Assertion, at position: Int, in text: [UInt32]) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == text.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && isWord(text[position - 1])
            let after = position < text.count && isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    private static func isWord(_ scalar: UInt32) -> Bool { Parser.word.contains { $0.contains(scalar) } }

    /// The threads of one step: each program counter once, in the order added.
    private struct ThreadList {
        private var seen: [Bool]
        private(set) var active: [Int] = []

        init(count: Int) { seen = Array(repeating: false, count: count) }

        mutating func insert(_ pc: Int) -> Bool {
            guard !seen[pc] else { return false }
            seen[pc] = true
            active.append(pc)
            return true
        }

        mutating func clear() {
            for pc in active { seen[pc] = false }
            active.removeAll(keepingCapacity: true)
        }
    }

    private struct Compiler {
        var program: [Instruction] = []

        /// Appends `node`'s instructions; false once the program is too large.
        mutating func emit(_ node: Node) -> Bool {
            guard program.count <= PatternMatcher.maximumProgram else { return false }
            switch node {
            case .empty: return true
            case .scalars(let set): program.append(.scalars(set)); return true
            case .assertion(let assertion): program.append(.assertion(assertion)); return true
            case .sequence(let nodes): return nodes.allSatisfy { emit($0) }
            case .alternatives(let nodes):
                var jumps: [Int] = []
                for (index, alternative) in nodes.enumerated() {
                    let split = program.count
                    if index < nodes.count - 1 { program.append(.split(split + 1, 0)) }
                    guard emit(alternative) else { return false }
                    if index < nodes.count - 1 {
                        jumps.append(program.count)
                        program.append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
                return true
            case .repeated(let body, let min, let max):
                for _ in 0..<min { guard emit(body) else { return false } }
                if let max {
                    // Each optional copy may be skipped, and skipping one skips the rest.
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, 0))
                        guard emit(body) else { return false }
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    guard emit(body) else { return false }
                    program.append(.jump(split))
                    program[split] = .split(split + 1, program.count)
                }
                return true
            }
        }
    }

    /// ECMA-262 pattern syntax, the part ``PatternMatcher`` reads.
    struct Parser {
        static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                                   0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF]
        static let lineTerminators: [ClosedRange<UInt32>] = [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]
        /// Nesting of groups the parser follows (a pattern is short; this bounds its recursion).
        static let maximumDepth = 64

        private let text: [Unicode.Scalar]
        private var index = 0
        private var depth = 0

        init(_ text: [Unicode.Scalar]) { self.text = text }

        mutating func parse() -> Node? {
            guard let node = alternatives(), index == text.count else { return nil }
            return node
        }

        private var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }

        private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            index += 1
            return true
        }

        private mutating func alternatives() -> Node? {
            var options: [Node] = []
            repeat {
                guard let option = sequence() else { return nil }
                options.append(option)
            } while take("|")
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        private mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                guard let atom = atom() else { return nil }
                guard let node = quantified(atom) else { return nil }
                nodes.append(node)
            }
            return nodes.isEmpty ? .empty : nodes.count == 1 ? nodes[0] : .sequence(nodes)
        }

        private mutating func quantified(_ atom: Node) -> Node? {
            let bounds: (Int, Int?)
            if take("*") {
                bounds = (0, nil)
            } else if take("+") {
                bounds = (1, nil)
            } else if take("?") {
                bounds = (0, 1)
            } else if peek == "{", let counted = counted() {
                bounds = counted
            } else {
                return atom
            }
            _ = take("?")
            if case .assertion = atom { return nil }
            if let next = peek, "*+?".unicodeScalars.contains(next) { return nil }
            return .repeated(atom, min: bounds.0, max: bounds.1)
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (the brace is a literal) when it is not one of them.
        private mutating func counted() -> (Int, Int?)? {
            let start = index
            index += 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while let scalar = peek, ("0"..."9").contains(scalar) {
                    value = min(value * 10 + Int(scalar.value - 48), 100_000)
                    digits += 1
                    index += 1
                }
                return digits > 0 ? value : nil
            }
            guard let low = number() else { index = start; return nil }
            var high: Int? = low
            if take(",") { high = number() }
            guard take("}"), high.map({ $0 >= low }) ?? true else { index = start; return nil }
            return (low, high)
        }

        private mutating func atom() -> Node? {
            guard let scalar = peek else { return nil }
            index += 1
            switch scalar {
            case "^": return .assertion(.start)
            case "$": return .assertion(.end)
            case ".": return .scalars(Scalars(ranges: Self.lineTerminators, negated: true))
            case "[": return characterClass()
            case "(":
                guard depth < Self.maximumDepth else { return nil }
                if take("?") {
                    if take(":") {
                        // a non-capturing group
                    } else if take("<"), let first = peek, first != "=", first != "!" {
                        while let next = peek, next != ">" { index += 1 }
                        guard take(">") else { return nil }
                    } else {
                        return nil // lookaround
                    }
                }
                depth += 1
                defer { depth -= 1 }
                guard let inner = alternatives(), take(")") else { return nil }
                return inner
            case ")", "*", "+", "?": return nil
            case "{":
                // A brace that does not start a count is itself (Annex B), as Swift's Regex reads it.
                return .scalars(Scalars(ranges: [scalar.value...scalar.value]))
            case "\\":
                guard let escaped = escape(inClass: false) else { return nil }
                return escaped
            default: return .scalars(Scalars(ranges: [scalar.value...scalar.value]))
            }
        }

        /// After a backslash: a class escape, an assertion or one scalar; nil for backreferences
        /// and what is not an escape.
        private mutating func escape(inClass: Bool) -> Node? {
            guard let scalar = peek else { return nil }
            index += 1
            switch scalar {
            case "d": return .scalars(Scalars(ranges: Self.digit))
            case "D": return .scalars(Scalars(complements: [Self.digit]))
            case "w": return .scalars(Scalars(ranges: Self.word))
            case "W": return .scalars(Scalars(complements: [Self.word]))
            case "s": return .scalars(Scalars(ranges: Self.space))
            case "S": return .scalars(Scalars(complements: [Self.space]))
            case "b": return inClass ? Self.single(0x08) : .assertion(.wordBoundary)
            case "B": return inClass ? nil : .assertion(.notWordBoundary)
            case "t": return Self.single(0x09)
            case "n": return Self.single(0x0A)
            case "v": return Self.single(0x0B)
            case "f": return Self.single(0x0C)
            case "r": return Self.single(0x0D)
            case "0": return peek.map { ("0"..."9").contains($0) } == true ? nil : Self.single(0)
            case "x": return hex(count: 2).map(Self.single)
            case "u":
                if take("{") {
                    var value: UInt32 = 0
                    var digits = 0
                    while let next = peek, let digit = Self.hexDigit(next) {
                        value = value &* 16 &+ digit
                        digits += 1
                        index += 1
                        guard digits <= 6 else { return nil }
                    }
                    guard digits > 0, take("}"), value <= 0x10FFFF else { return nil }
                    return Self.single(value)
                }
                return hex(count: 4).map(Self.single)
            case "c":
                guard let letter = peek, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) else { return nil }
                index += 1
                return Self.single(letter.value % 32)
            default:
                // `\1`… are backreferences; a letter or digit otherwise is not an escape here.
                if scalar.properties.isAlphabetic || ("1"..."9").contains(scalar) { return nil }
                return Self.single(scalar.value)
            }
        }

        private static func single(_ value: UInt32) -> Node { .scalars(Scalars(ranges: [value...value])) }

        private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar {
            case "0"..."9": scalar.value - 48
            case "a"..."f": scalar.value - 87
            case "A"..."F": scalar.value - 55
            default: nil
            }
        }

        private mutating func hex(count: Int) -> UInt32? {
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let scalar = peek, let digit = Self.hexDigit(scalar) else { return nil }
                value = value * 16 + digit
                index += 1
            }
            return value
        }

        /// `[…]`, after its `[`.
        private mutating func characterClass() -> Node? {
            var set = Scalars()
            set.negated = take("^")
            while let scalar = peek, scalar != "]" {
                guard let low = classAtom(into: &set) else { return nil }
                guard let start = low else { continue }
                if peek == "-", index + 1 < text.count, text[index + 1] != "]" {
                    index += 1
                    guard let high = classAtom(into: &set), let end = high, start <= end else { return nil }
                    set.ranges.append(start...end)
                } else {
                    set.ranges.append(start...start)
                }
            }
            guard take("]") else { return nil }
            return .scalars(set)
        }

        /// One scalar of a class (returned), or a class escape such as `\d` added to `set`
        /// (returns `.some(nil)`); nil when it is not valid.
        private mutating func classAtom(into set: inout Scalars) -> UInt32?? {
            guard let scalar = peek else { return nil }
            index += 1
            guard scalar == "\\" else { return .some(scalar.value) }
            let isClassEscape = peek.map { "dDwWsS".unicodeScalars.contains($0) } ?? false
            guard let escaped = escape(inClass: true), case .scalars(let inner) = escaped else { return nil }
            guard isClassEscape else { return inner.ranges.first.map { .some($0.lowerBound) } }
            set.ranges += inner.ranges
            set.complements += inner.complements
            return .some(nil)
        }
    }
}
