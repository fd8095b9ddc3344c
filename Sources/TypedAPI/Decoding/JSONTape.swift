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

    /// Nesting deeper than this is declined: the one limit of every JSON reader of ours.
    static var maximumDepth: Int { JSONScanner.maximumDepth }

    var tokens: [Token] = []
    /// Key ranges of the object being checked for a repeated key, reused between objects.
    private var seenKeys: [Range<Int>] = []

    /// Reads `bytes` into tokens; `false` when the document is not one this reader takes.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        tokens.removeAll(keepingCapacity: true)
        guard bytes.count < Int(Int32.max) else { return false }
        var scanner = Scanner(bytes: bytes)
        guard scanner.value(into: &self) else { return false }
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

/// The reading itself: recursive descent over the bytes, its tokens read by the shared scanner.
private struct Scanner {
    var scanner: JSONScanner
    private typealias Failure = JSONScanner.Failure

    init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
    }

    var position: Int { scanner.position }

    mutating func skipWhitespace() { scanner.skipWhitespace() }

    /// The value here into `tape`; false when the reader declines it.
    mutating func value(into tape: inout JSONTape) -> Bool {
        do throws(Failure) {
            try read(into: &tape)
            return true
        } catch {
            return false
        }
    }

    private mutating func read(into tape: inout JSONTape) throws(Failure) {
        scanner.skipWhitespace()
        guard let byte = scanner.current else { throw scanner.failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): try object(into: &tape)
        case UInt8(ascii: "["): try array(into: &tape)
        case UInt8(ascii: "\""): try string(into: &tape, isKey: false)
        case UInt8(ascii: "t"): try literal("true", .true, into: &tape)
        case UInt8(ascii: "f"): try literal("false", .false, into: &tape)
        case UInt8(ascii: "n"): try literal("null", .null, into: &tape)
        default:
            let number = try scanner.number()
            _ = tape.append(.init(kind: .number, isSimple: number.isWhole, start: Int32(number.start), end: Int32(number.end),
                                  next: Int32(tape.tokens.count + 1), hint: 0))
        }
    }

    private mutating func object(into tape: inout JSONTape) throws(Failure) {
        try scanner.enter()
        let index = tape.append(.init(kind: .object, isSimple: true, start: Int32(scanner.position), end: 0, next: 0, hint: 0))
        tape.tokens[index].hint = Int32(index + 1)
        scanner.position += 1
        var count = 0
        scanner.skipWhitespace()
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { throw scanner.failure("expected a key") }
                try string(into: &tape, isKey: true)
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"), "expected ':'")
                try read(into: &tape)
                count += 1
            } while try scanner.afterElement(closing: UInt8(ascii: "}"))
        }
        scanner.leave()
        tape.close(index, count: count)
        guard tape.hasUniqueKeys(index, in: scanner.bytes) else { throw scanner.failure("a key is repeated") }
    }

    private mutating func array(into tape: inout JSONTape) throws(Failure) {
        try scanner.enter()
        let index = tape.append(.init(kind: .array, isSimple: true, start: Int32(scanner.position), end: 0, next: 0, hint: 0))
        scanner.position += 1
        var count = 0
        scanner.skipWhitespace()
        if !scanner.consume(UInt8(ascii: "]")) {
            repeat {
                try read(into: &tape)
                count += 1
            } while try scanner.afterElement(closing: UInt8(ascii: "]"))
        }
        scanner.leave()
        tape.close(index, count: count)
    }

    /// A string at its opening quote: a key must be ASCII without escapes (else declined); a
    /// value's escapes are checked, and it is simple when it has none. UTF-8 is the caller's check.
    private mutating func string(into tape: inout JSONTape, isKey: Bool) throws(Failure) {
        scanner.position += 1
        let start = scanner.position
        var isSimple = true
        if let end = try scanner.plainStringEnd(from: start, asciiOnly: isKey, checksUTF8: false) {
            scanner.position = end + 1
        } else {
            guard !isKey else { throw scanner.failure("an escaped key") }
            isSimple = false
            try scanner.skipEscapedString(from: start, checksUTF8: false)
        }
        _ = tape.append(.init(kind: .string, isSimple: isSimple, start: Int32(start), end: Int32(scanner.position - 1),
                              next: Int32(tape.tokens.count + 1), hint: 0))
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind, into tape: inout JSONTape) throws(Failure) {
        let start = scanner.position
        guard scanner.consume(word) else { throw scanner.failure("unexpected character") }
        _ = tape.append(.init(kind: kind, isSimple: true, start: Int32(start), end: Int32(scanner.position),
                              next: Int32(tape.tokens.count + 1), hint: 0))
    }
}
