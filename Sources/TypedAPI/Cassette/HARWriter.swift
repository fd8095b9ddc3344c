import Foundation

/// Writes ``HARFile`` as JSON in one pass, in the form `JSONEncoder` gives with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (cassettes written before read the same and diff
/// cleanly): recording 10,000 calls spent a quarter of its time in `JSONEncoder` writing the file.
/// Fields that are nil are left out, as `Codable` leaves them out.
enum HARWriter {
    /// A JSON value to write; an object's keys are written sorted.
    private indirect enum Node {
        case string(String)
        case number(Double)
        case object([(key: String, value: Node)])
        case array([Node])
    }

    static func data(_ file: HARFile) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(file.log.entries.count * 2200 + 256)
        write(.object([("log", log(file.log))]), into: &output, indent: 0)
        return Data(output)
    }

    // MARK: The model as nodes

    private static func log(_ log: HARFile.Log) -> Node {
        var fields: [(String, Node)] = [
            ("version", .string(log.version)),
            ("creator", .object([("name", .string(log.creator.name)), ("version", .string(log.creator.version))])),
            ("entries", .array(log.entries.map(entry))),
        ]
        if let extras = log._typist {
            fields.append(("_typist", .object(optional([("match", extras.match.map(strings))]))))
        }
        return .object(fields)
    }

    private static func entry(_ entry: HARFile.Entry) -> Node {
        var fields: [(String, Node?)] = [
            ("startedDateTime", .string(entry.startedDateTime)),
            ("time", .number(entry.time)),
            ("request", request(entry.request)),
            ("response", response(entry.response)),
            ("cache", entry.cache.map { _ in .object([]) }),
        ]
        if let timings = entry.timings {
            fields.append(("timings", .object(optional([("send", timings.send.map(Node.number)), ("wait", timings.wait.map(Node.number)),
                                                         ("receive", timings.receive.map(Node.number))]))))
        }
        if let extras = entry._typist {
            let error = extras.error.map { Node.object([("kind", .string($0.kind)), ("detail", .string($0.detail))]) }
            fields.append(("_typist", .object(optional([("endpoint", extras.endpoint.map(Node.string)),
                                                        ("responseType", extras.responseType.map(Node.string)),
                                                        ("redactions", extras.redactions.map(strings)), ("error", error)]))))
        }
        return .object(optional(fields))
    }

    private static func request(_ request: HARFile.Request) -> Node {
        let postData = request.postData.map { data in
            Node.object(optional([("mimeType", data.mimeType.map(Node.string)), ("text", data.text.map(Node.string)),
                                  ("encoding", data.encoding.map(Node.string))]))
        }
        return .object(optional([
            ("method", .string(request.method)), ("url", .string(request.url)),
            ("httpVersion", request.httpVersion.map(Node.string)), ("cookies", request.cookies.map(nameValues)),
            ("headers", request.headers.map(nameValues)), ("queryString", request.queryString.map(nameValues)),
            ("postData", postData), ("headersSize", request.headersSize.map(integer)), ("bodySize", request.bodySize.map(integer)),
        ]))
    }

    private static func response(_ response: HARFile.Response) -> Node {
        let content = response.content.map { content in
            Node.object(optional([("size", content.size.map(integer)), ("mimeType", content.mimeType.map(Node.string)),
                                  ("text", content.text.map(Node.string)), ("encoding", content.encoding.map(Node.string))]))
        }
        return .object(optional([
            ("status", integer(response.status)), ("statusText", .string(response.statusText)),
            ("httpVersion", response.httpVersion.map(Node.string)), ("cookies", response.cookies.map(nameValues)),
            ("headers", response.headers.map(nameValues)), ("content", content),
            ("redirectURL", response.redirectURL.map(Node.string)), ("headersSize", response.headersSize.map(integer)),
            ("bodySize", response.bodySize.map(integer)),
        ]))
    }

    private static func nameValues(_ pairs: [HARFile.NameValue]) -> Node {
        .array(pairs.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
    }

    private static func strings(_ strings: [String]) -> Node { .array(strings.map(Node.string)) }

    private static func integer(_ value: Int) -> Node { .number(Double(value)) }

    private static func optional(_ fields: [(String, Node?)]) -> [(key: String, value: Node)] {
        fields.compactMap { key, value in value.map { (key, $0) } }
    }

    // MARK: JSON, as JSONEncoder pretty-prints it

    private static func write(_ node: Node, into output: inout [UInt8], indent: Int) {
        switch node {
        case .string(let text):
            string(text, into: &output)
        case .number(let value):
            output.append(contentsOf: number(value).utf8)
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            output.append(0x0A)
            if fields.isEmpty {
                output.append(0x0A)
            } else {
                // Sorted as JSONEncoder's `.sortedKeys` sorts them (the same order for these keys).
                let sorted = fields.count < 2 ? fields : fields.sorted { $0.key < $1.key }
                for (index, field) in sorted.enumerated() {
                    spaces(indent + 2, into: &output)
                    string(field.key, into: &output)
                    output.append(contentsOf: " : ".utf8)
                    write(field.value, into: &output, indent: indent + 2)
                    if index < sorted.count - 1 { output.append(UInt8(ascii: ",")) }
                    output.append(0x0A)
                }
            }
            spaces(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            output.append(0x0A)
            if elements.isEmpty {
                output.append(0x0A)
            } else {
                for (index, element) in elements.enumerated() {
                    spaces(indent + 2, into: &output)
                    write(element, into: &output, indent: indent + 2)
                    if index < elements.count - 1 { output.append(UInt8(ascii: ",")) }
                    output.append(0x0A)
                }
            }
            spaces(indent, into: &output)
            output.append(UInt8(ascii: "]"))
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
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied at once.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
