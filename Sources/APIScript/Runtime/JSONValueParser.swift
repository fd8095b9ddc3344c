/// Parses JSON text straight into script values: objects become dictionaries, arrays arrays,
/// numbers `Int` when they are whole and fit, `Double` otherwise. It takes JSON's grammar exactly
/// (RFC 8259), as the typed reader and JSONDecoder do: `json("01")` is an error, not 1.
///
/// It never traps: every read is bounds-checked, nesting is limited, and malformed input gives
/// an error naming the byte offset.
enum JSONValueParser {
    static let maximumDepth = 512

    static func parse(_ bytes: [UInt8]) throws -> Value {
        var parser = State(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    struct State {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func failure(_ message: String) -> ScriptFailure {
            ScriptFailure("invalid JSON at byte \(index): \(message)")
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth < JSONValueParser.maximumDepth else { throw failure("nested too deeply") }
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var entries: [String: Value] = [:]
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .dictionary(entries)
                }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                    let key = try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                    index += 1
                    skipWhitespace()
                    entries[key] = try value(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw failure("unexpected end in an object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                    index += 1
                    return .dictionary(entries)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [Value] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    skipWhitespace()
                    elements.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw failure("unexpected end in an array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                    index += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String, _ value: Value) throws -> Value {
            let utf8 = Array(word.utf8)
            guard index + utf8.count <= bytes.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else {
                throw failure("unexpected character")
            }
            index += utf8.count
            return value
        }

        /// A number exactly as RFC 8259 writes one: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        /// (no leading zeros, no `+`, no bare `.`), as JSONDecoder and the typed reader take it.
        mutating func number() throws -> Value {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
                throw failure(index == start ? "unexpected character" : "a '-' must be followed by a digit")
            }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    throw failure("a number cannot start with 0 followed by more digits")
                }
            } else {
                _ = digits()
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard digits() > 0 else { throw failure("a '.' in a number must be followed by a digit") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("an exponent needs digits") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let integer = Int(text) { return .int(integer) }
            guard let double = Double(text), double.isFinite else { throw failure("'\(text)' is not a number a Double holds") }
            return .double(double)
        }

        /// A string as RFC 8259 writes one: no raw control characters, only its eight escapes,
        /// `\u` surrogates in pairs, and valid UTF-8 (as JSONDecoder takes it).
        mutating func string() throws -> String {
            index += 1
            var buffer: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: buffer, as: UTF8.self) else {
                        throw failure("a string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw failure("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw failure("a \\u high surrogate must be followed by a low one")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw failure("a \\u high surrogate must be followed by a low one") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            throw failure("a \\u low surrogate without a high one")
                        }
                        guard let character = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
                        buffer.append(contentsOf: Array(String(Character(character)).utf8))
                    default:
                        throw failure("'\\\(Character(Unicode.Scalar(escape)))' is not a JSON escape")
                    }
                case 0..<0x20:
                    throw failure("a control character in a string must be escaped")
                default:
                    buffer.append(byte)
                }
            }
            throw failure("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
            else { throw failure("invalid \\u escape") }
            index += 4
            return value
        }
    }
}
