import Foundation
import Testing
@testable import TypedAPI

/// The HAR reader against Foundation's `JSONDecoder` on the same files, and on broken ones.
@Suite("Reading HAR files")
struct HARReaderTests {
    /// A HAR as a browser's developer tools write one: pages, cookies, query strings, timings, fields
    /// of their own, `null`s, escapes of every kind, a surrogate pair, numbers with exponents.
    static let browserHAR = #"""
    {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "121.0", "comment": "x"},
      "browser": {"name": "Firefox", "version": "121.0"},
      "pages": [{"startedDateTime": "2026-01-02T03:04:05.678+01:00", "id": "page_1", "title": "a \"quoted\" title", "pageTimings": {"onLoad": 1.5e2}}],
      "entries": [
        {"pageref": "page_1", "startedDateTime": "2026-01-02T03:04:05.678+01:00", "time": 12.5,
         "request": {"bodySize": 0, "method": "GET", "url": "https://api.example.org/v1/search?q=caf%C3%A9",
           "httpVersion": "HTTP/2", "headers": [{"name": "Accept", "value": "application/json"}, {"name": "X-Note", "value": "caf\u00e9 \ud83d\ude00 tab\there \/ slash"}],
           "cookies": [{"name": "a", "value": "b", "expires": null, "httpOnly": false}],
           "queryString": [{"name": "q", "value": "café"}], "headersSize": -1},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
           "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
           "content": {"mimeType": "application/json", "size": 27, "text": "{\"items\":[1,2.5e-3,true,null]}", "comment": ""},
           "redirectURL": "", "headersSize": 120, "bodySize": 27, "_transferSize": 300},
         "cache": {}, "timings": {"blocked": -1, "dns": 0.5, "send": 0, "wait": 10, "receive": 2, "ssl": -1},
         "serverIPAddress": "127.0.0.1", "_priority": "High"},
        {"startedDateTime": "2026-01-02T03:04:06Z", "time": 0,
         "request": {"method": "POST", "url": "http://h/x", "headers": [],
           "postData": {"mimeType": "application/octet-stream", "text": "AAEC/w==", "encoding": "base64", "params": []}},
         "response": {"status": 0, "statusText": "", "headers": [], "content": null},
         "_typist": {"endpoint": "upload", "responseType": null, "redactions": ["body"], "error": {"kind": "timedOut", "detail": "after 5 s"}}}
      ],
      "_typist": {"match": ["method", "path"]}}}
    """#

    @Test("A browser's HAR reads as JSONDecoder reads it")
    func sameAsJSONDecoder() throws {
        let data = Data(Self.browserHAR.utf8)
        let decoded = try JSONDecoder().decode(HARFile.self, from: data)
        let fromDecoder = Cassette(file: decoded)
        let fromReader = try Cassette(har: data)
        #expect(fromReader.entries.count == 2)
        #expect(fromReader.har() == fromDecoder.har())
        #expect(fromReader.matching == fromDecoder.matching)
        guard case .response(_, _, let headers, let body) = fromReader.entries[0].outcome else {
            Issue.record("expected a response")
            return
        }
        #expect(body == Data(#"{"items":[1,2.5e-3,true,null]}"#.utf8))
        #expect(headers.map(\.name) == ["Content-Type"])
        #expect(fromReader.entries[0].requestHeaders.last?.value == "café 😀 tab\there / slash")
        #expect(fromReader.entries[1].requestBody == Data([0, 1, 2, 255]))
    }

    @Test("A cassette Typist writes reads back the same, through both readers")
    func roundTrip() throws {
        var entries: [Cassette.Entry] = []
        for index in 0..<50 {
            let started = Date(timeIntervalSince1970: 1_800_000_000 + Double(index))
            let url = "http://127.0.0.1:9/posts/\(index)?a=\(index)&b=%22"
            let requestBody: Data? = index % 2 == 0 ? nil : Data("{\"title\":\"line\\nbreak \u{1F600}\"}".utf8)
            let body = Data("{\"id\":\(index),\"text\":\"\\u0000 \\\"q\\\"\"}".utf8)
            let outcome = Cassette.Outcome.response(status: 200, reason: "OK", headers: [.init(name: "Content-Type", value: "application/json")], body: body)
            entries.append(Cassette.Entry(started: started, duration: .milliseconds(index), method: index % 2 == 0 ? "GET" : "POST", url: url,
                                          requestHeaders: [.init(name: "Accept", value: "application/json")], requestBody: requestBody,
                                          outcome: outcome, label: .init(endpoint: "post", responseType: "Post"), redactions: [],
                                          interruption: index % 5 == 0 ? TransportFailure(.connectionClosed, detail: "cut \"\(index)\"") : nil))
        }
        let written = Cassette(entries: entries).har()
        let read = try Cassette(har: written)
        #expect(read.har() == written)
        #expect(read.entries.map { $0.interruption?.detail } == (0..<50).map { $0 % 5 == 0 ? "cut \"\($0)\"" : nil })
        #expect(Cassette(file: try JSONDecoder().decode(HARFile.self, from: written)).har() == written)
    }

    @Test("Every prefix of a HAR, and every damaged copy, is one error with its place, never a crash")
    func brokenFiles() throws {
        let bytes = Array(Self.browserHAR.utf8)
        for end in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: CassetteError.self) { try Cassette(har: Data(bytes[..<end])) }
        }
        // A byte replaced by each of a few that JSON does not allow there, every 13 bytes.
        for position in stride(from: 0, to: bytes.count, by: 13) {
            for replacement: UInt8 in [0x00, 0x7B, 0x22, 0xFF, 0x5C] {
                var damaged = bytes
                damaged[position] = replacement
                _ = try? Cassette(har: Data(damaged))
            }
        }
        #expect {
            try Cassette(har: Data(#"{"log": {"creator": {"name": "x", "version": "1"}, "entries": [{"time": "soon"}]}}"#.utf8))
        } throws: { error in
            String(describing: error).contains("not a HAR file: expected a number (line 1, byte")
        }
        #expect {
            try Cassette(har: Data(#"{"log": {"creator": {"name": "x"}, "entries": []}}"#.utf8))
        } throws: { error in
            String(describing: error).contains("expected a 'version' field")
        }
        let deep = String(repeating: "[", count: 100_000)
        #expect {
            try Cassette(har: Data(#"{"log": {"creator": {"name": "x", "version": "1"}, "entries": [], "x": \#(deep)"#.utf8))
        } throws: { error in
            String(describing: error).contains("nest deeper than 512 levels")
        }
        var notUTF8 = Array(#"{"log": {"creator": {"name": "x", "version": "1"}, "entries": []}}"#.utf8)
        notUTF8[30] = 0xC3
        #expect(throws: CassetteError.self) { try Cassette(har: Data(notUTF8)) }
        #expect(throws: CassetteError.self) { try Cassette(har: Data("{\"log\": {}} trailing".utf8)) }
    }
}

@Suite("Cassette dates")
struct CassetteDateTests {
    @Test("The UTC form cassettes are written in reads as the ISO 8601 formatter reads it; other forms are left to it")
    func utcDates() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for seconds in [0.0, 951_782_400.5, 1_800_000_000.123, 4_102_444_799.999, -86_400.25, 1_709_164_800] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = date.formatted(style)
            let read = try #require(Cassette.utcDate(text), "\(text)")
            #expect(abs(read.timeIntervalSince1970 - (try style.parse(text)).timeIntervalSince1970) < 0.0005, "\(text)")
        }
        #expect(Cassette.utcDate("2026-01-02T03:04:05Z") == Date(timeIntervalSince1970: 1_767_323_045))
        for other in ["2026-01-02T03:04:05.678+01:00", "2026-13-02T03:04:05Z", "2026-01-02 03:04:05Z", "", "2026-01-02T03:04:05.Z", "x026-01-02T03:04:05Z"] {
            #expect(Cassette.utcDate(other) == nil, "\(other)")
        }
    }
}

@Suite("Cassette matching parts")
struct CassettePartsTests {
    @Test("The path read without a URL parser is URLComponents' percent-encoded path, or left to it")
    func plainPaths() {
        let urls = ["http://127.0.0.1:9/posts/1", "https://api.example.org/v1/search?q=caf%C3%A9#top", "http://h", "http://h/",
                    "http://h:8080/a%20b/c?x=1&y=%22", "http://h/a;b=c/d", "http://user:pw@h/x", "http://[::1]:9/x",
                    "http://h?q=1", "http://h/p#f", "http://h/ space", "http://h/café", "relative/path", "mailto:x@y",
                    "a/b://h/x", "1x://h/y", "HTTP://H:80/X?Y#Z", "svn+ssh://h/r", "http://", "http:///x", "http:/x", "http://h/a?b/c",
                    "http://h/a#b?c", "", "?", "http://h/%zz", "http://h/%4", "http://h/%4a%4B"]
        // Every printable ASCII character in the path, the query and the host.
        let every = (0x21..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        for url in urls + every.flatMap({ ["http://h/a\($0)b", "http://h/a?\($0)", "http://h\($0)x/a"] }) {
            let expected = URLComponents(string: url)?.percentEncodedPath ?? url
            let parts = CassetteMatching.Parts(method: "GET", url: url, body: nil)
            #expect(parts.path == expected, "\(url)")
        }
    }
}

@Suite("Writing HAR files")
struct HARWriterTests {
    /// What `JSONEncoder` wrote for a file before `HARWriter` did.
    private static func encoded(_ file: HARFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(file)
    }

    @Test("The same bytes as JSONEncoder's pretty, sorted form: a browser's file, and every control character, number and escape")
    func sameAsJSONEncoder() throws {
        let browser = try JSONDecoder().decode(HARFile.self, from: Data(HARReaderTests.browserHAR.utf8))
        #expect(HARWriter.data(browser) == (try Self.encoded(browser)))
        var log = HARFile.Log(creator: .init(name: "Typist", version: "0.7"))
        log._typist = .init(match: ["method", "path"])
        let awkward = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é😀\u{2028}/\\\""
        for (index, time) in [0, 1e-5, 0.1, 3.002249, 1.2345678901234567e19, 1e16, 2.5e-300, 42].enumerated() {
            let request = HARFile.Request(method: "POST", url: "http://h/\(awkward)", headers: [.init(name: awkward, value: awkward)],
                                          queryString: nil, postData: .init(mimeType: nil, text: awkward, encoding: index % 2 == 0 ? "base64" : nil),
                                          bodySize: index)
            let response = HARFile.Response(status: 200 + index, statusText: awkward, headers: [],
                                            content: .init(size: -index, mimeType: "a/b", text: index % 3 == 0 ? nil : awkward, encoding: nil),
                                            bodySize: nil)
            var extras = HARFile.EntryExtras(endpoint: index % 2 == 0 ? "e" : nil, responseType: "[T]", redactions: index % 2 == 0 ? [] : ["body"])
            if index == 3 { extras.error = .init(kind: "timedOut", detail: awkward) }
            log.entries.append(.init(startedDateTime: "2026", time: time, request: request, response: response,
                                     cache: index % 4 == 0 ? nil : .init(), timings: index == 5 ? nil : .init(wait: time), _typist: index == 6 ? nil : extras))
        }
        let file = HARFile(log: log)
        #expect(HARWriter.data(file) == (try Self.encoded(file)))
        #expect(HARWriter.data(HARFile(log: .init(creator: .init(name: "x", version: "1")))) == (try Self.encoded(HARFile(log: .init(creator: .init(name: "x", version: "1"))))))
    }
}
