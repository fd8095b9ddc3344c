import APIScript
import Foundation

/// Reads JSON bytes into script values following a ``ReadingPlan``, in one pass.
///
/// It is strict: anything that is not plainly what the plan expects (a missing or repeated key, a
/// number of the wrong kind, invalid UTF-8, a nesting deeper than 512) makes it give up with nil,
/// and the caller decodes the body the typed way, which then accepts or explains.
///
/// Records are laid out in one allocation each (``RecordFields``): their string fields stay in the
/// body, which the records share, and become strings when a script reads them. The whole body is
/// still checked here (structure, UTF-8, control characters), so a response is accepted or refused
/// at the call, never later.
struct PlannedJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private let text: ResponseText
    private var index = 0
    private var depth = 0
    private let snakeCase: Bool
    /// JSON keys already converted from snake case, per record plan: the field each names, or nil
    /// for a key the plan does not read (cached too, so it is converted once).
    private var convertedKeys: [ObjectIdentifier: [[UInt8]: Int?]] = [:]

    private struct GiveUp: Error {}

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

    private init(bytes: UnsafeRawBufferPointer, text: ResponseText, snakeCase: Bool) {
        self.bytes = bytes
        self.text = text
        self.snakeCase = snakeCase
    }

    /// The value of `body` under `plan`, or nil when the typed decoding must decide.
    static func value(from body: Data, plan: ReadingPlan, decoder: JSONDecoder) -> Value? {
        let snakeCase: Bool
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: snakeCase = false
        case .convertFromSnakeCase: snakeCase = true
        default: return nil
        }
        guard !decoder.allowsJSON5, !decoder.assumesTopLevelDictionary else { return nil }
        let text = ResponseText(body)
        return body.withUnsafeBytes { bytes in
            var reader = PlannedJSONReader(bytes: bytes, text: text, snakeCase: snakeCase)
            do throws(GiveUp) {
                let value = try reader.read(plan)
                reader.skipWhitespace()
                return reader.index == bytes.count ? value : nil
            } catch {
                return nil
            }
        }
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
            throw GiveUp()
        case .string: return .string(try readString())
        case .optional(let wrapped):
            return consume("null") ? .null : try read(wrapped)
        case .array(let element):
            try enter()
            defer { depth -= 1 }
            try expect(UInt8(ascii: "["))
            var values: [Value] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(values) }
            repeat {
                values.append(try read(element))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return .array(values)
        case .dictionary(let element):
            try enter()
            defer { depth -= 1 }
            try expect(UInt8(ascii: "{"))
            var entries: [String: Value] = [:]
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .dictionary(entries) }
            repeat {
                skipWhitespace()
                let key = try readString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                guard entries.updateValue(try read(element), forKey: key) == nil else { throw GiveUp() }
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
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
        guard index < bytes.count else { throw GiveUp() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return try read(.dictionary(.dynamic))
        case UInt8(ascii: "["): return try read(.array(.dynamic))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try read(.bool)
        case UInt8(ascii: "n"):
            guard consume("null") else { throw GiveUp() }
            return .null
        default:
            let start = index
            if let whole = try? readInt() { return .int(whole) }
            index = start
            return .double(try readDouble())
        }
    }

    private mutating func readRecord(_ plan: RecordPlan) throws(GiveUp) -> Value {
        guard let type = plan.type else { throw GiveUp() }
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "{"))
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
                try expect(UInt8(ascii: ":"))
                guard let field else {
                    try skipValue()
                    skipWhitespace()
                    continue
                }
                guard seen.insert(field) else { throw GiveUp() }
                fields.store(try readField(plan.fields[field]), at: field)
                read += 1
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }
        if read < count {
            // A missing field stays nil when it is optional; otherwise the typed decoding explains.
            for field in 0..<count where !seen.contains(field) {
                guard case .optional = plan.fields[field] else { throw GiveUp() }
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
        try expect(UInt8(ascii: "\""))
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
        try expect(UInt8(ascii: "\""))
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
    static func convertFromSnakeCase(_ key: String) -> String {
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
            guard !overflow1, !overflow2 else { throw GiveUp() }
            result = sum
            index += 1
        }
        // No digits, a leading zero, or a fraction or exponent: the typed way decides.
        guard index > start, bytes[start] != UInt8(ascii: "0") || index == start + 1 else { throw GiveUp() }
        if index < bytes.count, case let next = bytes[index],
            next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
        {
            throw GiveUp()
        }
        return result
    }

    private mutating func readDouble() throws(GiveUp) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        func digits(_ reader: inout PlannedJSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] &- UInt8(ascii: "0") < 10 { reader.index += 1 }
            return reader.index - from
        }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0, bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else { throw GiveUp() }
        if consume(UInt8(ascii: ".")) { guard digits(&self) > 0 else { throw GiveUp() } }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits(&self) > 0 else { throw GiveUp() }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw GiveUp() }
        return value
    }

    private mutating func readString() throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""))
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
        guard let base = bytes.baseAddress else { throw GiveUp() }
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
            guard position < count else { throw GiveUp() }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            switch byte {
            case UInt8(ascii: "\""):
                if !ascii {
                    guard Self.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[start..<position])) else { throw GiveUp() }
                }
                return position
            case UInt8(ascii: "\\"): return nil
            case ..<0x20: throw GiveUp()
            case 0x80...: ascii = false
            default: break
            }
            position += 1
        }
    }

    /// Whether `bytes` are valid UTF-8 (no overlong forms, no surrogates), without making a string.
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private mutating func readEscapedString(from start: Int) throws(GiveUp) -> String {
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw GiveUp() }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw GiveUp() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard consume("\\u") else { throw GiveUp() }
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw GiveUp() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw GiveUp() }
                    utf8.append(contentsOf: String(Character(unicode)).utf8)
                default: throw GiveUp()
                }
            default:
                guard byte >= 0x20 else { throw GiveUp() }
                utf8.append(byte)
            }
        }
        throw GiveUp()
    }

    private mutating func readHex4() throws(GiveUp) -> UInt32 {
        guard index + 4 <= bytes.count else { throw GiveUp() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw GiveUp()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Skips a value the plan does not read, checking its syntax as it goes.
    private mutating func skipValue() throws(GiveUp) {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
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
                _ = try readString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                try skipValue()
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
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
            try expect(UInt8(ascii: "]"))
        case UInt8(ascii: "t"): guard consume("true") else { throw GiveUp() }
        case UInt8(ascii: "f"): guard consume("false") else { throw GiveUp() }
        case UInt8(ascii: "n"): guard consume("null") else { throw GiveUp() }
        default: _ = try readDouble()
        }
    }

    // MARK: Bytes

    private mutating func enter() throws(GiveUp) {
        depth += 1
        guard depth <= 512 else { throw GiveUp() }
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

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard consume(byte) else { throw GiveUp() }
    }
}
