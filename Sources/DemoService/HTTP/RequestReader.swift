import Foundation
import HTTPTypes

/// Reads HTTP/1.1 requests from a connection: the head up to its blank line, then the body by
/// `Content-Length` or chunk by chunk, each within a limit.
struct RequestReader {
    /// What reading one request gave.
    enum Outcome {
        case request(DemoRequest, keepAlive: Bool)
        /// The client closed the connection (or it failed) between requests.
        case closed
        /// A request the server cannot take: answer this and close.
        case refused(DemoResponse)
    }

    static let headLimit = 64 << 10
    static let bodyLimit = 32 << 20
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the search for the head's end starts again (what was searched holds none).
    private var searched = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next request; `continueRequested` is called when it asks for `100 Continue` before its body.
    mutating func next(continueRequested: () -> Bool) -> Outcome {
        let head: String
        switch readHead() {
        case .head(let text): head = text
        case .closed: return .closed
        case .tooLarge: return .refused(Self.refusal(.init(code: 431, reasonPhrase: "Request Header Fields Too Large"), "the request's head is over 64 KiB"))
        case .notHTTP: return .refused(Self.refusal(.badRequest, "not an HTTP/1.1 request"))
        }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        guard requestLine.count == 3, let method = HTTPRequest.Method(String(requestLine[0])), requestLine[2].hasPrefix("HTTP/1.") else {
            return .refused(Self.refusal(.badRequest, "not an HTTP/1.1 request line"))
        }
        var headers = HTTPFields()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                return .refused(Self.refusal(.badRequest, "a header line is not 'Name: value'"))
            }
            headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let target = requestLine[1]
        let path = String(target.prefix { $0 != "?" })
        let query = target.firstIndex(of: "?").map { target[target.index(after: $0)...] } ?? ""
        let queryItems = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let name = item.prefix { $0 != "=" }
            let value = item.firstIndex(of: "=").map { item[item.index(after: $0)...] } ?? ""
            return (name: String(name).removingPercentEncoding ?? String(name), value: String(value).removingPercentEncoding ?? String(value))
        }
        let connection = headers[.connection]?.lowercased() ?? ""
        let keepAlive = requestLine[2] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        if headers[.expect]?.lowercased() == "100-continue", !continueRequested() { return .closed }
        let body: [UInt8]
        if headers[.transferEncoding]?.lowercased().contains("chunked") == true {
            do {
                body = try readChunkedBody()
            } catch {
                return error.outcome
            }
        } else if let text = headers[.contentLength] {
            guard let length = Int(text), length >= 0 else { return .refused(Self.refusal(.badRequest, "Content-Length is not a count")) }
            guard length <= Self.bodyLimit else { return .refused(Self.refusal(.contentTooLarge, "the body is over 32 MiB")) }
            guard let bytes = read(length) else { return .closed }
            body = bytes
        } else {
            body = []
        }
        return .request(DemoRequest(method: method, path: path, queryItems: queryItems, headers: headers, body: body), keepAlive: keepAlive)
    }

    private struct Refusal: Error {
        var outcome: Outcome
    }

    private mutating func readChunkedBody() throws(Refusal) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let line = readLine() else { throw Refusal(outcome: .closed) }
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw Refusal(outcome: .refused(Self.refusal(.badRequest, "a chunk's size is not hexadecimal")))
            }
            if size == 0 {
                // Trailers, up to the blank line.
                while let trailer = readLine(), !trailer.isEmpty {}
                return body
            }
            guard body.count + size <= Self.bodyLimit else {
                throw Refusal(outcome: .refused(Self.refusal(.contentTooLarge, "the body is over 32 MiB")))
            }
            guard let chunk = read(size), readLine() != nil else { throw Refusal(outcome: .closed) }
            body += chunk
        }
    }

    private enum Head {
        case head(String)
        case closed
        case tooLarge
        /// Bytes no HTTP request starts with (a TLS handshake sent to plain HTTP): refused at
        /// once, not waited on for a head that never ends.
        case notHTTP
    }

    /// The head without its blank line.
    private mutating func readHead() -> Head {
        while true {
            if let end = find([13, 10, 13, 10], from: searched) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                searched = 0
                return .head(head)
            }
            searched = max(0, buffer.count - 3)
            if !startsLikeRequest() { return .notHTTP }
            if buffer.count > Self.headLimit { return .tooLarge }
            guard Socket.read(descriptor, into: &buffer) > 0 else { return .closed }
        }
    }

    /// Whether what has come so far can begin a request: a method of capital letters (at most
    /// 20), then a space.
    private func startsLikeRequest() -> Bool {
        for (index, byte) in buffer.prefix(21).enumerated() {
            if byte == UInt8(ascii: " ") { return index > 0 }
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) else { return false }
        }
        return buffer.count < 21
    }

    /// A line without its CRLF; nil at the end of the connection.
    private mutating func readLine() -> [UInt8]? {
        var from = 0
        while true {
            if let end = find([13, 10], from: from) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 2)
                return line
            }
            from = max(0, buffer.count - 1)
            guard buffer.count <= Self.headLimit, Socket.read(descriptor, into: &buffer) > 0 else { return nil }
        }
    }

    /// Exactly `count` bytes; nil when the connection ends first.
    private mutating func read(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard Socket.read(descriptor, into: &buffer, count: min(1 << 20, max(64 << 10, count - buffer.count))) > 0 else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= pattern.count, start <= buffer.count - pattern.count else { return nil }
        var index = start
        while index <= buffer.count - pattern.count {
            if buffer[index] == pattern[0], buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func refusal(_ status: HTTPResponse.Status, _ message: String) -> DemoResponse {
        Reply.error(message, status: status)
    }
}
