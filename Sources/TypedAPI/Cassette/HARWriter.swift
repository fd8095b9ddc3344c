import Foundation

/// Writes ``HARFile`` as JSON in one pass, in the form `JSONEncoder` gives with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (cassettes written before read the same and diff
/// cleanly): recording 10,000 calls spent a quarter of its time in `JSONEncoder` writing the file.
/// Fields that are nil are left out, as `Codable` leaves them out.
enum HARWriter {
    static func data(_ file: HARFile) -> Data { Data(bytes(file)) }

    /// The file's bytes, for writing them out without a copy into `Data` first (21 MB for 10,000 entries).
    static func bytes(_ file: HARFile) -> [UInt8] {
        var output = Output()
        output.bytes.reserveCapacity(file.log.entries.count * 2200 + 256)
        output.object { output in
            output.field("log") { log(file.log, into: &$0) }
        }
        return output.bytes
    }

    // MARK: The model, each object's keys in sorted order (JSONEncoder's `.sortedKeys`)

    private static func log(_ log: HARFile.Log, into output: inout Output) {
        output.object { output in
            if let extras = log._typist {
                output.field("_typist") { output in
                    output.object { output in
                        output.field("match", strings: extras.match)
                    }
                }
            }
            output.field("creator") { output in
                output.object { output in
                    output.field("name", string: log.creator.name)
                    output.field("version", string: log.creator.version)
                }
            }
            output.field("entries") { output in
                output.array { output in
                    for item in log.entries { output.element { entry(item, into: &$0) } }
                }
            }
            output.field("version", string: log.version)
        }
    }

    private static func failure(_ failure: HARFile.Failure?, named name: String, into output: inout Output) {
        guard let failure else { return }
        output.field(name) { output in
            output.object { output in
                output.field("detail", string: failure.detail)
                output.field("kind", string: failure.kind)
            }
        }
    }

    private static func entry(_ entry: HARFile.Entry, into output: inout Output) {
        output.object { output in
            if let extras = entry._typist {
                output.field("_typist") { output in
                    output.object { output in
                        output.field("endpoint", string: extras.endpoint)
                        failure(extras.error, named: "error", into: &output)
                        failure(extras.interruption, named: "interruption", into: &output)
                        output.field("redactions", strings: extras.redactions)
                        output.field("responseType", string: extras.responseType)
                    }
                }
            }
            if entry.cache != nil { output.field("cache") { $0.object { _ in } } }
            output.field("request") { request(entry.request, into: &$0) }
            output.field("response") { response(entry.response, into: &$0) }
            output.field("startedDateTime", string: entry.startedDateTime)
            output.field("time", number: entry.time)
            if let timings = entry.timings {
                output.field("timings") { output in
                    output.object { output in
                        output.field("receive", number: timings.receive)
                        output.field("send", number: timings.send)
                        output.field("wait", number: timings.wait)
                    }
                }
            }
        }
    }

    private static func request(_ request: HARFile.Request, into output: inout Output) {
        output.object { output in
            output.field("bodySize", number: request.bodySize.map(Double.init))
            output.field("cookies", nameValues: request.cookies)
            output.field("headers", nameValues: request.headers)
            output.field("headersSize", number: request.headersSize.map(Double.init))
            output.field("httpVersion", string: request.httpVersion)
            output.field("method", string: request.method)
            if let data = request.postData {
                output.field("postData") { output in
                    output.object { output in
                        output.field("encoding", string: data.encoding)
                        output.field("mimeType", string: data.mimeType)
                        output.field("text", string: data.text)
                    }
                }
            }
            output.field("queryString", nameValues: request.queryString)
            output.field("url", string: request.url)
        }
    }

    private static func response(_ response: HARFile.Response, into output: inout Output) {
        output.object { output in
            output.field("bodySize", number: response.bodySize.map(Double.init))
            if let content = response.content {
                output.field("content") { output in
                    output.object { output in
                        output.field("encoding", string: content.encoding)
                        output.field("mimeType", string: content.mimeType)
                        output.field("size", number: content.size.map(Double.init))
                        output.field("text", string: content.text)
                    }
                }
            }
            output.field("cookies", nameValues: response.cookies)
            output.field("headers", nameValues: response.headers)
            output.field("headersSize", number: response.headersSize.map(Double.init))
            output.field("httpVersion", string: response.httpVersion)
            output.field("redirectURL", string: response.redirectURL)
            output.field("status", number: Double(response.status))
            output.field("statusText", string: response.statusText)
        }
    }

    // MARK: JSON, as JSONEncoder pretty-prints it

    /// Bytes being written, and where in the nesting they are: each container's first member
    /// follows its opening line; the others a comma.
    private struct Output {
        var bytes: [UInt8] = []
        private var indent = 0
        private var empty: [Bool] = []

        mutating func object(_ members: (inout Output) -> Void) { container(UInt8(ascii: "{"), UInt8(ascii: "}"), members) }
        mutating func array(_ elements: (inout Output) -> Void) { container(UInt8(ascii: "["), UInt8(ascii: "]"), elements) }

        private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout Output) -> Void) {
            bytes.append(open)
            bytes.append(0x0A)
            indent += 2
            empty.append(true)
            body(&self)
            empty.removeLast()
            indent -= 2
            // A member's line ends, or an empty container has its blank line.
            bytes.append(0x0A)
            HARWriter.spaces(indent, into: &bytes)
            bytes.append(close)
        }

        /// `"key" : value` in an object.
        mutating func field(_ key: String, _ value: (inout Output) -> Void) {
            member()
            HARWriter.string(key, into: &bytes)
            bytes.append(contentsOf: " : ".utf8)
            value(&self)
        }

        /// `"key" : "text"`, unless there is no text.
        mutating func field(_ key: String, string text: String?) {
            if let text { field(key) { $0.string(text) } }
        }

        /// `"key" : 12.5`, unless there is no number.
        mutating func field(_ key: String, number value: Double?) {
            if let value { field(key) { $0.number(value) } }
        }

        /// `"key" : [{"name": …, "value": …}, …]`, unless there are none.
        mutating func field(_ key: String, nameValues pairs: [HARFile.NameValue]?) {
            if let pairs { field(key) { $0.nameValues(pairs) } }
        }

        /// `"key" : ["…", …]`, unless there are none.
        mutating func field(_ key: String, strings texts: [String]?) {
            if let texts { field(key) { $0.strings(texts) } }
        }

        /// One value in an array.
        mutating func element(_ value: (inout Output) -> Void) {
            member()
            value(&self)
        }

        private mutating func member() {
            if empty[empty.count - 1] {
                empty[empty.count - 1] = false
            } else {
                bytes.append(UInt8(ascii: ","))
                bytes.append(0x0A)
            }
            HARWriter.spaces(indent, into: &bytes)
        }

        mutating func string(_ text: String) { HARWriter.string(text, into: &bytes) }
        mutating func number(_ value: Double) { bytes.append(contentsOf: HARWriter.number(value).utf8) }

        mutating func strings(_ texts: [String]) {
            array { output in
                for text in texts { output.element { $0.string(text) } }
            }
        }

        mutating func nameValues(_ pairs: [HARFile.NameValue]) {
            array { output in
                for pair in pairs {
                    output.element { output in
                        output.object { output in
                            output.field("name", string: pair.name)
                            output.field("value", string: pair.value)
                        }
                    }
                }
            }
        }
    }

    private static let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    private static func spaces(_ count: Int, into output: inout [UInt8]) {
        if count <= blanks.count {
            blanks.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        } else {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        }
    }

    /// A number as JSONEncoder writes a `Double`: its shortest form, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n` … or `\u001f`, `/` as it is.
    static func string(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            // The runs between escapes are copied at once (a JSON body is mostly such runs).
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    output.append(UInt8(ascii: "u"))
                    output.append(UInt8(ascii: "0"))
                    output.append(UInt8(ascii: "0"))
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            output.append(UInt8(ascii: "\""))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
