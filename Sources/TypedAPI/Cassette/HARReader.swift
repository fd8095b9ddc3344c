import Foundation
import TypistText

/// Reads a HAR file's JSON straight into ``HARFile``, in one pass over its bytes: a cassette of
/// 10,000 entries opens several times faster than through `JSONDecoder`, which builds a map of
/// the whole document and a container per object first. Keys a cassette does not use (and every
/// other tool's own) are skipped; what it needs must be there with the right type, else the
/// error names the place: the byte offset and line, and what was expected there.
struct HARReader {
    /// Why a file is not HAR, and where.
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var line: Int
        var message: String
        var description: String { "\(message) (line \(line), byte \(offset))" }
    }

    /// Objects and arrays inside one another deeper than this are refused, not recursed into.
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func read(_ data: Data) throws(Failure) -> HARFile {
        let result: Result<HARFile, Failure> = data.withUnsafeBytes { raw in
            var reader = HARReader(raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                let file = try reader.file()
                reader.skipSpace()
                guard reader.index == reader.bytes.count else { throw reader.failure("more after the HAR object") }
                return .success(file)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: HAR

    private mutating func file() throws(Failure) -> HARFile {
        var log: HARFile.Log?
        try object { (reader: inout Self, key) throws(Failure) in
            if key == "log" { log = try reader.log() } else { try reader.skipValue() }
        }
        guard let log else { throw failure("expected a 'log' object") }
        return HARFile(log: log)
    }

    private mutating func log() throws(Failure) -> HARFile.Log {
        var creator: HARFile.Creator?
        var version = "1.2"
        var entries: [HARFile.Entry] = []
        var extras: HARFile.LogExtras?
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "version": version = try reader.string()
            case "creator":
                var name: String?
                var creatorVersion: String?
                try reader.object { (reader: inout Self, key) throws(Failure) in
                    switch key {
                    case "name": name = try reader.string()
                    case "version": creatorVersion = try reader.string()
                    default: try reader.skipValue()
                    }
                }
                creator = HARFile.Creator(name: try reader.required(name, "name"), version: try reader.required(creatorVersion, "version"))
            case "entries":
                try reader.array { (reader: inout Self) throws(Failure) in entries.append(try reader.entry()) }
            case "_typist":
                guard try !reader.null() else { return }
                var match: [String]?
                try reader.object { (reader: inout Self, key) throws(Failure) in
                    if key == "match" { match = try reader.optionalStrings() } else { try reader.skipValue() }
                }
                extras = HARFile.LogExtras(match: match)
            default: try reader.skipValue()
            }
        }
        var log = HARFile.Log(version: version, creator: try required(creator, "creator"))
        log.entries = entries
        log._typist = extras
        return log
    }

    private mutating func entry() throws(Failure) -> HARFile.Entry {
        var started: String?
        var time: Double?
        var request: HARFile.Request?
        var response: HARFile.Response?
        var extras: HARFile.EntryExtras?
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "startedDateTime": started = try reader.string()
            case "time": time = try reader.number()
            case "request": request = try reader.request()
            case "response": response = try reader.response()
            case "_typist": extras = try reader.entryExtras()
            default: try reader.skipValue()
            }
        }
        return HARFile.Entry(startedDateTime: try required(started, "startedDateTime"), time: try required(time, "time"),
                             request: try required(request, "request"), response: try required(response, "response"),
                             cache: nil, timings: nil, _typist: extras)
    }

    private mutating func request() throws(Failure) -> HARFile.Request {
        var method: String?
        var url: String?
        var headers: [HARFile.NameValue]?
        var postData: HARFile.PostData?
        var bodySize: Int?
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "method": method = try reader.string()
            case "url": url = try reader.string()
            case "headers": headers = try reader.nameValues()
            case "postData":
                guard try !reader.null() else { return }
                var mimeType: String?, text: String?, encoding: String?
                try reader.object { (reader: inout Self, key) throws(Failure) in
                    switch key {
                    case "mimeType": mimeType = try reader.optionalString()
                    case "text": text = try reader.optionalString()
                    case "encoding": encoding = try reader.optionalString()
                    default: try reader.skipValue()
                    }
                }
                postData = HARFile.PostData(mimeType: mimeType, text: text, encoding: encoding)
            case "bodySize": bodySize = try reader.optionalInteger()
            default: try reader.skipValue()
            }
        }
        return HARFile.Request(method: try required(method, "method"), url: try required(url, "url"), headers: headers,
                               postData: postData, bodySize: bodySize)
    }

    private mutating func response() throws(Failure) -> HARFile.Response {
        var status: Int?
        var statusText: String?
        var headers: [HARFile.NameValue]?
        var content: HARFile.Content?
        var bodySize: Int?
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "status": status = try reader.integer()
            case "statusText": statusText = try reader.string()
            case "headers": headers = try reader.nameValues()
            case "content":
                guard try !reader.null() else { return }
                var size: Int?, mimeType: String?, text: String?, encoding: String?
                try reader.object { (reader: inout Self, key) throws(Failure) in
                    switch key {
                    case "size": size = try reader.optionalInteger()
                    case "mimeType": mimeType = try reader.optionalString()
                    case "text": text = try reader.optionalString()
                    case "encoding": encoding = try reader.optionalString()
                    default: try reader.skipValue()
                    }
                }
                content = HARFile.Content(size: size, mimeType: mimeType, text: text, encoding: encoding)
            case "bodySize": bodySize = try reader.optionalInteger()
            default: try reader.skipValue()
            }
        }
        return HARFile.Response(status: try required(status, "status"), statusText: try required(statusText, "statusText"),
                                headers: headers, content: content, bodySize: bodySize)
    }

    private mutating func entryExtras() throws(Failure) -> HARFile.EntryExtras? {
        guard try !null() else { return nil }
        var extras = HARFile.EntryExtras()
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "endpoint": extras.endpoint = try reader.optionalString()
            case "responseType": extras.responseType = try reader.optionalString()
            case "redactions": extras.redactions = try reader.optionalStrings()
            case "error": extras.error = try reader.failure()
            case "interruption": extras.interruption = try reader.failure()
            default: try reader.skipValue()
            }
        }
        return extras
    }

    /// A failure (`{"kind": …, "detail": …}`), or nil for `null`.
    private mutating func failure() throws(Failure) -> HARFile.Failure? {
        guard try !null() else { return nil }
        var kind: String?, detail: String?
        try object { (reader: inout Self, key) throws(Failure) in
            switch key {
            case "kind": kind = try reader.string()
            case "detail": detail = try reader.string()
            default: try reader.skipValue()
            }
        }
        return HARFile.Failure(kind: try required(kind, "kind"), detail: try required(detail, "detail"))
    }

    private mutating func nameValues() throws(Failure) -> [HARFile.NameValue]? {
        guard try !null() else { return nil }
        var pairs: [HARFile.NameValue] = []
        try array { (reader: inout Self) throws(Failure) in
            var name: String?, value: String?
            try reader.object { (reader: inout Self, key) throws(Failure) in
                switch key {
                case "name": name = try reader.string()
                case "value": value = try reader.string()
                default: try reader.skipValue()
                }
            }
            pairs.append(HARFile.NameValue(name: try reader.required(name, "name"), value: try reader.required(value, "value")))
        }
        return pairs
    }

    private func required<T>(_ value: T?, _ key: String) throws(Failure) -> T {
        guard let value else { throw failure("expected a '\(key)' field in the object that ends here") }
        return value
    }

    // MARK: JSON

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func failure(_ message: String) -> Failure {
        let end = min(index, bytes.count)
        var line = 1
        for position in 0..<end where bytes[position] == 0x0A { line += 1 }
        return Failure(offset: end, line: line, message: message)
    }

    /// The next byte after spaces, not consumed.
    private mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func consume(_ byte: UInt8, _ what: String) throws(Failure) {
        guard peek() == byte else { throw failure("expected \(what)") }
        index += 1
    }

    /// Whether the next value is `null` (consumed if so).
    private mutating func null() throws(Failure) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("expected \(word)") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw failure("expected \(word)") }
        index += count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("objects and arrays nest deeper than \(Self.maximumDepth) levels") }
    }

    /// An object, each key handed to `body` with the reader at its value, which `body` must read.
    private mutating func object(_ body: (inout Self, String) throws(Failure) -> Void) throws(Failure) {
        try consume(UInt8(ascii: "{"), "an object")
        try enter()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            try consume(UInt8(ascii: ":"), "':'")
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(_ body: (inout Self) throws(Failure) -> Void) throws(Failure) {
        try consume(UInt8(ascii: "["), "an array")
        try enter()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func optionalString() throws(Failure) -> String? {
        try null() ? nil : string()
    }

    private mutating func optionalStrings() throws(Failure) -> [String]? {
        guard try !null() else { return nil }
        var strings: [String] = []
        try array { (reader: inout Self) throws(Failure) in strings.append(try reader.string()) }
        return strings
    }

    private mutating func optionalInteger() throws(Failure) -> Int? {
        try null() ? nil : integer()
    }

    private mutating func integer() throws(Failure) -> Int {
        let number = try number()
        guard let whole = Int(exactly: number) else { throw failure("expected a whole number") }
        return whole
    }

    private mutating func number() throws(Failure) -> Double {
        skipSpace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        // Whole numbers of up to 18 digits, the usual case, without a string.
        var whole = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            whole = whole * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        if digits > 0, index == bytes.count || !Self.isNumberByte(bytes[index]) {
            return Double(bytes[start] == UInt8(ascii: "-") ? -whole : whole)
        }
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard !text.isEmpty, text != "-", let value = Double(text), value.isFinite else {
            index = start
            throw failure("expected a number")
        }
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
             UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private mutating func string() throws(Failure) -> String {
        try consume(UInt8(ascii: "\""), "a string")
        let start = index
        var high: UInt8 = 0
        // The usual string: no escapes, read in place (ASCII needs no validating).
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if high < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    index -= 1
                    throw failure("a string is not valid UTF-8")
                }
                return text
            }
            high |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character in a string must be escaped") }
            index += 1
        }
        do throws(JSONEscape.Refusal) {
            return try JSONEscape.escapedString(UnsafeRawBufferPointer(bytes), from: start, at: &index)
        } catch {
            throw failure(error.message)
        }
    }

    /// A string, its syntax checked but not made into a `String` (a field a cassette does not use).
    private mutating func skipString() throws(Failure) {
        try consume(UInt8(ascii: "\""), "a string")
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                var ignored: [UInt8] = []
                if let refusal = JSONEscape.decode(UnsafeRawBufferPointer(bytes), at: &index, into: &ignored) { throw failure(refusal) }
            default:
                if byte < 0x20 { throw failure("a control character in a string must be escaped") }
            }
        }
        throw failure("unterminated string")
    }

    /// Any value, read and dropped.
    private mutating func skipValue() throws(Failure) {
        switch peek() {
        case UInt8(ascii: "{"): try object { (reader: inout Self, _) throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "["): try array { (reader: inout Self) throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case nil: throw failure("expected a value, found the end")
        default: _ = try number()
        }
    }
}
