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
    /// The tokens, the nesting and the refusals: the scanner every JSON reader of ours shares.
    private var scanner: JSONScanner
    private let text: ResponseText
    private let snakeCase: Bool
    /// Untyped: a repeated key keeps its last value, as every JSON object reader does, where a
    /// typed read gives up and lets the decoder decide.
    private let untyped: Bool
    /// JSON keys already converted from snake case, per record plan: the field each names, or nil
    /// for a key the plan does not read (cached too, so it is converted once).
    private var convertedKeys: [ObjectIdentifier: [[UInt8]: Int?]] = [:]

    /// Why a text is not JSON, and where (`invalid JSON at byte 12: expected ':'`).
    package typealias Failure = JSONScanner.Failure
    private typealias GiveUp = JSONScanner.Failure

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
        self.scanner = JSONScanner(bytes)
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
        try read(body, plan: .dynamic, snakeCase: false, untyped: true)
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
                reader.scanner.skipWhitespace()
                guard reader.scanner.isAtEnd else { throw reader.stop("unexpected text after the JSON value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Gives up here, saying why.
    private func stop(_ reason: String) -> GiveUp { scanner.failure(reason) }

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
            defer { scanner.leave() }
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
            defer { scanner.leave() }
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
        guard let byte = scanner.current else { throw stop("unexpected end") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return try read(.dictionary(.dynamic))
        case UInt8(ascii: "["): return try read(.array(.dynamic))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try read(.bool)
        case UInt8(ascii: "n"):
            guard consume("null") else { throw stop("unexpected character") }
            return .null
        default:
            if let whole = try? readInt() { return .int(whole) }
            return .double(try readDouble())
        }
    }

    private mutating func readRecord(_ record: RecordPlan) throws(GiveUp) -> Value {
        guard let plan = record.definition else { throw stop("a record plan that was never defined") }
        let type = plan.type
        try enter()
        defer { scanner.leave() }
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
        let start = scanner.position
        guard let end = try scanString(from: start) else { return RecordField(.string(try readEscapedString(from: start))) }
        scanner.position = end + 1
        guard let offset = UInt32(exactly: start), let count = UInt32(exactly: end - start) else {
            return RecordField(.string(String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<end]), as: UTF8.self)))
        }
        return .text(offset: offset, count: count)
    }

    /// The index of the field a key names, or nil for a key the plan does not read.
    private mutating func readKey(of plan: RecordPlan.Definition, expected: Int) throws(GiveUp) -> Int? {
        try expect(UInt8(ascii: "\""), "expected a key")
        let start = scanner.position
        // Checked like any string (control characters, UTF-8), also when the plan does not read it.
        guard let end = try scanString(from: start) else {
            // An escaped key: rare; decoded in full, then looked up.
            let key = try readEscapedString(from: start)
            return snakeCase ? convertedField(Array(key.utf8), plan) : plan.field(named: key)
        }
        let key = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: scanner.bytes[start..<end]))
        scanner.position = end + 1
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

    private mutating func convertedField(_ key: [UInt8], _ plan: RecordPlan.Definition) -> Int? {
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

    private mutating func readInt() throws(GiveUp) -> Int { try scanner.int() }

    private mutating func readDouble() throws(GiveUp) -> Double { try scanner.double() }

    private mutating func readString(_ reason: StaticString = "expected a string") throws(GiveUp) -> String {
        try scanner.string(reason)
    }

    /// The closing quote of a string whose text starts at `start`, or nil when it has an escape.
    private func scanString(from start: Int) throws(GiveUp) -> Int? { try scanner.plainStringEnd(from: start) }

    private mutating func readEscapedString(from start: Int) throws(GiveUp) -> String {
        try scanner.escapedString(from: start)
    }

    /// Skips a value the plan does not read, checking its syntax as it goes.
    private mutating func skipValue() throws(GiveUp) { try scanner.skipValue() }

    // MARK: Bytes

    private mutating func enter() throws(GiveUp) { try scanner.enter() }

    private mutating func skipWhitespace() { scanner.skipWhitespace() }

    private mutating func consume(_ byte: UInt8) -> Bool { scanner.consume(byte) }

    private mutating func consume(_ literal: StaticString) -> Bool { scanner.consume(literal) }

    private mutating func expect(_ byte: UInt8, _ reason: StaticString) throws(GiveUp) { try scanner.expect(byte, reason) }
}
