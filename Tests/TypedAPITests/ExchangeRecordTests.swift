import DemoService
import Foundation
import HTTPTypes
import Synchronization
import Testing
import TypedAPI

/// One exchange record: what the delegate is handed, what a recording transport keeps and what a
/// cassette holds are the same type, and for one call they say the same thing.
@Suite("One exchange record")
struct ExchangeRecordTests {
    final class Delegate: APIClientDelegate {
        let seen = Mutex<[Exchange]>([])
        func client(_ client: APIClient, didReceive exchange: Exchange) { seen.withLock { $0.append(exchange) } }
    }

    @Test("The delegate's, the recorder's and the cassette's record of one call agree", arguments: TransportChoice.allCases)
    func oneRecord(_ choice: TransportChoice) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("one.har").path
        let delegate = Delegate()
        let (recorded, cassetteEntries): ([Exchange], [Cassette.Entry]) = try await withDemoServer(choice) { client, _ in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: client.transport)
            let recorder = RecordingTransport(forwardingTo: cassette)
            let recording = client.replacingTransport(with: recorder, delegate: delegate)
            _ = try await recording.send(Endpoint.createPost(userId: 1, title: "t", body: "b"))
            try cassette.save()
            return (recorder.exchanges, try Cassette(contentsOf: path).entries)
        }
        let handed = delegate.seen.withLock { $0 }
        let records: [Exchange] = [try #require(handed.first), try #require(recorded.first), try #require(cassetteEntries.first)]
        #expect(handed.count == 1 && recorded.count == 1 && cassetteEntries.count == 1)
        for record in records {
            #expect(record.method == "POST")
            #expect(record.path == "/posts")
            #expect(record.status == 201)
            #expect(record.failure == nil)
            #expect(record.requestHeaders.value(named: "content-type") == "application/json")
            #expect(record.requestBody.map { String(decoding: $0, as: UTF8.self) }?.contains(#""title":"t""#) == true)
            #expect(try JSONDecoder().decode(Post.self, from: record.responseBody).title == "t")
        }
        // The response's headers, in the order they came (transports may add or fold their own:
        // compare what all three kept of the same transport's answer).
        let names = records.map { $0.responseHeaders.map { $0.name.lowercased() } }
        #expect(names[0] == names[1] && names[1] == names[2], "\(names)")
        #expect(names[0].contains("content-type"))
    }

    @Test("A header is one record: typed factories, case-insensitive names, HTTPFields across the transport line")
    func header() {
        let headers: [HTTPHeader] = [.accept(["application/json", "text/plain"]), .contentType("text/csv"),
                                     .custom(name: "X-Team", value: "blue"), .custom(name: "x-team", value: "green"),
                                     HTTPHeader(name: "bad name", value: "v")]
        #expect(headers[0] == HTTPHeader(name: "Accept", value: "application/json, text/plain"))
        #expect(headers.value(named: "X-TEAM") == "green")
        #expect(headers.value(named: "content-type") == "text/csv")
        // Case folds for ASCII letters only: `[` and `{` differ by the same bit and are not one.
        #expect(HTTPHeader(name: "X-A[", value: "").isNamed("x-a{") == false)
        #expect(HTTPHeader(name: "ETag", value: "").isNamed("etag") && !HTTPHeader(name: "ETag", value: "").isNamed("etags"))
        let fields = HTTPHeader.fields(headers)
        // A name HTTP does not allow cannot be sent; the rest go in order, duplicates kept.
        #expect(HTTPHeader.list(fields) == Array(headers.prefix(4)))
    }
}
