import Foundation
import HTTPTypes

/// Recorded HTTP exchanges, as a HAR 1.2 file holds them: what ``CassetteTransport`` replays and
/// records, and what `typist cassette show` and `verify` read.
///
/// A cassette written by Typist never holds a secret: every credential header, secret query item
/// and known secret value was replaced by `••••` before writing (see ``CassetteTransport``).
public struct Cassette: Sendable {
    /// One header, as sent or received.
    public typealias Header = HTTPHeader

    /// What came back: a response, or why none did.
    public typealias Outcome = Exchange.Outcome

    /// One exchange.
    public typealias Entry = Exchange

    /// The exchanges, in the order they were made.
    public var entries: [Entry]
    /// What a request must share with an entry to be answered by it.
    public var matching: CassetteMatching

    /// A cassette of `entries`.
    public init(entries: [Entry] = [], matching: CassetteMatching = .default) {
        self.entries = entries
        self.matching = matching
    }

    /// The cassette in the HAR file at `path`.
    ///
    /// - Throws: ``CassetteError`` when it cannot be read or is not HAR.
    public init(contentsOf path: String) throws(CassetteError) {
        var status = stat()
        if stat(path, &status) == 0, Int64(status.st_size) > Self.maximumFileSize {
            throw CassetteError(path: path, reason: "it is \(status.st_size >> 20) MiB; a cassette may be at most \(Self.maximumFileSize >> 20) MiB")
        }
        let data: Data
        do {
            // Mapped: read once, by the reader, not copied first.
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw CassetteError(path: path, reason: (error as NSError).localizedFailureReason ?? "it cannot be read")
        }
        try self.init(har: data, path: path)
    }

    /// The largest cassette file read: it is read whole.
    public static let maximumFileSize: Int64 = 1 << 30

    /// The cassette in HAR `data`; `path` names it in errors.
    ///
    /// - Throws: ``CassetteError`` when it is not HAR.
    public init(har data: Data, path: String = "cassette") throws(CassetteError) {
        let file: HARFile
        do throws(HARReader.Failure) {
            file = try HARReader.read(data)
        } catch {
            throw CassetteError(path: path, reason: "not a HAR file: \(error)")
        }
        self.init(file: file)
    }

    /// The cassette a HAR file holds.
    init(file: HARFile) {
        entries = file.log.entries.map(Self.entry)
        matching = file.log._typist?.match.map(CassetteMatching.init(names:)) ?? .default
    }

    /// The cassette as HAR 1.2 JSON.
    ///
    /// - Parameter creator: The program named as the file's creator, and its version.
    public func har(creator: (name: String, version: String) = ("TypedAPI", "1")) -> Data {
        HARWriter.data(harFile(creator: creator))
    }

    private func harFile(creator: (name: String, version: String)) -> HARFile {
        var log = HARFile.Log(creator: .init(name: creator.name, version: creator.version))
        log.entries = entries.map(Self.harEntry)
        if matching != .default { log._typist = .init(match: matching.names) }
        return HARFile(log: log)
    }

    /// Writes the cassette to `path` as HAR: to a new file beside it (mode 0600: it describes a
    /// session), then renamed over it, so a reader never sees half a file (through a symbolic
    /// link, the file it names is replaced).
    ///
    /// - Throws: ``CassetteError`` when it cannot be written, or `path` is not a regular file.
    public func write(to path: String, creator: (name: String, version: String) = ("TypedAPI", "1")) throws(CassetteError) {
        do {
            // The writer's bytes as they are: no copy into Data, and none into an array again.
            try PrivateFile.write(HARWriter.bytes(harFile(creator: creator)), to: path)
        } catch {
            throw CassetteError(path: path, reason: error.description)
        }
    }

    /// A recorded response head, as a transport returns it (headers whose names HTTP does not
    /// allow are left out; entries hold HTTP statuses only, see ``Outcome``).
    package static func response(status: Int, reason: String, headers: [Header]) -> HTTPResponse {
        HTTPResponse(status: .init(code: min(max(status, 100), 999), reasonPhrase: reason), headerFields: HTTPHeader.fields(headers))
    }

    // MARK: HAR

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func harEntry(_ entry: Entry) -> HARFile.Entry {
        let milliseconds = Double(entry.duration.components.seconds) * 1000
            + Double(entry.duration.components.attoseconds) / 1e15
        // Most URLs have no query: no parse for them.
        let query = entry.url.utf8.contains(UInt8(ascii: "?"))
            ? URLComponents(string: entry.url)?.queryItems?.map { HARFile.NameValue(name: $0.name, value: $0.value ?? "") } ?? []
            : []
        let requestType = entry.requestHeaders.value(named: "Content-Type") ?? ""
        let postData = entry.requestBody.map { body in
            let (text, encoding) = bodyText(body)
            return HARFile.PostData(mimeType: requestType, text: text, encoding: encoding)
        }
        let request = HARFile.Request(method: entry.method, url: entry.url, headers: entry.requestHeaders.map(nameValue),
                                      queryString: query, postData: postData, bodySize: entry.requestBody?.count ?? 0)
        let response: HARFile.Response
        var extras = HARFile.EntryExtras(endpoint: entry.label?.endpoint, responseType: entry.label?.responseType,
                                         redactions: entry.redactions.isEmpty ? nil : entry.redactions)
        switch entry.outcome {
        case .response(let status, let reason, let headers, let body):
            let mimeType = headers.value(named: "Content-Type") ?? ""
            let (text, encoding) = bodyText(body)
            response = HARFile.Response(status: status, statusText: reason, headers: headers.map(nameValue),
                                        content: .init(size: body.count, mimeType: mimeType, text: text, encoding: encoding),
                                        bodySize: body.count)
            extras.interruption = entry.interruption.map { .init(kind: $0.kind.name, detail: $0.detail) }
        case .failure(let failure):
            response = HARFile.Response(status: 0, statusText: "", headers: [],
                                        content: .init(size: 0, mimeType: "", text: nil, encoding: nil), bodySize: -1)
            extras.error = .init(kind: failure.kind.name, detail: failure.detail)
        }
        return HARFile.Entry(startedDateTime: entry.started.formatted(dateStyle), time: milliseconds, request: request,
                             response: response, timings: .init(wait: milliseconds), _typist: extras)
    }

    private static func entry(_ har: HARFile.Entry) -> Entry {
        let outcome: Outcome
        if let error = har._typist?.error {
            outcome = .failure(failure(error))
        } else {
            let body = har.response.content?.text.map { bodyData($0, encoding: har.response.content?.encoding) } ?? Data()
            if (100...999).contains(har.response.status) {
                outcome = .response(status: har.response.status, reason: har.response.statusText,
                                    headers: (har.response.headers ?? []).map(header), body: body)
            } else {
                // Not an HTTP status (a browser writes 0 for a request that got no answer).
                outcome = .failure(TransportFailure(.other, detail: "the cassette recorded no HTTP answer (status \(har.response.status))"))
            }
        }
        let label = har._typist.flatMap { extras in
            extras.endpoint == nil && extras.responseType == nil
                ? nil : ExchangeLabel(endpoint: extras.endpoint, responseType: extras.responseType)
        }
        let time = har.time.isFinite && har.time >= 0 && har.time < 1e12 ? har.time : 0
        return Entry(started: utcDate(har.startedDateTime) ?? (try? dateStyle.parse(har.startedDateTime)) ?? Date(timeIntervalSince1970: 0),
                     duration: .milliseconds(Int64(time)), method: har.request.method, url: har.request.url,
                     requestHeaders: (har.request.headers ?? []).map(header),
                     requestBody: har.request.postData.map { bodyData($0.text ?? "", encoding: $0.encoding) },
                     outcome: outcome, label: label, redactions: har._typist?.redactions ?? [],
                     interruption: har._typist?.interruption.map(failure))
    }

    /// `2026-11-26T10:31:08.123Z`, the form cassettes are written in, read without a formatter
    /// (a 10,000-entry cassette spent a tenth of its opening in `ISO8601FormatStyle`); nil for
    /// any other form (an offset, no fraction digits' limit), which the formatter then reads.
    static func utcDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, bytes.count <= 30, let digits = number(20..<(bytes.count - 1)) else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        } else if bytes[19] != UInt8(ascii: "Z") {
            return nil
        }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    private static func failure(_ recorded: HARFile.Failure) -> TransportFailure {
        TransportFailure(TransportFailure.Kind(name: recorded.kind), detail: recorded.detail)
    }

    private static func nameValue(_ header: Header) -> HARFile.NameValue { .init(name: header.name, value: header.value) }
    private static func header(_ pair: HARFile.NameValue) -> Header { .init(name: pair.name, value: pair.value) }

    /// A body as HAR text: itself when it is UTF-8 text, base64 otherwise.
    private static func bodyText(_ body: Data) -> (String, String?) {
        let hasZero = body.withUnsafeBytes { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
        if !hasZero, let text = String(validating: body, as: UTF8.self) { return (text, nil) }
        return (body.base64EncodedString(), "base64")
    }

    private static func bodyData(_ text: String, encoding: String?) -> Data {
        if encoding == "base64" { return Data(base64Encoded: text) ?? Data(text.utf8) }
        return Data(text.utf8)
    }
}

/// A cassette that cannot be read or written.
public struct CassetteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cassette 'x.har': reason`.
    public var description: String { "cassette '\(path)': \(reason)" }
}

extension TransportFailure.Kind {
    /// The kind's name in a cassette.
    var name: String {
        switch self {
        case .connectionRefused: "connectionRefused"
        case .connectionClosed: "connectionClosed"
        case .hostNotFound: "hostNotFound"
        case .tls: "tls"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        case .responseTooLarge: "responseTooLarge"
        case .other: "other"
        }
    }

    /// The kind a cassette names (`other` for a name it does not know).
    init(name: String) {
        let all: [Self] = [.connectionRefused, .connectionClosed, .hostNotFound, .tls, .timedOut, .cancelled, .responseTooLarge]
        self = all.first { $0.name == name } ?? .other
    }
}
