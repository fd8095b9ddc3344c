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

    let bytes: UnsafeBufferPointer<UInt8>
    /// The start of the next line not yet read.
    var cursor = 0
    var depth = 0
    let strings = Strings()
    /// Where collections gather their members, so that each is stored at its exact size.
    var elementStack: [SpecNode] = []
    var entryStack: [(key: String, value: SpecNode)] = []

    /// One copy of each short text: a document repeats its `$ref`s, names and formats thousands of times.
    final class Strings {
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

    func string(_ range: Range<Int>) -> String {
        strings.make(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let dash = UInt8(ascii: "-")
    /// Nesting beyond this is left to Yams (and ``SpecNode``'s own limit).
    static let maximumDepth = 200

    func outside(_ reason: String, _ offset: Int) -> Outside {
        Outside(reason: reason, offset: offset)
    }

    // MARK: Lines

    /// A line with content: where it starts, its indentation in spaces, and where it ends (its `\n`).
    struct Line {
        var start: Int
        /// Its spaces before content; -1 for a marker.
        var indent: Int
        var content: Int
        var end: Int
        /// `---` or `...` at the start of a line: the end of every block.
        var isMarker = false
    }

    func lineEnd(from index: Int) -> Int {
        var end = index
        while end < bytes.count, bytes[end] != Self.newline { end += 1 }
        return end
    }

    func isBlank(_ index: Int) -> Bool {
        index < bytes.count && (bytes[index] == Self.space || bytes[index] == Self.tab)
    }

    /// Whether `index` is the end of a line or of the text.
    func isBreak(_ index: Int) -> Bool {
        index >= bytes.count || bytes[index] == Self.newline
    }

    /// Whether `index` is a blank or the end of a line.
    func isBlankOrBreak(_ index: Int) -> Bool {
        isBreak(index) || isBlank(index)
    }

    /// The next line with content from ``cursor``, which is left at its start; empty and comment
    /// lines before it are passed over. `nil` at the end of the text.
    mutating func nextContentLine() throws(Outside) -> Line? {
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
    mutating func finishLine(from index: Int) throws(Outside) {
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
    func skipSpaces(from index: Int) throws(Outside) -> Int {
        var index = index
        while index < bytes.count, bytes[index] == Self.space { index += 1 }
        if index < bytes.count, bytes[index] == Self.tab { throw outside("a tab as separation", index) }
        return index
    }

    // MARK: Document and blocks

    mutating func document() throws(Outside) -> SpecNode {
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
    func screen() throws(Outside) {
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

    func isDash(_ index: Int) -> Bool {
        index < bytes.count && bytes[index] == Self.dash && isBlankOrBreak(index + 1)
    }

    /// The node that starts on `line`, which is indented more than `parent` (or as much, for a
    /// sequence that is a mapping's value).
    mutating func block(_ line: Line, parent: Int) throws(Outside) -> SpecNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { throw outside("nesting deeper than \(Self.maximumDepth)", line.content) }
        if isDash(line.content) { return try sequence(indent: line.indent, dash: line.content) }
        if try implicitKey(at: line.content, end: line.end) != nil { return try mapping(indent: line.indent, key: line.content) }
        return try value(at: line.content, parent: parent)
    }

    mutating func sequence(indent: Int, dash: Int) throws(Outside) -> SpecNode {
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
    mutating func entry(after index: Int, indent: Int) throws(Outside) -> SpecNode {
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

    func lineStart(of index: Int) -> Int {
        var start = index
        while start > 0, bytes[start - 1] != Self.newline { start -= 1 }
        return start
    }

    mutating func mapping(indent: Int, key: Int) throws(Outside) -> SpecNode {
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
    static func exactly<Element>(_ members: ArraySlice<Element>) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(members.count)
        array.append(contentsOf: members)
        return array
    }

    /// Yams refuses a mapping with a key twice (with the keys it names); the reader leaves it to Yams.
    static func refuseDuplicate(_ key: String, in entries: some Collection<(key: String, value: SpecNode)>, at offset: Int) throws(Outside) {
        if entries.contains(where: { $0.key == key }) { throw Outside(reason: "a key twice in a mapping", offset: offset) }
    }

    /// A mapping value, from just after its key's `:`.
    mutating func mappingValue(after index: Int, indent: Int) throws(Outside) -> SpecNode {
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
    func implicitKey(at index: Int, end: Int) throws(Outside) -> (name: String, after: Int)? {
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
    func startsPlain(_ index: Int) -> Bool {
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
}
