/// The block reader's scalars: plain, quoted and block scalars, as libyaml's scanner reads them.
extension BlockYAMLReader {
    /// A value that starts at `index` inside a block whose indentation is `parent`.
    mutating func value(at index: Int, parent: Int) throws(Outside) -> SpecNode {
        switch bytes[index] {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            let text = try quoted(at: index, parent: parent)
            return .string(text)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var position = index
            let node = try flow(at: &position, end: lineEnd(from: index), depth: depth)
            try finishLine(from: position)
            return node
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return .string(try blockScalar(at: index, parent: parent))
        default:
            guard startsPlain(index) else { throw outside("a value that starts with '\(Character(Unicode.Scalar(bytes[index])))'", index) }
            return SpecNode.scalar(try plain(at: index, parent: parent), plain: true)
        }
    }

    /// A plain scalar, over as many lines as are indented more than `parent`, folded.
    mutating func plain(at index: Int, parent: Int) throws(Outside) -> String {
        var text: [UInt8] = []
        var start = index
        var breaks = 0
        while true {
            let end = lineEnd(from: start)
            var scan = start
            var comment = false
            while scan < end {
                let byte = bytes[scan]
                if byte == Self.colon, isBlankOrBreak(scan + 1) { throw outside("a ':' and a blank inside a plain scalar", scan) }
                if byte == Self.hash, scan > start, isBlank(scan - 1) {
                    comment = true
                    break
                }
                scan += 1
            }
            var last = scan
            while last > start, isBlank(last - 1) { last -= 1 }
            cursor = end + 1
            let continuation = comment ? nil : try plainContinuation(parent: parent)
            if text.isEmpty, continuation == nil {
                // One line (the common case): no buffer.
                return string(start..<last)
            }
            if start != index {
                if breaks == 0 { text.append(Self.space) } else { text.append(contentsOf: repeatElement(Self.newline, count: breaks)) }
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<last]))
            guard let continuation else { break }
            (breaks, start) = continuation
        }
        return strings.make(text)
    }

    /// Where a plain scalar continues after the line before ``cursor``: the empty lines between
    /// and the next line's text, when that line is indented more than `parent` and not a comment.
    func plainContinuation(parent: Int) throws(Outside) -> (breaks: Int, start: Int)? {
        var lookahead = cursor
        var breaks = 0
        while lookahead < bytes.count {
            var first = lookahead
            while first < bytes.count, bytes[first] == Self.space { first += 1 }
            if isBreak(first) {
                breaks += 1
                lookahead = first + 1
                continue
            }
            if bytes[first] == Self.tab { throw outside("a tab at the start of a plain scalar's line", first) }
            guard first - lookahead > parent, bytes[first] != Self.hash else { return nil }
            return (breaks, first)
        }
        return nil
    }

    /// A quoted scalar that opens and closes on one line: its text and the offset after its quote.
    /// `nil` when it does not close on the line.
    func quotedOnOneLine(at index: Int, end: Int) throws(Outside) -> (text: String, after: Int)? {
        var text: [UInt8] = []
        var scan = index + 1
        let double = bytes[index] == UInt8(ascii: "\"")
        while scan < end {
            let byte = bytes[scan]
            if double {
                if byte == UInt8(ascii: "\"") { return (strings.make(text), scan + 1) }
                if byte == UInt8(ascii: "\\") {
                    guard scan + 1 < end else { return nil }
                    scan = try escape(at: scan, into: &text)
                    continue
                }
            } else if byte == UInt8(ascii: "'") {
                guard scan + 1 < end, bytes[scan + 1] == UInt8(ascii: "'") else { return (strings.make(text), scan + 1) }
                text.append(byte)
                scan += 2
                continue
            }
            text.append(byte)
            scan += 1
        }
        return nil
    }

    /// A quoted scalar as a value, over as many lines as it takes (each indented more than
    /// `parent`), folded; the rest of its last line must be blank or a comment.
    mutating func quoted(at index: Int, parent: Int) throws(Outside) -> String {
        let quote = bytes[index]
        let double = quote == UInt8(ascii: "\"")
        var text: [UInt8] = []
        var scan = index + 1
        while true {
            let end = lineEnd(from: scan)
            // How much of the text line folding keeps: not the blanks written before the break.
            var kept = text.count
            var joined = false
            while scan < end {
                let byte = bytes[scan]
                if byte == quote, double || !(scan + 1 < end && bytes[scan + 1] == quote) {
                    try finishLine(from: scan + 1)
                    return strings.make(text)
                }
                if double, byte == UInt8(ascii: "\\") {
                    if scan + 1 == end {
                        // An escaped line break: the lines join with nothing between them.
                        guard let next = try continuationLine(after: end, parent: parent, allowEmpty: false) else {
                            throw outside("an escaped line break before an empty line or the block's end", end)
                        }
                        scan = next.content
                        joined = true
                        break
                    }
                    scan = try escape(at: scan, into: &text)
                    kept = text.count
                    continue
                }
                text.append(byte)
                scan += byte == quote ? 2 : 1
                if byte != Self.space && byte != Self.tab { kept = text.count }
            }
            if joined { continue }
            text.removeLast(text.count - kept)
            guard let next = try continuationLine(after: end, parent: parent, allowEmpty: true) else {
                throw outside("a quoted scalar that does not close inside its block", end)
            }
            if next.breaks == 0 { text.append(Self.space) } else { text.append(contentsOf: repeatElement(Self.newline, count: next.breaks)) }
            scan = next.content
        }
    }

    /// The line a quoted scalar continues on after the break at `end`: the empty lines before it
    /// and where its text starts (leading blanks passed over). `nil` when the text ends first, or
    /// the line is not indented more than `parent`.
    func continuationLine(after end: Int, parent: Int, allowEmpty: Bool) throws(Outside) -> (breaks: Int, content: Int)? {
        var start = end + 1
        var breaks = 0
        while start < bytes.count {
            var first = start
            while first < bytes.count, bytes[first] == Self.space { first += 1 }
            if isBreak(first) {
                guard allowEmpty else { return nil }
                breaks += 1
                start = first + 1
                continue
            }
            if bytes[first] == Self.tab { throw outside("a tab at the start of a quoted scalar's line", first) }
            guard first - start > parent else { return nil }
            return (breaks, first)
        }
        return nil
    }

    /// Appends the character the escape at `index` (a backslash) stands for; returns the offset
    /// after it. Escapes libyaml refuses (and surrogates) are outside.
    func escape(at index: Int, into text: inout [UInt8]) throws(Outside) -> Int {
        guard index + 1 < bytes.count else { throw outside("a backslash at the end", index) }
        let code = bytes[index + 1]
        let simple: UInt8? = switch code {
        case UInt8(ascii: "0"): 0
        case UInt8(ascii: "a"): 7
        case UInt8(ascii: "b"): 8
        case UInt8(ascii: "t"), Self.tab: 9
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "v"): 11
        case UInt8(ascii: "f"): 12
        case UInt8(ascii: "r"): 13
        case UInt8(ascii: "e"): 27
        case Self.space: 32
        case UInt8(ascii: "\""): 34
        case UInt8(ascii: "/"): 47
        case UInt8(ascii: "\\"): 92
        default: nil
        }
        if let simple {
            guard simple != 0 else { throw outside("an escaped NUL", index) }
            text.append(simple)
            return index + 2
        }
        let scalar: UInt32
        var after = index + 2
        switch code {
        case UInt8(ascii: "N"): scalar = 0x85
        case UInt8(ascii: "_"): scalar = 0xA0
        case UInt8(ascii: "L"): scalar = 0x2028
        case UInt8(ascii: "P"): scalar = 0x2029
        case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            let width = code == UInt8(ascii: "x") ? 2 : code == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for offset in 0..<width {
                let position = index + 2 + offset
                guard position < bytes.count, let digit = Self.hexDigit(bytes[position]) else { throw outside("a short hexadecimal escape", index) }
                value = value << 4 | UInt32(digit)
            }
            scalar = value
            after = index + 2 + width
        default:
            throw outside("an escape YAML does not have", index)
        }
        guard scalar != 0, let unicode = Unicode.Scalar(scalar) else { throw outside("an escape that is NUL or not a Unicode scalar", index) }
        text.append(contentsOf: String(Character(unicode)).utf8)
        return after
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A literal (`|`) or folded (`>`) block scalar, from its indicator; as libyaml's
    /// `yaml_parser_scan_block_scalar` reads it.
    mutating func blockScalar(at index: Int, parent: Int) throws(Outside) -> String {
        let literal = bytes[index] == UInt8(ascii: "|")
        var chomping = 0
        var increment = 0
        var scan = index + 1
        for _ in 0..<2 where scan < bytes.count {
            let byte = bytes[scan]
            if chomping == 0, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                chomping = byte == UInt8(ascii: "+") ? 1 : -1
                scan += 1
            } else if increment == 0, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
                increment = Int(byte - UInt8(ascii: "0"))
                scan += 1
            }
        }
        try finishLine(from: scan)
        var indent = increment > 0 ? max(parent, 0) + increment : 0
        var position = cursor
        var text: [UInt8] = []
        var leadingBreak = false
        var trailingBreaks = 0
        var leadingBlank = false

        // libyaml's yaml_parser_scan_block_scalar_breaks: indentation spaces and empty lines.
        func breaks(_ position: inout Int, _ indent: inout Int, _ count: inout Int) throws(Outside) {
            var maximum = 0
            while true {
                let start = position
                while indent == 0 || position - start < indent, position < bytes.count, bytes[position] == Self.space { position += 1 }
                maximum = max(maximum, position - start)
                if (indent == 0 || position - start < indent), position < bytes.count, bytes[position] == Self.tab {
                    throw outside("a tab in a block scalar's indentation", position)
                }
                guard position < bytes.count, bytes[position] == Self.newline else { break }
                position += 1
                count += 1
            }
            if indent == 0 {
                indent = max(maximum, parent + 1, 1)
            }
        }

        func column(_ position: Int) -> Int { position - lineStart(of: position) }

        try breaks(&position, &indent, &trailingBreaks)
        var lines = 0
        while position < bytes.count, column(position) == indent {
            let trailingBlank = isBlank(position)
            if !literal, leadingBreak, !leadingBlank, !trailingBlank {
                if trailingBreaks == 0 { text.append(Self.space) }
                leadingBreak = false
            } else if leadingBreak {
                text.append(Self.newline)
                leadingBreak = false
            }
            text.append(contentsOf: repeatElement(Self.newline, count: trailingBreaks))
            trailingBreaks = 0
            leadingBlank = isBlank(position)
            let end = lineEnd(from: position)
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<end]))
            lines += 1
            position = end
            if position < bytes.count {
                position += 1
                leadingBreak = true
            }
            try breaks(&position, &indent, &trailingBreaks)
        }
        guard lines > 0 else { throw outside("an empty block scalar", index) }
        if chomping != -1, leadingBreak { text.append(Self.newline) }
        if chomping == 1 { text.append(contentsOf: repeatElement(Self.newline, count: trailingBreaks)) }
        // The scan stopped inside the line that ends the scalar (or at the text's end).
        cursor = position >= bytes.count ? bytes.count : lineStart(of: position)
        return strings.make(text)
    }
}
