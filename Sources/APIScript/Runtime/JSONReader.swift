import Foundation
import TypistText

/// The one reader from JSON bytes to script values, with JSON's grammar exactly (RFC 8259).
///
/// It reads in one pass, two ways:
/// - ``value(from:plan:snakeCase:)`` follows a ``ReadingPlan`` for a typed response and is strict:
///   anything that is not plainly what the plan expects (a missing or repeated key, a number of the
///   wrong kind, invalid UTF-8, a nesting deeper than 512) makes it give up with nil, and the caller
///   decodes the body the typed way, which then accepts or explains — so errors stay Codable's.
/// - ``parse(_:)`` reads any JSON — `json(_:)`, an untyped call's `.json`, a value that decodes
///   itself — into dynamic values (objects as dictionaries, numbers `Int` when whole and in range,
///   `Double` otherwise, a repeated key's last value), or says where and why the text is not JSON.
///
/// Records are laid out in one allocation each (``RecordFields``): their string fields stay in the
/// body, which the records share, and become strings when a script reads them. The whole body is
/// still checked here (structure, UTF-8, control characters), so a response is accepted or refused
/// at the call, never later. Every read is bounds-checked: no byte a server sends can trap it.
package struct JSONReader {
    private let bytes: UnsafeRawBufferPointer
    private let text: ResponseText
    private var index = 0
    private var depth = 0
    private let snakeCase: Bool
    /// Untyped: a repeated key keeps its last value, as every JSON object reader does, where a
    /// typed read gives up and lets the decoder decide.
    private let untyped: Bool
    /// JSON keys already converted from snake case, per record plan: the field each names, or nil
    /// for a key the plan does not read (cached too, so it is converted once).
    private var convertedKeys: [ObjectIdentifier: [[UInt8]: Int?]] = [:]

    /// Where and why the reading stopped.
    private struct GiveUp: Error {
        var offset: Int
        var reason: String
    }

    /// Why a text is not JSON, and where.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The byte offset where the reader stopped.
        package var offset: Int
        /// What it found there, in words (`expected ':'`).
        package var reason: String

        package var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// The fields of a record whose keys have come.
    private struct FieldSet {
        private var first: UInt64 = 0
        private var rest: Set<Int> = []

        /// Adds `field`; false when it was there already.
        mutating func insert(_ field: Int) -> Bool {
            guard field < 64 else { return rest.insert(field).inserted }
            let bit: UInt64 = 1 << UInt64(field)
            defer { first |= bit }
            return first & bit == 0
        }

        func contains(_ field: Int) -> Bool {
            field < 64 ? first & (1 << UInt64(field)) != 0 : rest.contains(field)
        }
    }

    private init(bytes: UnsafeRawBufferPointer, text: ResponseText, snakeCase: Bool, untyped: Bool) {
        self.bytes = bytes
        self.text = text
        self.snakeCase = snakeCase
        self.untyped = untyped
    }

    /// The value of `body` under `plan`, or nil when the typed decoding must decide.
    ///
    /// - Parameter snakeCase: Whether keys are converted from snake case, as
    ///   `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` does.
    package static func value(from body: Data, plan: ReadingPlan, snakeCase: Bool) -> Value? {
        try? read(body, plan: plan, snakeCase: snakeCase, untyped: false)
    }

    /// Any JSON text as a dynamic value, or where and why it is not JSON.
    package static func parse(_ body: Data) throws(Failure) -> Value {
        do throws(GiveUp) {
            return try read(body, plan: .dynamic, snakeCase: false, untyped: true)
        } catch {
            throw Failure(offset: error.offset, reason: error.reason)
        }
    }

    /// The values of a JSON Lines body — two or more lines, each one JSON value (blank lines
    /// aside) — or nil for anything else. httpbin's `/stream/n` sends one as `application/json`.
    package static func parseLines(_ body: Data) -> [Value]? {
        guard body.contains(UInt8(ascii: "\n")) else { return nil }
        var values: [Value] = []
        for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            guard let value = try? parse(Data(line)) else { return nil }
            values.append(value)
        }
        return values.count >= 2 ? values : nil
    }

    private static func read(_ body: Data, plan: ReadingPlan, snakeCase: Bool, untyped: Bool) throws(GiveUp) -> Value {
        let text = ResponseText(body)
        // `withUnsafeBytes` rethrows untyped errors: the outcome comes out as a result.
        let outcome = body.withUnsafeBytes { bytes -> Result<Value, GiveUp> in
            var reader = JSONReader(bytes: bytes, text: text, snakeCase: snakeCase, untyped: untyped)
            do throws(GiveUp) {
                let value = try reader.read(plan)
                reader.skipWhitespace()
                guard reader.index == bytes.count else { throw reader.stop("unexpected text after the JSON value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Gives up here, saying why.
    private func stop(_ reason: String) -> GiveUp {
        GiveUp(offset: index, reason: index < bytes.count ? reason : "unexpected end")
    }

    // MARK: Values

    private mutating func read(_ plan: ReadingPlan) throws(GiveUp) -> Value {
        skipWhitespace()
        switch plan {
        case .int: return .int(try readInt())
        case .double: return .double(try readDouble())
        case .bool:
            if consume("true") { return .bool(true) }
            if consume("false") { return .bool(false) }
            throw stop("unexpected character")
        case .string: return .string(try readString())
        case .optional(let wrapped):
            return consume("null") ? .null : try read(wrapped)
        case .array(let element):
            try enter()
            defer { depth -= 1 }
            try expect(UInt8(ascii: "["), "expected '['")
            var values: [Value] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(values) }
            repeat {
                values.append(try read(element))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "expected ',' or ']'")
            return .array(values)
        case .dictionary(let element):
            try enter()
            defer { depth -= 1 }
            try expect(UInt8(ascii: "{"), "expected '{'")
            var entries: [String: Value] = [:]
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .dictionary(entries) }
            repeat {
                skipWhitespace()
                let key = try readString("expected a key")
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':'")
                guard entries.updateValue(try read(element), forKey: key) == nil || untyped else { throw stop("a key is repeated") }
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "expected ',' or '}'")
            return .dictionary(entries)
        case .record(let record):
            return try readRecord(record)
        case .dynamic:
            return try readDynamic()
        }
    }

    /// Any JSON value, as the script's dynamic values hold it: objects become dictionaries,
    /// numbers `Int` when they are whole and fit, `Double` otherwise.
    private mutating func readDynamic() throws(GiveUp) -> Value {
        skipWhitespace()
        guard index < bytes.count else { throw stop("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return try read(.dictionary(.dynamic))
        case UInt8(ascii: "["): return try read(.array(.dynamic))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try read(.bool)
        case UInt8(ascii: "n"):
            guard consume("null") else { throw stop("unexpected character") }
            return .null
        default:
            let start = index
            if let whole = try? readInt() { return .int(whole) }
            index = start
            return .double(try readDouble())
        }
    }

    private mutating func readRecord(_ plan: RecordPlan) throws(GiveUp) -> Value {
        guard let type = plan.type else { throw stop("a record plan that was never defined") }
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "{"), "expected '{'")
        let count = plan.fields.count
        // Read straight into the record's one allocation, every field nil until its key comes.
        let fields = RecordFields.make(text: text, count: count) { $0.initialize(repeating: .null, count: count) }
        var seen = FieldSet()
        var read = 0
        skipWhitespace()
        if !consume(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                // Keys usually come in field order: the next field's key is tried first.
                let field = try readKey(of: plan, expected: read)
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':'")
                guard let field else {
                    try skipValue()
                    skipWhitespace()
                    continue
                }
                guard seen.insert(field) else { throw stop("a key is repeated") }
                fields.store(try readField(plan.fields[field]), at: field)
                read += 1
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "expected ',' or '}'")
        }
        if read < count {
            // A missing field stays nil when it is optional; otherwise the typed decoding explains.
            for field in 0..<count where !seen.contains(field) {
                guard case .optional = plan.fields[field] else { throw stop("a required key is missing") }
            }
        }
        return .record(Record(type: type, fields: fields))
    }

    /// A record's field: scalars in place, strings as ranges of the body, the rest boxed.
    private mutating func readField(_ plan: ReadingPlan) throws(GiveUp) -> RecordField {
        skipWhitespace()
        switch plan {
        case .int: return .int(try readInt())
        case .double: return .double(try readDouble())
        case .string: return try readTextField()
        case .optional(let wrapped): return consume("null") ? .null : try readField(wrapped)
        default: return RecordField(try read(plan))
        }
    }

    /// A string left in the body when it has no escapes (and the body is under 4 GiB); made now
    /// otherwise.
    private mutating func readTextField() throws(GiveUp) -> RecordField {
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = index
        guard let end = try scanString(from: start) else { return RecordField(.string(try readEscapedString(from: start))) }
        index = end + 1
        guard let offset = UInt32(exactly: start), let count = UInt32(exactly: end - start) else {
            return RecordField(.string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
        }
        return .text(offset: offset, count: count)
    }

    /// The index of the field a key names, or nil for a key the plan does not read.
    private mutating func readKey(of plan: RecordPlan, expected: Int) throws(GiveUp) -> Int? {
        try expect(UInt8(ascii: "\""), "expected a key")
        let start = index
        // Checked like any string (control characters, UTF-8), also when the plan does not read it.
        guard let end = try scanString(from: start) else {
            // An escaped key: rare; decoded in full, then looked up.
            let key = try readEscapedString(from: start)
            return snakeCase ? convertedField(Array(key.utf8), plan) : plan.field(named: key)
        }
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        index = end + 1
        if snakeCase { return convertedField(Array(key), plan) }
        if plan.hasNonASCIIKey || key.contains(where: { $0 >= 0x80 }) {
            return plan.field(named: String(decoding: key, as: UTF8.self))
        }
        // Keys usually come in the order of the fields: try the next one first.
        func same(_ candidate: [UInt8]) -> Bool {
            guard candidate.count == key.count else { return false }
            return candidate.withUnsafeBytes { stored in
                guard let left = stored.baseAddress, let right = key.baseAddress else { return key.isEmpty }
                return memcmp(left, right, key.count) == 0
            }
        }
        if expected < plan.keys.count, same(plan.keys[expected]) { return expected }
        return plan.keys.firstIndex(where: same)
    }

    private mutating func convertedField(_ key: [UInt8], _ plan: RecordPlan) -> Int? {
        let identifier = ObjectIdentifier(plan)
        if let known = convertedKeys[identifier]?[key] { return known }
        let field = plan.field(named: Self.convertFromSnakeCase(String(decoding: key, as: UTF8.self)))
        convertedKeys[identifier, default: [:]][key] = .some(field)
        return field
    }

    /// Foundation's `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, rule for rule.
    package static func convertFromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        let joined = words.count == 1
            ? String(key[first...last])
            : ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    // MARK: Scalars

    private mutating func readInt() throws(GiveUp) -> Int {
        let negative = consume(UInt8(ascii: "-"))
        let start = index
        var result = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(Int(digit))
                                            : times.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { throw stop("a whole number out of Int's range") }
            result = sum
            index += 1
        }
        // No digits, a leading zero, or a fraction or exponent: the typed way decides.
        guard index > start, bytes[start] != UInt8(ascii: "0") || index == start + 1 else { throw stop("not a whole number") }
        if index < bytes.count, case let next = bytes[index],
            next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
        {
            throw stop("not a whole number")
        }
        return result
    }

    private mutating func readDouble() throws(GiveUp) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] &- UInt8(ascii: "0") < 10 { reader.index += 1 }
            return reader.index - from
        }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw stop(index == start ? "unexpected character" : "a '-' must be followed by a digit") }
        guard bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else {
            throw GiveUp(offset: integerStart + 1, reason: "a number cannot start with 0 followed by more digits")
        }
        if consume(UInt8(ascii: ".")) { guard digits(&self) > 0 else { throw stop("a '.' in a number must be followed by a digit") } }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits(&self) > 0 else { throw stop("an exponent needs digits") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw GiveUp(offset: start, reason: "'\(text)' is not a number a Double holds") }
        return value
    }

    private mutating func readString(_ reason: StaticString = "expected a string") throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""), reason)
        let start = index
        guard let end = try scanString(from: start) else { return try readEscapedString(from: start) }
        index = end + 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Finds the closing quote of a string whose text starts at `start`: its index when the text
    /// has no escape, nil when it has one (and ``readEscapedString(from:)`` must read it). Gives up
    /// on a control character, invalid UTF-8 or a missing quote.
    ///
    /// Eight bytes at a time: a word with no quote, backslash, control or non-ASCII byte is passed
    /// over whole; in a word with one, the scan goes straight to the first such byte (the lowest
    /// flag of each test below is exact: a borrow only reaches the bytes above it). Non-ASCII text
    /// is validated at the end.
    private func scanString(from start: Int) throws(GiveUp) -> Int? {
        guard let base = bytes.baseAddress else { throw GiveUp(offset: start, reason: "unterminated string") }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // Nonzero when some byte of `word` is zero (and maybe, above it, falsely).
        func zeroByte(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & high }
        var position = start
        var ascii = true
        while true {
            if position + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let special = zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C))
                    | ((word &- ones &* 0x20) & ~word & high) | (word & high)
                if special == 0 {
                    position += 8
                    continue
                }
                position += special.trailingZeroBitCount >> 3
            }
            guard position < count else { throw GiveUp(offset: position, reason: "unterminated string") }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            switch byte {
            case UInt8(ascii: "\""):
                if !ascii {
                    guard UTF8Check.isValid(UnsafeRawBufferPointer(rebasing: bytes[start..<position])) else { throw GiveUp(offset: start, reason: "a string is not valid UTF-8") }
                }
                return position
            case UInt8(ascii: "\\"): return nil
            case ..<0x20: throw GiveUp(offset: position, reason: "a control character in a string must be escaped")
            case 0x80...: ascii = false
            default: break
            }
            position += 1
        }
    }

    private mutating func readEscapedString(from start: Int) throws(GiveUp) -> String {
        do throws(JSONEscape.Refusal) {
            return try JSONEscape.escapedString(bytes, from: start, at: &index)
        } catch {
            throw stop(error.message)
        }
    }

    /// Skips a value the plan does not read, checking its syntax as it goes.
    private mutating func skipValue() throws(GiveUp) {
        skipWhitespace()
        guard index < bytes.count else { throw stop("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return }
            repeat {
                skipWhitespace()
                _ = try readString("expected a key")
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':'")
                try skipValue()
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "expected ',' or '}'")
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return }
            repeat {
                try skipValue()
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "expected ',' or ']'")
        case UInt8(ascii: "t"): guard consume("true") else { throw stop("unexpected character") }
        case UInt8(ascii: "f"): guard consume("false") else { throw stop("unexpected character") }
        case UInt8(ascii: "n"): guard consume("null") else { throw stop("unexpected character") }
        default: _ = try readDouble()
        }
    }

    // MARK: Bytes

    private mutating func enter() throws(GiveUp) {
        depth += 1
        guard depth <= 512 else { throw stop("nested too deeply") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consume(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(expected)
        }
        if matches { index += length }
        return matches
    }

    private mutating func expect(_ byte: UInt8, _ reason: StaticString) throws(GiveUp) {
        guard consume(byte) else { throw stop("\(reason)") }
    }
}
