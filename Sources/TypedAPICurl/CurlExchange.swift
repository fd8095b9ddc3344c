import CCurl
import Foundation
import HTTPTypes
import TypedAPI

/// What libcurl fills in as one ``CurlTransfer`` runs: the status, the headers, the body, the
/// easy handle's error text. Made by the engine when it starts the transfer and touched only on
/// its thread (libcurl's callbacks run there too), so it is not `Sendable`.
final class CurlExchange {
    /// What was asked.
    let transfer: CurlTransfer
    var status = 0
    var reason = ""
    var fields = HTTPFields()
    let received = CurlBody()
    var tooLarge = false
    var malformedStatusLine: String?
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// Whether the exchange is being tried a second time, on a new connection (see ``mayRetry(after:)``).
    var onFreshConnection = false
    /// The easy handle while the engine runs the exchange.
    var handle: UnsafeMutableRawPointer?

    init(_ transfer: CurlTransfer) {
        self.transfer = transfer
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorBuffer.deallocate()
        if let headerList { curl_slist_free_all(headerList) }
    }

    private var method: String { transfer.method }
    private var body: Data? { transfer.body }
    private var stream: CurlStream? { transfer.stream }
    private var maximumResponseSize: Int { transfer.maximumResponseSize }
    private var cancelled: Bool { transfer.cancelled.load(ordering: .sequentiallyConsistent) }

    /// Whether a failure may be tried once more, on a new connection: a GET or HEAD whose
    /// connection ended before any byte of an answer came (RFC 9110 §9.2.2 lets a client retry an
    /// idempotent request then). libcurl itself retries when the connection was a kept one; this
    /// also covers a fresh connection closed under load before the server answered.
    func mayRetry(after code: CURLcode) -> Bool {
        guard !onFreshConnection, method == "GET" || method == "HEAD", body == nil, status == 0, received.count == 0,
            !cancelled
        else { return false }
        return code == CURLE_GOT_NOTHING || code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR
    }

    /// Forgets what the failed attempt received, for the retry.
    func prepareRetry() {
        onFreshConnection = true
        fields = HTTPFields()
        reason = ""
        received.reset()
        malformedStatusLine = nil
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// The response once libcurl reports success.
    func response() throws -> (HTTPResponse, Data) {
        guard (100...999).contains(status) else {
            throw TransportFailure(.other, detail: "the response has no valid status line: \(malformedStatusLine ?? "none")")
        }
        return (HTTPResponse(status: .init(code: status, reasonPhrase: reason), headerFields: fields), received.take())
    }

    /// Takes one header line from libcurl: a status line starts a new response (after `100 Continue`
    /// or similar), anything else is a field. Works on the bytes: this runs for every header of
    /// every call.
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = Self.trimmed(bytes)
        guard !line.isEmpty else {
            // The blank line after a final head: a stream's reader gets the head now.
            if let stream, status >= 200 {
                stream.deliverHead(HTTPResponse(status: .init(code: status, reasonPhrase: reason), headerFields: fields))
            }
            return
        }
        if line.starts(with: "HTTP/".utf8) {
            receiveStatusLine(line)
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
            let name = HTTPField.Name(String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self))
        else { return }
        fields.append(HTTPField(name: name, value: Self.lenientText(Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])))))
    }

    private func receiveStatusLine(_ line: UnsafeRawBufferPointer) {
        fields = HTTPFields()
        // "HTTP/1.1 200 OK", "HTTP/2 200": the code is the three digits after the first space.
        if let space = line.firstIndex(of: UInt8(ascii: " ")), line.count >= space + 4 {
            let digits = line[(space + 1)...(space + 3)]
            let after = space + 4
            if digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                after == line.count || line[after] == UInt8(ascii: " ")
            {
                status = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                reason = after < line.count
                    ? String(decoding: Self.trimmed(UnsafeRawBufferPointer(rebasing: line[after...])), as: UTF8.self) : ""
                malformedStatusLine = nil
                if status >= 100 { return }
            }
        }
        status = 0
        malformedStatusLine = String(decoding: UnsafeRawBufferPointer(rebasing: line.prefix(80)), as: UTF8.self)
    }

    /// A header value's text. RFC 9110 allows bytes outside ASCII (obs-text): UTF-8 when they
    /// are (`v 1; ü`), else each byte as ISO-8859-1, HTTP's old charset (`café` in a Latin-1
    /// `Content-Disposition`), never a call that fails over a header.
    static func lenientText(_ bytes: UnsafeRawBufferPointer) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 || byte == 10 }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// libcurl's word for "keep this chunk and pause the transfer" (`CURL_WRITEFUNC_PAUSE`).
    static let pause = 0x1000_0001

    /// Takes a piece of the body; returns how many bytes were taken, as libcurl's write callback
    /// does: all of them, 0 once the body is larger than allowed, or ``pause`` for a stream whose
    /// reader has not taken what it was given.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let stream { return stream.push(bytes) ? bytes.count : Self.pause }
        guard received.count + bytes.count <= maximumResponseSize else {
            tooLarge = true
            return 0
        }
        // The first bytes: every header is in. Room for the announced length, unless the body is
        // compressed (libcurl decodes it, so its length is not the one announced).
        if received.count == 0, status >= 200, fields[.contentEncoding] == nil,
            let length = fields[.contentLength].flatMap({ Int($0) }), length > 0, length <= maximumResponseSize
        {
            received.reserve(length)
        }
        received.append(bytes)
        return bytes.count
    }

    /// What a failed libcurl code means for the caller.
    static let headersTooLarge = "the response's headers are larger than libcurl takes (100 KB for one header)"

    func failure(_ code: CURLcode) -> TransportFailure {
        let buffered = String(cString: errorBuffer)
        let detail = buffered.isEmpty ? String(cString: curl_easy_strerror(code)) : buffered
        switch code {
        case CURLE_COULDNT_CONNECT:
            return TransportFailure(detail.contains("timed out") ? .timedOut : .connectionRefused, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransportFailure(.hostNotFound, detail: detail)
        case CURLE_OPERATION_TIMEDOUT:
            return TransportFailure(.timedOut, detail: detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            return TransportFailure(.tls, detail: detail)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return TransportFailure(.connectionClosed, detail: detail)
        case CURLE_WRITE_ERROR where tooLarge, CURLE_FILESIZE_EXCEEDED:
            return TransportFailure(.responseTooLarge, detail: "more than \(maximumResponseSize) bytes")
        case CURLE_OUT_OF_MEMORY where received.count == 0:
            // libcurl's word for a header past its 100 KB limit (CURL_MAX_HTTP_HEADER).
            return TransportFailure(.other, detail: Self.headersTooLarge)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING:
            return TransportFailure(.other, detail: "the response is not valid HTTP (\(detail))")
        default:
            return TransportFailure(.other, detail: detail)
        }
    }
}
