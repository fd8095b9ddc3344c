import APIScript
import Foundation

/// Reads JSON bytes into script values following a ``FastPlan``, in one pass.
///
/// It is strict: anything that is not plainly what the plan expects (a missing or repeated key, a
/// number of the wrong kind, invalid UTF-8, a nesting deeper than 512) makes it give up with nil,
/// and the caller decodes the body the typed way, which then accepts or explains.
struct FastJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    private let snakeCase: Bool
    /// JSON keys already converted from snake case, per record plan.
    private var convertedKeys: [ObjectIdentifier: [[UInt8]: Int]] = [:]

    private struct GiveUp: Error {}

    private init(bytes: UnsafeRawBufferPointer, snakeCase: Bool) {
        self.bytes = bytes
        self.snakeCase = snakeCase
    }

    /// The value of `body` under `plan`, or nil when the typed decoding must decide.
    static func value(from body: Data, plan: FastPlan, decoder: JSONDecoder) -> Value? {
        let snakeCase: Bool
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: snakeCase = false
        case .convertFromSnakeCase: snakeCase = true
        default: return nil
        }
        guard !decoder.allowsJSON5, !decoder.assumesTopLevelDictionary else { return nil }
        return body.withUnsafeBytes { bytes in
            var reader = FastJSONReader(bytes: bytes, snakeCase: snakeCase)
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

    private mutating func read(_ plan: FastPlan) throws(GiveUp) -> Value {
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
        // Keys usually come in field order: values go straight into place. The first key out of
        // order switches to slots.
        var values: [Value] = []
        values.reserveCapacity(count)
        var slots: [Value?]?
        skipWhitespace()
        if !consume(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                let field = try readKey(of: plan, expected: values.count)
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                guard let field else {
                    try skipValue()
                    skipWhitespace()
                    continue
                }
                let value = try read(plan.fields[field])
                if slots == nil, field == values.count {
                    values.append(value)
                } else {
                    if slots == nil {
                        slots = values.map { $0 } + [Value?](repeating: nil, count: count - values.count)
                    }
                    guard slots?[field] == nil else { throw GiveUp() }
                    slots?[field] = value
                }
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }
        if let slots { values = try slots.enumerated().map { (field, value) throws(GiveUp) in try Self.filled(value, plan.fields[field]) } }
        while values.count < count {
            values.append(try Self.filled(nil, plan.fields[values.count]))
        }
        return .record(Record(type: type, values: values))
    }

    /// A field's value, or null for a missing optional one; a missing required field gives up.
    private static func filled(_ value: Value?, _ plan: FastPlan) throws(GiveUp) -> Value {
        if let value { return value }
        guard case .optional = plan else { throw GiveUp() }
        return .null
    }

    /// The index of the field a key names, or nil for a key the plan does not read.
    private mutating func readKey(of plan: RecordPlan, expected: Int) throws(GiveUp) -> Int? {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            // An escaped key: rare; decoded in full, then looked up.
            index = start - 1
            let key = Array(try readString().utf8)
            return snakeCase ? convertedField(key, plan) : plan.keys.firstIndex(of: key)
        }
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if snakeCase { return convertedField(Array(key), plan) }
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
        let converted = Array(Self.convertFromSnakeCase(String(decoding: key, as: UTF8.self)).utf8)
        let field = plan.keys.firstIndex(of: converted) ?? -1
        convertedKeys[identifier, default: [:]][key] = field
        return field >= 0 ? field : nil
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
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw GiveUp()
        }
        return result
    }

    private mutating func readDouble() throws(GiveUp) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        func digits(_ reader: inout FastJSONReader) -> Int {
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
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw GiveUp() }
        // The closing quote by memchr, then one pass over the run for escapes and control bytes.
        guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) else { throw GiveUp() }
        let end = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
        var special: UInt8 = 0
        var position = start
        while position < end {
            let byte = base[position]
            special |= (byte < 0x20 ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 2 : 0)
            position += 1
        }
        if special & 2 != 0 { return try readEscapedString(from: start) }
        guard special == 0,
            let text = String(validating: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        else { throw GiveUp() }
        index = end + 1
        return text
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
