import Foundation
import TypistText

/// Finds the byte offset of the value at a coding path in a JSON text, for error messages.
///
/// It reads only as far as the path needs and never traps on malformed input: every access is
/// bounds-checked and a text it cannot follow yields `nil`.
enum JSONLocator {
    /// The array index a coding key stands for, if it stands for one.
    static func arrayIndex(_ key: any CodingKey) -> Int? {
        guard let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)"
        else { return nil }
        return index
    }

    /// The offset of the value at `path`, or `nil`.
    static func locate(_ path: [any CodingKey], in data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            var scanner = JSONScanner(raw)
            scanner.skipWhitespace()
            for key in path {
                if let index = arrayIndex(key) {
                    guard scanner.enterArray(element: index) else { return nil }
                } else {
                    guard scanner.enterObject(key: key.stringValue) else { return nil }
                }
            }
            return scanner.position
        }
    }

    /// The coding path of the value that starts at `offset` (`items[3].id`), as errors write one;
    /// `""` for the top-level value, nil when the text cannot be followed that far.
    static func path(at offset: Int, in data: Data) -> String? {
        enum Frame { case object(key: String?, expectsKey: Bool), array(index: Int) }
        return data.withUnsafeBytes { raw -> String? in
            var scanner = JSONScanner(raw)
            var frames: [Frame] = []
            while scanner.position < offset {
                guard let byte = scanner.current else { return nil }
                switch byte {
                case UInt8(ascii: "{"):
                    frames.append(.object(key: nil, expectsKey: true))
                    scanner.position += 1
                case UInt8(ascii: "["):
                    frames.append(.array(index: 0))
                    scanner.position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard frames.popLast() != nil else { return nil }
                    scanner.position += 1
                case UInt8(ascii: ","):
                    switch frames.last {
                    case .object(_, _)?: frames[frames.count - 1] = .object(key: nil, expectsKey: true)
                    case .array(let index)?: frames[frames.count - 1] = .array(index: index + 1)
                    case nil: return nil
                    }
                    scanner.position += 1
                case UInt8(ascii: ":"):
                    guard case .object(let key, _)? = frames.last else { return nil }
                    frames[frames.count - 1] = .object(key: key, expectsKey: false)
                    scanner.position += 1
                case UInt8(ascii: "\""):
                    guard let text = try? scanner.string() else { return nil }
                    if case .object(_, true)? = frames.last {
                        frames[frames.count - 1] = .object(key: text, expectsKey: true)
                    }
                default:
                    scanner.position += 1
                }
            }
            var text = ""
            for frame in frames {
                switch frame {
                case .array(let index): text += "[\(index)]"
                case .object(let key, _):
                    guard let key else { return nil }
                    text += (text.isEmpty ? "" : ".") + key
                }
            }
            return text
        }
    }

    /// What kind of JSON value starts at `offset`, with a short excerpt.
    static func describeValue(in data: Data, at offset: Int) -> String {
        guard offset < data.count else { return "the end of the body" }
        let start = data.index(data.startIndex, offsetBy: offset)
        let rest = data[start...]
        let excerpt = String(decoding: rest.prefix(24), as: UTF8.self)
        let cut = excerpt.count >= 24 ? "…" : ""
        switch rest.first {
        case UInt8(ascii: "\""):
            let token = data.withUnsafeBytes { raw -> String in
                var scanner = JSONScanner(raw, position: offset)
                let end = (try? scanner.skipString()) != nil ? scanner.position : data.count
                return String(decoding: data[start..<data.index(data.startIndex, offsetBy: end)], as: UTF8.self)
            }
            return "a string " + (token.count > 40 ? token.prefix(40) + "…" : token)
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a Bool"
        case UInt8(ascii: "n"): return "null"
        default:
            let number = excerpt.prefix { "-+.eE0123456789".contains($0) }
            return number.isEmpty ? "'\(excerpt)\(cut)'" : "the number \(number)"
        }
    }

    /// About 80 characters of the text around `offset`, on one line.
    static func snippet(of data: Data, at offset: Int) -> String? {
        guard !data.isEmpty else { return nil }
        let lower = max(0, min(offset, data.count) - 40)
        let upper = min(data.count, lower + 80)
        guard lower < upper else { return nil }
        let start = data.index(data.startIndex, offsetBy: lower)
        let end = data.index(data.startIndex, offsetBy: upper)
        var text = String(decoding: data[start..<end], as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
        if lower > 0 { text = "…" + text }
        if upper < data.count { text += "…" }
        return text
    }

}

/// What the locator adds to the shared scanner: following a coding path into a value.
private extension JSONScanner {
    mutating func expectAfterWhitespace(_ byte: UInt8) -> Bool {
        skipWhitespace()
        return consume(byte)
    }

    /// Moves to the start of element `index` of the array here.
    mutating func enterArray(element index: Int) -> Bool {
        guard expectAfterWhitespace(UInt8(ascii: "[")), (try? enter()) != nil else { return false }
        for _ in 0..<index {
            guard (try? skipValue()) != nil, expectAfterWhitespace(UInt8(ascii: ",")) else { return false }
        }
        skipWhitespace()
        return current != nil && current != UInt8(ascii: "]")
    }

    /// Moves to the value of `key` in the object here.
    mutating func enterObject(key: String) -> Bool {
        guard expectAfterWhitespace(UInt8(ascii: "{")), (try? enter()) != nil else { return false }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let name = try? string(), expectAfterWhitespace(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            if name == key { return true }
            guard (try? skipValue()) != nil, expectAfterWhitespace(UInt8(ascii: ",")) else { return false }
        }
    }
}
