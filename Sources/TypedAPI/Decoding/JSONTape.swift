import TypistText

/// One JSON document read into a flat list of tokens, in document order, for ``TapeDecoder``.
///
/// The reading is stricter than `JSONDecoder`'s, never looser: a document it takes, `JSONDecoder`
/// takes too. What it declines (returns `nil` for) goes to `JSONDecoder`, which decides — so the
/// reader only needs to be right about what it accepts:
/// - RFC 8259 grammar only (no JSON5, no leading zeros, nothing after the value but whitespace);
/// - at most ``maximumDepth`` nested arrays and objects;
/// - keys without escapes and in ASCII (a `JSONDecoder` key lookup compares Unicode strings, which
///   can equal where bytes differ), and no key twice in one object (the decoder finds a key from
///   where it found the last one; `JSONDecoder` keeps the first of two);
/// - escapes checked, a `\u` surrogate only in a pair; the bytes are UTF-8 (checked by the caller).
struct JSONTape {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value, or one key of an object (a string token before its value).
    struct Token {
        var kind: Kind
        /// A string without escapes; a number without fraction or exponent.
        var isSimple: Bool
        /// Strings: the first byte after the opening quote. Numbers: the first byte.
        var start: Int32
        /// Strings: the closing quote. Numbers: the byte after. Arrays: their count of elements;
        /// objects: their count of keys.
        var end: Int32
        /// The token after this value (after the last token of an array's or object's contents).
        var next: Int32
        /// Objects: the token of the key to look at first (after the one found last).
        var hint: Int32
    }

    /// Nesting deeper than this is declined (`JSONDecoder` reads deeper).
    static let maximumDepth = 128

    var tokens: [Token] = []
    /// Key ranges of the object being checked for a repeated key, reused between objects.
    private var seenKeys: [Range<Int>] = []

    /// Reads `bytes` into tokens; `false` when the document is not one this reader takes.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        tokens.removeAll(keepingCapacity: true)
        guard bytes.count < Int(Int32.max) else { return false }
        var scanner = Scanner(bytes: bytes)
        guard scanner.value(into: &self, depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.position == bytes.count
    }

    fileprivate mutating func append(_ token: Token) -> Int {
        tokens.append(token)
        return tokens.count - 1
    }

    fileprivate mutating func close(_ index: Int, count: Int) {
        tokens[index].end = Int32(count)
        tokens[index].next = Int32(tokens.count)
    }

    /// Where a key token's text is in the bytes.
    private func keyBytes(_ key: Int) -> Range<Int> { Int(tokens[key].start)..<Int(tokens[key].end) }

    /// The next key token of the object after `key` (a key token is followed by its value's).
    private func key(after key: Int) -> Int { Int(tokens[key + 1].next) }

    /// Whether the object at `index` names no key twice: a pairwise look for small objects, one
    /// sort of its key ranges for large ones.
    fileprivate mutating func hasUniqueKeys(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = Int(tokens[index].end)
        guard count > 1 else { return true }
        let end = Int(tokens[index].next)
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && bytes[a].elementsEqual(bytes[b])
        }
        if count <= 16 {
            // Each key against those after it, in place.
            var key = index + 1
            while key < end {
                let range = keyBytes(key)
                var other = self.key(after: key)
                while other < end {
                    if same(range, keyBytes(other)) { return false }
                    other = self.key(after: other)
                }
                key = self.key(after: key)
            }
            return true
        }
        seenKeys.removeAll(keepingCapacity: true)
        var key = index + 1
        while key < end {
            seenKeys.append(keyBytes(key))
            key = self.key(after: key)
        }
        seenKeys.sort { a, b in bytes[a].lexicographicallyPrecedes(bytes[b]) }
        for i in 1..<seenKeys.count where same(seenKeys[i], seenKeys[i - 1]) { return false }
        return true
    }
}

/// The reading itself: recursive descent over the bytes.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// What an escape decodes to, not kept.
    private var discarded: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func value(into tape: inout JSONTape, depth: Int) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object(into: &tape, depth: depth + 1)
        case UInt8(ascii: "["): return array(into: &tape, depth: depth + 1)
        case UInt8(ascii: "\""): return string(into: &tape, isKey: false)
        case UInt8(ascii: "t"): return literal("true", .true, into: &tape)
        case UInt8(ascii: "f"): return literal("false", .false, into: &tape)
        case UInt8(ascii: "n"): return literal("null", .null, into: &tape)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number(into: &tape)
        default: return false
        }
    }

    private mutating func object(into tape: inout JSONTape, depth: Int) -> Bool {
        guard depth <= JSONTape.maximumDepth else { return false }
        let index = tape.append(.init(kind: .object, isSimple: true, start: Int32(position), end: 0, next: 0, hint: 0))
        tape.tokens[index].hint = Int32(index + 1)
        position += 1
        var count = 0
        var more = !closes(UInt8(ascii: "}"))
        while more {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), string(into: &tape, isKey: true) else { return false }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            guard value(into: &tape, depth: depth), let next = afterElement(closing: UInt8(ascii: "}")) else { return false }
            count += 1
            more = next
        }
        tape.close(index, count: count)
        return tape.hasUniqueKeys(index, in: bytes)
    }

    private mutating func array(into tape: inout JSONTape, depth: Int) -> Bool {
        guard depth <= JSONTape.maximumDepth else { return false }
        let index = tape.append(.init(kind: .array, isSimple: true, start: Int32(position), end: 0, next: 0, hint: 0))
        position += 1
        var count = 0
        var more = !closes(UInt8(ascii: "]"))
        while more {
            guard value(into: &tape, depth: depth), let next = afterElement(closing: UInt8(ascii: "]")) else { return false }
            count += 1
            more = next
        }
        tape.close(index, count: count)
        return true
    }

    /// Whether the container closes at once (it is empty), moving past its closing byte if so.
    private mutating func closes(_ closing: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == closing else { return false }
        position += 1
        return true
    }

    /// After an element: a comma (more follow: `true`), the closing byte (the end: `false`), or
    /// anything else (`nil`, not JSON).
    private mutating func afterElement(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closing:
            position += 1
            return false
        default:
            return nil
        }
    }

    private mutating func string(into tape: inout JSONTape, isKey: Bool) -> Bool {
        position += 1
        let start = position
        var isSimple = true
        while true {
            // Plain characters in runs; what ends one is the quote, an escape, or a refusal.
            position = ByteScan.stringRunEnd(in: bytes, from: position, ascii: isKey)
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                _ = tape.append(.init(kind: .string, isSimple: isSimple, start: Int32(start), end: Int32(position),
                                      next: Int32(tape.tokens.count + 1), hint: 0))
                position += 1
                return true
            case UInt8(ascii: "\\") where !isKey:
                isSimple = false
                guard escape() else { return false }
            default:
                return false   // A control character, or in a key an escape or a byte not ASCII.
            }
        }
    }

    /// One escape, `position` at its backslash, checked by the one reading of escapes we have
    /// (a `\u` high surrogate must be followed by a low one); what it decodes to is dropped.
    private mutating func escape() -> Bool {
        position += 1
        discarded.removeAll(keepingCapacity: true)
        return JSONEscape.decode(UnsafeRawBufferPointer(bytes), at: &position, into: &discarded) == nil
    }

    private mutating func number(into tape: inout JSONTape) -> Bool {
        let start = position
        var isSimple = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { return false }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() else { return false }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isSimple = false
            position += 1
            guard digits() else { return false }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isSimple = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() else { return false }
        }
        _ = tape.append(.init(kind: .number, isSimple: isSimple, start: Int32(start), end: Int32(position),
                              next: Int32(tape.tokens.count + 1), hint: 0))
        return true
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        let start = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position > start
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind, into tape: inout JSONTape) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        _ = tape.append(.init(kind: kind, isSimple: true, start: Int32(position), end: Int32(position + count),
                              next: Int32(tape.tokens.count + 1), hint: 0))
        position += count
        return true
    }
}
