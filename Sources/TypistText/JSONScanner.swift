/// The one byte-level JSON scanner: RFC 8259's tokens — whitespace, strings and their escapes,
/// numbers, literals — and its nesting, with one depth limit, over bytes in memory.
///
/// Every JSON reader of ours stands on it and adds only what it builds: the script reader
/// (values along a reading plan), the fast decoder's tape, the HAR reader and the error locator.
/// So the grammar, the refusals and their words are the same everywhere, and the depth a reader
/// accepts is ``maximumDepth`` for all of them.
///
/// Every read is bounds-checked: no byte a server or a file sends can trap it. A refusal is a
/// ``Failure`` with the byte offset of the place.
package struct JSONScanner {
    /// Why the bytes are not JSON, and where.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The byte offset where the scanner stopped.
        package var offset: Int
        /// What it found there, in words (`expected ':'`).
        package var reason: String

        @inlinable
        package init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }

        package var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Arrays and objects nested deeper than this are refused, by every reader, not recursed into
    /// (`JSONDecoder`'s limit too).
    package static let maximumDepth = 512

    /// The bytes.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Where the scanner is.
    package var position: Int
    /// How many arrays and objects it is inside (see ``enter()``).
    package var depth = 0

    /// A scanner of `bytes` from `position`.
    @inlinable
    package init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// A scanner of raw `bytes` from `position`.
    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.init(bytes.assumingMemoryBound(to: UInt8.self), position: position)
    }

    // MARK: Bytes

    /// The byte here, nil at the end.
    @inlinable
    package var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Whether the scanner is past the last byte.
    @inlinable
    package var isAtEnd: Bool { position >= bytes.count }

    /// A refusal here; at the end, the reason is `unexpected end`.
    @inlinable
    package func failure(_ reason: String) -> Failure {
        Failure(offset: position, reason: position < bytes.count ? reason : "unexpected end")
    }

    /// Skips spaces, tabs and line ends.
    @inlinable
    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Moves past `byte` when it is here.
    @inlinable
    package mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Moves past `literal` (`true`, `null` …) when it is here.
    @inlinable
    package mutating func consume(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - position >= length else { return false }
        for offset in 0..<length where bytes[position + offset] != literal.utf8Start[offset] { return false }
        position += length
        return true
    }

    /// Moves past `byte`, or refuses with `reason`.
    @inlinable
    package mutating func expect(_ byte: UInt8, _ reason: StaticString) throws(Failure) {
        guard consume(byte) else { throw failure("\(reason)") }
    }

    /// After an element: a comma (`true`, more follow), `closing` (`false`, the end), or a
    /// refusal — both moved past, whitespace before them skipped.
    @inlinable
    package mutating func afterElement(closing: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        if consume(UInt8(ascii: ",")) { return true }
        if consume(closing) { return false }
        throw failure(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
    }

    // MARK: Nesting

    /// One array or object further in; refused past ``maximumDepth``.
    @inlinable
    package mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels") }
    }

    /// One array or object further out.
    @inlinable
    package mutating func leave() { depth -= 1 }

    // MARK: Strings

    /// Where the string whose text starts at `start` (just after its opening quote) closes: the
    /// closing quote's index when the text has no escape, nil when it has one (read it with
    /// ``escapedString(from:)`` or ``skipEscapedString(from:)``). Its UTF-8 is checked.
    ///
    /// - Parameters:
    ///   - asciiOnly: Whether a byte that is not ASCII is refused too (a key a reader compares
    ///     byte for byte).
    ///   - checksUTF8: Whether the text's UTF-8 is checked (false when the caller checked the
    ///     whole document's already).
    /// - Throws: At a control character, invalid UTF-8 or a missing quote.
    @inlinable
    package func plainStringEnd(from start: Int, asciiOnly: Bool = false, checksUTF8: Bool = true) throws(Failure) -> Int? {
        var index = start
        // Until a byte that is not ASCII comes, the runs stop at one too (to know the UTF-8 must
        // be checked); after it, they pass over such bytes.
        var stopsAtNonASCII = asciiOnly || checksUTF8
        var sawNonASCII = false
        while true {
            index = ByteScan.stringRunEnd(in: bytes, from: index, ascii: stopsAtNonASCII)
            guard index < bytes.count else { throw Failure(offset: bytes.count, reason: "unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if sawNonASCII, checksUTF8, !UTF8Check.isValid(UnsafeBufferPointer(rebasing: bytes[start..<index])) {
                    throw Failure(offset: start, reason: "a string is not valid UTF-8")
                }
                return index
            case UInt8(ascii: "\\"): return nil
            case ..<0x20: throw Failure(offset: index, reason: "a control character in a string must be escaped")
            default:
                // Not ASCII (the run stops at none other).
                if asciiOnly { throw Failure(offset: index, reason: "a key that is not ASCII") }
                sawNonASCII = true
                stopsAtNonASCII = false
                index += 1
            }
        }
    }

    /// The string at the scanner (its opening quote), decoded; the scanner moves past it.
    @inlinable
    package mutating func string(_ reason: StaticString = "expected a string") throws(Failure) -> String {
        try expect(UInt8(ascii: "\""), reason)
        let start = position
        guard let end = try plainStringEnd(from: start) else { return try escapedString(from: start) }
        position = end + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The rest of a string with an escape whose text starts at `start`, decoded; the scanner,
    /// at or before its first `\`, moves past the closing quote.
    package mutating func escapedString(from start: Int) throws(Failure) -> String {
        do throws(JSONEscape.Refusal) {
            return try JSONEscape.escapedString(UnsafeRawBufferPointer(bytes), from: start, at: &position)
        } catch {
            throw failure(error.message)
        }
    }

    /// The string at the scanner, checked (escapes, UTF-8, control characters) and passed over.
    @inlinable
    package mutating func skipString(_ reason: StaticString = "expected a string") throws(Failure) {
        try expect(UInt8(ascii: "\""), reason)
        let start = position
        guard let end = try plainStringEnd(from: start) else { return try skipEscapedString(from: start) }
        position = end + 1
    }

    /// The rest of a string with an escape, checked as ``escapedString(from:)`` checks it, not kept.
    package mutating func skipEscapedString(from start: Int, checksUTF8: Bool = true) throws(Failure) {
        var discard = DiscardingSink()
        while true {
            position = ByteScan.stringRunEnd(in: bytes, from: position)
            guard position < bytes.count else { throw failure("unterminated string") }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                guard !checksUTF8 || UTF8Check.isValid(UnsafeBufferPointer(rebasing: bytes[start..<position])) else {
                    throw Failure(offset: start, reason: "a string is not valid UTF-8")
                }
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 1
                if let refusal = JSONEscape.decode(UnsafeRawBufferPointer(bytes), at: &position, into: &discard) {
                    throw failure(refusal)
                }
            default:
                throw failure("a control character in a string must be escaped")
            }
        }
    }

    // MARK: Numbers

    /// A number's place in the bytes, its grammar checked.
    package struct Number {
        @inlinable
        package init(start: Int, end: Int, isWhole: Bool) {
            self.start = start
            self.end = end
            self.isWhole = isWhole
        }

        /// Its first byte.
        package var start: Int
        /// The byte after it.
        package var end: Int
        /// Whether it has neither fraction nor exponent.
        package var isWhole: Bool
    }

    /// The number at the scanner, by RFC 8259's grammar (no leading zeros, no `+`, digits after
    /// `.` and in an exponent); the scanner moves past it.
    @inlinable
    package mutating func number() throws(Failure) -> Number {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else {
            throw failure(position == start ? "unexpected character" : "a '-' must be followed by a digit")
        }
        guard bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else {
            throw Failure(offset: integerStart + 1, reason: "a number cannot start with 0 followed by more digits")
        }
        var isWhole = true
        if consume(UInt8(ascii: ".")) {
            isWhole = false
            guard digits() > 0 else { throw failure("a '.' in a number must be followed by a digit") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isWhole = false
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw failure("an exponent needs digits") }
        }
        return Number(start: start, end: position, isWhole: isWhole)
    }

    /// The whole number at the scanner, when it is one `Int` holds; the scanner moves past it.
    /// Refused (the scanner where it was) for a fraction, an exponent or a number out of range.
    @inlinable
    package mutating func int() throws(Failure) -> Int {
        let start = position
        let negative = consume(UInt8(ascii: "-"))
        let digitsStart = position
        var result = 0
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else {
                defer { position = start }
                throw failure("a whole number out of Int's range")
            }
            result = sum
            position += 1
        }
        guard position > digitsStart, bytes[digitsStart] != UInt8(ascii: "0") || position == digitsStart + 1,
              position == bytes.count || (bytes[position] != UInt8(ascii: ".") && bytes[position] | 0x20 != UInt8(ascii: "e"))
        else {
            defer { position = start }
            throw failure("not a whole number")
        }
        return result
    }

    /// The number at the scanner as a `Double` (a finite one); the scanner moves past it.
    @inlinable
    package mutating func double() throws(Failure) -> Double {
        let number = try number()
        // Whole numbers of up to 15 digits, the usual case, without a string.
        if number.isWhole, number.end - number.start <= 15 {
            var index = number.start
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var whole = 0
            while index < number.end {
                whole = whole * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return Double(negative ? -whole : whole)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[number.start..<number.end]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(offset: number.start, reason: "'\(text)' is not a number a Double holds")
        }
        return value
    }

    /// How many digits are at the scanner; it moves past them.
    @inlinable
    package mutating func digits() -> Int {
        let from = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position - from
    }

    // MARK: Values

    /// The value at the scanner (whitespace before it skipped), checked and passed over.
    package mutating func skipValue() throws(Failure) {
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"):
            try enter()
            position += 1
            skipWhitespace()
            if !consume(UInt8(ascii: "}")) {
                repeat {
                    skipWhitespace()
                    try skipString("expected a key")
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"), "expected ':'")
                    try skipValue()
                } while try afterElement(closing: UInt8(ascii: "}"))
            }
            leave()
        case UInt8(ascii: "["):
            try enter()
            position += 1
            skipWhitespace()
            if !consume(UInt8(ascii: "]")) {
                repeat {
                    try skipValue()
                } while try afterElement(closing: UInt8(ascii: "]"))
            }
            leave()
        case UInt8(ascii: "t"): guard consume("true") else { throw failure("unexpected character") }
        case UInt8(ascii: "f"): guard consume("false") else { throw failure("unexpected character") }
        case UInt8(ascii: "n"): guard consume("null") else { throw failure("unexpected character") }
        default: _ = try number()
        }
    }

    /// How deeply the arrays and objects of `text` nest (brackets inside strings do not count),
    /// read without checking the rest of its grammar: for a framer that refuses a line too deep
    /// before any reader recurses into it.
    package static func deepestNesting(in text: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                // To the closing quote, each escape stepped over.
                index += 1
                while true {
                    index = ByteScan.stringRunEnd(in: text, from: index)
                    guard index < text.count else { return deepest }
                    if text[index] == UInt8(ascii: "\\") { index += 2 } else if text[index] == UInt8(ascii: "\"") { break } else { index += 1 }
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return deepest
    }

    /// The line (from 1) of the byte at `offset`.
    package func line(at offset: Int) -> Int {
        var line = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            index = ByteScan.lineEnd(in: UnsafeBufferPointer(rebasing: bytes[..<end]), from: index)
            if index < end {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }
        return line
    }
}

/// Where the bytes of a string that is only checked go: nowhere.
package struct DiscardingSink: ByteSink {
    @inlinable package init() {}
    @inlinable package mutating func append(_ byte: UInt8) {}
    @inlinable package mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {}
}
