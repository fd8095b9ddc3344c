import Foundation

/// `multipart/form-data` bodies (RFC 7578), written and read back.
///
/// The boundary is random; a cassette matches a replayed body to its recording part by part.
package enum MultipartEncoding {
    /// The body, and the `Content-Type` that names its boundary.
    package static func encoded(_ parts: [MultipartPart]) -> (contentType: String, data: Data) {
        let boundary = boundary(for: parts)
        var body = Data()
        for part in parts {
            body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(quotedText(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(quotedText(filename))\"" }
            body.append(contentsOf: Array((disposition + "\r\n").utf8))
            if let type = part.contentType { body.append(contentsOf: Array("Content-Type: \(headerText(type))\r\n".utf8)) }
            body.append(contentsOf: Array("\r\n".utf8))
            body.append(part.data)
            body.append(contentsOf: Array("\r\n".utf8))
        }
        body.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        return ("multipart/form-data; boundary=\(boundary)", body)
    }

    /// A boundary no part contains: `typist-` and 64 random bits (with a count after it in the
    /// unlikely case a part holds it). Random, not made from the parts: a boundary made from them
    /// would be a hash of a password field, written in every record of the request.
    static func boundary(for parts: [MultipartPart]) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        return boundary(for: parts, base: "typist-" + String(repeating: "0", count: 16 - random.count) + random)
    }

    /// `base`, or `base-1`, `base-2` … — the first no part contains.
    static func boundary(for parts: [MultipartPart], base: String) -> String {
        var candidate = base
        var count = 0
        while parts.contains(where: { contains($0.data, Array(candidate.utf8)) }) {
            count += 1
            candidate = base + "-\(count)"
        }
        return candidate
    }

    /// A 64-bit FNV-1a hash of bytes: which file a body's bytes came from, without keeping them
    /// (held in memory only, never written).
    package static func fingerprint(_ data: Data) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return value
    }

    /// A name in a `Content-Disposition` quoted string: `"`, CR and LF percent-encoded, as
    /// browsers send them (the WHATWG's form encoding).
    private static func quotedText(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A header value on one line.
    private static func headerText(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }.map(Character.init))
    }

    /// The boundary a `Content-Type` names (`multipart/form-data; boundary=x`), or nil.
    package static func boundary(inContentType contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = String(pair[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of a body written with `boundary`; nil when it is not such a body.
    package static func parts(of body: Data, boundary: String) -> [MultipartPart]? {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        guard var start = firstIndex(of: delimiter, in: bytes, from: 0) else { return nil }
        var parts: [MultipartPart] = []
        while true {
            var cursor = start + delimiter.count
            if bytes[cursor...].starts(with: Array("--".utf8)) { return parts }
            guard bytes[cursor...].starts(with: [13, 10]) else { return nil }
            cursor += 2
            guard let headerEnd = firstIndex(of: [13, 10, 13, 10], in: bytes, from: cursor - 2) else { return nil }
            let headerText = String(decoding: bytes[cursor..<max(cursor, headerEnd)], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = firstIndex(of: [13, 10] + delimiter, in: bytes, from: contentStart - 2) else { return nil }
            var name: String?
            var filename: String?
            var contentType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let field = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if field == "content-type" { contentType = value }
                if field == "content-disposition" {
                    name = parameter("name", in: value)
                    filename = parameter("filename", in: value)
                }
            }
            guard let name else { return nil }
            let content = contentStart <= next ? Data(bytes[contentStart..<next]) : Data()
            parts.append(MultipartPart(name: name, filename: filename, contentType: contentType, data: content))
            start = next + 2
        }
    }

    /// A quoted parameter of a `Content-Disposition` value, its `%22`, `%0D`, `%0A` decoded.
    private static func parameter(_ name: String, in value: String) -> String? {
        let marker = "; \(name)=\""
        guard let range = value.range(of: marker) else { return nil }
        let rest = value[range.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close]).replacingOccurrences(of: "%22", with: "\"")
            .replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
    }

    private static func contains(_ data: Data, _ needle: [UInt8]) -> Bool {
        firstIndex(of: needle, in: [UInt8](data), from: 0) != nil
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
