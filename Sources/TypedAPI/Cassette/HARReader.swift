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

    /// The tokens, the nesting and their refusals: the scanner every JSON reader of ours shares.
    private var scanner: JSONScanner

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
    }

    static func read(_ data: Data) throws(Failure) -> HARFile {
        let result: Result<HARFile, Failure> = data.withUnsafeBytes { raw in
            var reader = HARReader(raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                let file = try reader.file()
                reader.scanner.skipWhitespace()
                guard reader.scanner.isAtEnd else { throw reader.failure("more after the HAR object") }
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

    private func failure(_ message: String) -> Failure {
        let offset = min(scanner.position, scanner.bytes.count)
        return Failure(offset: offset, line: scanner.line(at: offset), message: message)
    }

    /// The scanner's refusal, with its line.
    private func failure(_ refusal: JSONScanner.Failure) -> Failure {
        Failure(offset: refusal.offset, line: scanner.line(at: refusal.offset), message: refusal.reason)
    }

    /// The next byte after spaces, not consumed.
    private mutating func peek() -> UInt8? {
        scanner.skipWhitespace()
        return scanner.current
    }

    private mutating func consume(_ byte: UInt8, _ what: String) throws(Failure) {
        guard peek() == byte else { throw failure("expected \(what)") }
        scanner.position += 1
    }

    /// Whether the next value is `null` (consumed if so).
    private mutating func null() throws(Failure) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        guard scanner.consume(word) else { throw failure("expected \(word)") }
    }

    private mutating func enter() throws(Failure) {
        do throws(JSONScanner.Failure) { try scanner.enter() } catch { throw failure(error) }
    }

    /// An object, each key handed to `body` with the reader at its value, which `body` must read.
    private mutating func object(_ body: (inout Self, String) throws(Failure) -> Void) throws(Failure) {
        try consume(UInt8(ascii: "{"), "an object")
        try enter()
        if peek() == UInt8(ascii: "}") {
            scanner.position += 1
            scanner.leave()
            return
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            try consume(UInt8(ascii: ":"), "':'")
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","): scanner.position += 1
            case UInt8(ascii: "}"):
                scanner.position += 1
                scanner.leave()
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(_ body: (inout Self) throws(Failure) -> Void) throws(Failure) {
        try consume(UInt8(ascii: "["), "an array")
        try enter()
        if peek() == UInt8(ascii: "]") {
            scanner.position += 1
            scanner.leave()
            return
        }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): scanner.position += 1
            case UInt8(ascii: "]"):
                scanner.position += 1
                scanner.leave()
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
        scanner.skipWhitespace()
        let start = scanner.position
        do throws(JSONScanner.Failure) {
            return try scanner.double()
        } catch {
            // What was expected, at the value's place (a string where a number goes).
            scanner.position = start
            throw failure(error.offset == start ? "expected a number" : error.reason)
        }
    }

    private mutating func string() throws(Failure) -> String {
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "\"") else { throw failure("expected a string") }
        do throws(JSONScanner.Failure) { return try scanner.string() } catch { throw failure(error) }
    }

    /// Any value, read and dropped, its syntax checked.
    private mutating func skipValue() throws(Failure) {
        do throws(JSONScanner.Failure) { try scanner.skipValue() } catch { throw failure(error) }
    }
}
