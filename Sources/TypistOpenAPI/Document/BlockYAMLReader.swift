/// Reads the block-style YAML that OpenAPI documents are written in straight into a ``SpecNode``,
/// with no intermediate tree. GitHub Enterprise's 2.5 MB document costs about a third of the memory
/// it takes through Yams (whose node tree, at 20 MB, is most of that peak).
///
/// It reads a subset: block mappings and sequences, plain, quoted and block scalars, flow collections
/// on one line, comments, and one document with an optional `---` and `...`. Anything outside it
/// makes ``read(_:)`` throw ``Outside`` before any value is returned, so that the caller reads the
/// text with Yams instead. Outside are: anchors, aliases and tags, complex (`?`) keys, directives,
/// several documents, flow collections over several lines, tabs used as indentation or separation,
/// carriage returns and YAML 1.1's other line breaks, control characters, and whatever YAML refuses.
/// Inside the subset it gives exactly what Yams gives (its node tree turned into a ``SpecNode``):
/// `BlockYAMLReaderTests` checks that on real documents and on generated ones.
///
/// Scalars follow libyaml's scanner (the one Yams uses): line folding, escapes, block scalars'
/// indentation, chomping and folding.
package struct BlockYAMLReader {
    /// Why a text is left to Yams: a construct outside the subset, or YAML that is not valid.
    package struct Outside: Error, CustomStringConvertible {
        package let reason: String
        /// The byte offset where it was found.
        package let offset: Int

        package var description: String { "\(reason) (at byte \(offset))" }
    }

    /// Reads `text`; throws ``Outside`` when any of it is beyond the subset.
    package static func read(_ text: String) throws(Outside) -> SpecNode {
        var copy = text
        copy.makeContiguousUTF8()
        let result: Result<SpecNode, Outside> = copy.utf8.withContiguousStorageIfAvailable { bytes in
            var reader = BlockYAMLReader(bytes)
            do throws(Outside) {
                return .success(try reader.document())
            } catch {
                return .failure(error)
            }
        } ?? .failure(Outside(reason: "the text is not contiguous", offset: 0))
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The start of the next line not yet read.
    private var cursor = 0
    private var depth = 0
    private let strings = Strings()
    /// Where collections gather their members, so that each is stored at its exact size.
    private var elementStack: [SpecNode] = []
    private var entryStack: [(key: String, value: SpecNode)] = []

    /// One copy of each short text: a document repeats its `$ref`s, names and formats thousands of times.
    private final class Strings {
        var seen = Set<String>()

        func make(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
            let text = String(decoding: buffer, as: UTF8.self)
            // Up to 15 bytes a string is stored inline; long texts seldom repeat.
            guard buffer.count > 15, buffer.count <= 128 else { return text }
            return seen.insert(text).memberAfterInsert
        }

        func make(_ bytes: [UInt8]) -> String {
            bytes.withUnsafeBufferPointer { make($0) }
        }
    }

    private func string(_ range: Range<Int>) -> String {
        strings.make(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")
    private static let hash = UInt8(ascii: "#")
    private static let colon = UInt8(ascii: ":")
    private static let dash = UInt8(ascii: "-")
    /// Nesting beyond this is left to Yams (and ``SpecNode``'s own limit).
    private static let maximumDepth = 200

    private func outside(_ reason: String, _ offset: Int) -> Outside {
        Outside(reason: reason, offset: offset)
    }

    // MARK: Lines

    /// A line with content: where it starts, its indentation in spaces, and where it ends (its `\n`).
    private struct Line {
        var start: Int
        /// Its spaces before content; -1 for a marker.
        var indent: Int
        var content: Int
        var end: Int
        /// `---` or `...` at the start of a line: the end of every block.
        var isMarker = false
    }

    private func lineEnd(from index: Int) -> Int {
        var end = index
        while end < bytes.count, bytes[end] != Self.newline { end += 1 }
        return end
    }

    private func isBlank(_ index: Int) -> Bool {
        index < bytes.count && (bytes[index] == Self.space || bytes[index] == Self.tab)
    }

    /// Whether `index` is the end of a line or of the text.
    private func isBreak(_ index: Int) -> Bool {
        index >= bytes.count || bytes[index] == Self.newline
    }

    /// Whether `index` is a blank or the end of a line.
    private func isBlankOrBreak(_ index: Int) -> Bool {
        isBreak(index) || isBlank(index)
    }

    /// The next line with content from ``cursor``, which is left at its start; empty and comment
    /// lines before it are passed over. `nil` at the end of the text.
    private mutating func nextContentLine() throws(Outside) -> Line? {
        while cursor < bytes.count {
            var index = cursor
            while index < bytes.count, bytes[index] == Self.space { index += 1 }
            let end = lineEnd(from: index)
            if index < end, bytes[index] == Self.tab {
                // Whitespace-only lines with tabs, and tabs before content, are libyaml's corner.
                throw outside("a tab in indentation", index)
            }
            if index == end || bytes[index] == Self.hash {
                cursor = end + 1
                continue
            }
            var line = Line(start: cursor, indent: index - cursor, content: index, end: end)
            if line.indent == 0, end - index >= 3, isBlankOrBreak(index + 3),
               (bytes[index] == Self.dash && bytes[index + 1] == Self.dash && bytes[index + 2] == Self.dash)
                || (bytes[index] == UInt8(ascii: ".") && bytes[index + 1] == UInt8(ascii: ".") && bytes[index + 2] == UInt8(ascii: ".")) {
                line.isMarker = true
                line.indent = -1
            }
            return line
        }
        return nil
    }

    /// Moves past the rest of a line from `index`: blanks, then a comment or nothing.
    private mutating func finishLine(from index: Int) throws(Outside) {
        var index = index
        let start = index
        while isBlank(index) { index += 1 }
        if !isBreak(index) {
            guard bytes[index] == Self.hash, index > start else { throw outside("text after a value", index) }
            index = lineEnd(from: index)
        }
        cursor = index + 1
    }

    /// The offset after blanks from `index`, refusing tabs (libyaml's rules for them differ by place).
    private func skipSpaces(from index: Int) throws(Outside) -> Int {
        var index = index
        while index < bytes.count, bytes[index] == Self.space { index += 1 }
        if index < bytes.count, bytes[index] == Self.tab { throw outside("a tab as separation", index) }
        return index
    }

    // MARK: Document and blocks

    private mutating func document() throws(Outside) -> SpecNode {
        try screen()
        guard var line = try nextContentLine() else { throw outside("no content", 0) }
        if bytes[line.content] == UInt8(ascii: "%") { throw outside("a directive", line.content) }
        if line.isMarker {
            guard bytes[line.content] == Self.dash else { throw outside("'...' before the content", line.content) }
            try finishLine(from: line.content + 3)
            guard let first = try nextContentLine(), !first.isMarker else { throw outside("no content", cursor) }
            line = first
        }
        let rootKey = try implicitKey(at: line.content, end: line.end)
        guard isDash(line.content) || rootKey != nil else {
            throw outside("a document that is not a block mapping or sequence", line.content)
        }
        let root = try block(line, parent: -1)
        if let after = try nextContentLine() {
            guard after.isMarker, bytes[after.content] == UInt8(ascii: ".") else { throw outside("more after the document", after.content) }
            try finishLine(from: after.content + 3)
            if let more = try nextContentLine() { throw outside("more after '...'", more.content) }
        }
        return root
    }

    /// Refuses bytes libyaml reads differently or refuses: carriage returns, control characters,
    /// a byte-order mark, YAML 1.1's NEL, LS and PS line breaks, and U+FFFE/U+FFFF.
    private func screen() throws(Outside) {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != Self.newline && byte != Self.tab { throw outside("a control character or carriage return", index) }
            } else if byte == 0x7F {
                throw outside("a control character", index)
            } else if byte == 0xC2, index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
                throw outside("a C1 control character or NEL", index)
            } else if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                throw outside("a Unicode line or paragraph separator", index)
            } else if byte == 0xEF, index + 2 < count, bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF
                        || bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF) {
                throw outside("a byte-order mark or a noncharacter", index)
            }
            index += 1
        }
    }

    private func isDash(_ index: Int) -> Bool {
        index < bytes.count && bytes[index] == Self.dash && isBlankOrBreak(index + 1)
    }

    /// The node that starts on `line`, which is indented more than `parent` (or as much, for a
    /// sequence that is a mapping's value).
    private mutating func block(_ line: Line, parent: Int) throws(Outside) -> SpecNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { throw outside("nesting deeper than \(Self.maximumDepth)", line.content) }
        if isDash(line.content) { return try sequence(indent: line.indent, dash: line.content) }
        if try implicitKey(at: line.content, end: line.end) != nil { return try mapping(indent: line.indent, key: line.content) }
        return try value(at: line.content, parent: parent)
    }

    private mutating func sequence(indent: Int, dash: Int) throws(Outside) -> SpecNode {
        let base = elementStack.count
        defer { elementStack.removeSubrange(base...) }
        var dash = dash
        while true {
            let element = try entry(after: dash + 1, indent: indent)
            elementStack.append(element)
            guard let next = try nextContentLine(), next.indent >= indent else { break }
            guard next.indent == indent else { throw outside("a line indented more than its sequence's entries", next.content) }
            guard isDash(next.content) else { break }
            dash = next.content
        }
        return .array(Self.exactly(elementStack[base...]))
    }

    /// A sequence entry's value, from just after its `-`.
    private mutating func entry(after index: Int, indent: Int) throws(Outside) -> SpecNode {
        let content = try skipSpaces(from: index)
        if isBreak(content) || bytes[content] == Self.hash {
            try finishLine(from: index)
            guard let next = try nextContentLine(), next.indent > indent else { return .null }
            return try block(next, parent: indent)
        }
        let column = content - lineStart(of: content)
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { throw outside("nesting deeper than \(Self.maximumDepth)", content) }
        if isDash(content) { return try sequence(indent: column, dash: content) }
        if try implicitKey(at: content, end: lineEnd(from: content)) != nil { return try mapping(indent: column, key: content) }
        return try value(at: content, parent: indent)
    }

    private func lineStart(of index: Int) -> Int {
        var start = index
        while start > 0, bytes[start - 1] != Self.newline { start -= 1 }
        return start
    }

    private mutating func mapping(indent: Int, key: Int) throws(Outside) -> SpecNode {
        let base = entryStack.count
        defer { entryStack.removeSubrange(base...) }
        var keyStart = key
        while true {
            guard let key = try implicitKey(at: keyStart, end: lineEnd(from: keyStart)) else {
                throw outside("a line in a mapping that is not a key", keyStart)
            }
            try Self.refuseDuplicate(key.name, in: entryStack[base...], at: keyStart)
            let value = try mappingValue(after: key.after, indent: indent)
            entryStack.append((key.name, value))
            guard let next = try nextContentLine(), next.indent >= indent else { break }
            guard next.indent == indent else { throw outside("a line indented more than its mapping's keys", next.content) }
            guard !isDash(next.content) else { throw outside("a sequence entry among a mapping's keys", next.content) }
            keyStart = next.content
        }
        return .object(Self.exactly(entryStack[base...]))
    }

    /// A collection's members in an array of their own, no larger than they need (an array that
    /// grows by appending is up to twice that).
    private static func exactly<Element>(_ members: ArraySlice<Element>) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(members.count)
        array.append(contentsOf: members)
        return array
    }

    /// Yams refuses a mapping with a key twice (with the keys it names); the reader leaves it to Yams.
    private static func refuseDuplicate(_ key: String, in entries: some Collection<(key: String, value: SpecNode)>, at offset: Int) throws(Outside) {
        if entries.contains(where: { $0.key == key }) { throw Outside(reason: "a key twice in a mapping", offset: offset) }
    }

    /// A mapping value, from just after its key's `:`.
    private mutating func mappingValue(after index: Int, indent: Int) throws(Outside) -> SpecNode {
        let content = try skipSpaces(from: index)
        if isBreak(content) || bytes[content] == Self.hash {
            try finishLine(from: index)
            guard let next = try nextContentLine() else { return .null }
            if next.indent > indent { return try block(next, parent: indent) }
            if next.indent == indent, isDash(next.content) {
                depth += 1
                defer { depth -= 1 }
                return try sequence(indent: indent, dash: next.content)
            }
            return .null
        }
        if isDash(content) { throw outside("a sequence entry after a key on its line", content) }
        if try implicitKey(at: content, end: lineEnd(from: content)) != nil { throw outside("a key after a key on its line", content) }
        return try value(at: content, parent: indent)
    }

    /// The key that starts at `index` — a plain or quoted scalar on this line followed by `:` and a
    /// blank or the line's end — and the offset after the `:`; `nil` when the line has no key there.
    private func implicitKey(at index: Int, end: Int) throws(Outside) -> (name: String, after: Int)? {
        let first = bytes[index]
        var after: Int
        let name: String
        if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
            guard let quoted = try quotedOnOneLine(at: index, end: end) else { return nil }
            after = quoted.after
            while after < end, bytes[after] == Self.space { after += 1 }
            guard after < end, bytes[after] == Self.colon, isBlankOrBreak(after + 1) else { return nil }
            name = quoted.text
        } else {
            guard startsPlain(index) else { return nil }
            var scan = index
            while true {
                guard scan < end else { return nil }
                let byte = bytes[scan]
                if byte == Self.colon, isBlankOrBreak(scan + 1) { break }
                if byte == Self.hash, scan > index, isBlank(scan - 1) { return nil }
                scan += 1
            }
            var last = scan
            while last > index, isBlank(last - 1) { last -= 1 }
            name = string(index..<last)
            after = scan
        }
        guard after - index <= 1024 else { throw outside("a key longer than libyaml's 1024 characters", index) }
        if after + 1 < bytes.count, bytes[after + 1] == Self.tab { throw outside("a tab after a key's ':'", after) }
        return (name, after + 1)
    }

    /// Whether a plain scalar can start at `index` (in block context).
    private func startsPlain(_ index: Int) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            return !isBlankOrBreak(index + 1)
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","),
             UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"), Self.tab, Self.space:
            return false
        default:
            return true
        }
    }

    // MARK: Values

    /// A value that starts at `index` inside a block whose indentation is `parent`.
    private mutating func value(at index: Int, parent: Int) throws(Outside) -> SpecNode {
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
    private mutating func plain(at index: Int, parent: Int) throws(Outside) -> String {
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
    private func plainContinuation(parent: Int) throws(Outside) -> (breaks: Int, start: Int)? {
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
    private func quotedOnOneLine(at index: Int, end: Int) throws(Outside) -> (text: String, after: Int)? {
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
    private mutating func quoted(at index: Int, parent: Int) throws(Outside) -> String {
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
    private func continuationLine(after end: Int, parent: Int, allowEmpty: Bool) throws(Outside) -> (breaks: Int, content: Int)? {
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
    private func escape(at index: Int, into text: inout [UInt8]) throws(Outside) -> Int {
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

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A flow collection or scalar on one line (a JSON-like `[…]` or `{…}`), from `index`.
    private func flow(at index: inout Int, end: Int, depth: Int) throws(Outside) -> SpecNode {
        guard depth < Self.maximumDepth else { throw outside("nesting deeper than \(Self.maximumDepth)", index) }
        index = try skipSpaces(from: index)
        guard index < end else { throw outside("a flow collection over several lines", index) }
        switch bytes[index] {
        case UInt8(ascii: "["):
            var elements: [SpecNode] = []
            try flowEntries(at: &index, end: end, closing: UInt8(ascii: "]")) { (index: inout Int) throws(Outside) in
                elements.append(try flow(at: &index, end: end, depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "{"):
            var entries: [(key: String, value: SpecNode)] = []
            try flowEntries(at: &index, end: end, closing: UInt8(ascii: "}")) { (index: inout Int) throws(Outside) in
                guard let key = try flowScalar(at: &index, end: end, isKey: true) else { throw outside("a flow mapping key that is not a scalar", index) }
                index = try skipSpaces(from: index)
                guard index < end, bytes[index] == Self.colon, index + 1 < end, bytes[index + 1] == Self.space else {
                    throw outside("a flow mapping key without ': '", index)
                }
                index += 1
                let value = try flow(at: &index, end: end, depth: depth + 1)
                try Self.refuseDuplicate(key.text, in: entries, at: index)
                entries.append((key.text, value))
            }
            return .object(entries)
        default:
            guard let scalar = try flowScalar(at: &index, end: end, isKey: false) else { throw outside("a flow value that is not a scalar", index) }
            return scalar.plain ? SpecNode.scalar(scalar.text, plain: true) : .string(scalar.text)
        }
    }

    /// The entries of a flow collection, from its opening bracket to just after `closing`: `entry`
    /// reads each one; commas between them, a trailing one allowed; all on this line.
    private func flowEntries(at index: inout Int, end: Int, closing: UInt8,
                             _ entry: (inout Int) throws(Outside) -> Void) throws(Outside) {
        index += 1
        while true {
            index = try skipSpaces(from: index)
            guard index < end else { throw outside("a flow collection over several lines", index) }
            if bytes[index] == closing {
                index += 1
                return
            }
            try entry(&index)
            index = try skipSpaces(from: index)
            guard index < end else { throw outside("a flow collection over several lines", index) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != closing {
                throw outside("a flow collection entry that is not a value", index)
            }
        }
    }

    /// A scalar inside a flow collection: quoted, or plain up to `,`, a bracket or a brace. Plain
    /// ones with a `:` or `#` in them are outside (libyaml's versions read those differently).
    private func flowScalar(at index: inout Int, end: Int, isKey: Bool) throws(Outside) -> (text: String, plain: Bool)? {
        let first = bytes[index]
        if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
            guard let quoted = try quotedOnOneLine(at: index, end: end) else { throw outside("a flow collection over several lines", index) }
            index = quoted.after
            return (quoted.text, false)
        }
        // In a flow collection libyaml starts no plain scalar with '?' or ':'.
        guard startsPlain(index), first != UInt8(ascii: "?"), first != Self.colon else { return nil }
        let start = index
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "{") { break }
            if isKey, byte == Self.colon, index + 1 < end, bytes[index + 1] == Self.space { break }
            if byte == Self.colon || byte == Self.hash || byte == Self.tab { throw outside("a ':', '#' or tab in a flow scalar", index) }
            index += 1
        }
        var last = index
        while last > start, bytes[last - 1] == Self.space { last -= 1 }
        return (string(start..<last), true)
    }

    /// A literal (`|`) or folded (`>`) block scalar, from its indicator; as libyaml's
    /// `yaml_parser_scan_block_scalar` reads it.
    private mutating func blockScalar(at index: Int, parent: Int) throws(Outside) -> String {
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
