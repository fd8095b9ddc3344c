import Foundation
import Testing
import TypedAPI

/// A session answered by a cassette alone, with no base URL given, is at the address the cassette
/// was recorded from: `:curl` and errors show what was called, not a placeholder.
@Suite("Replaying without a base URL")
struct ReplayOriginTests {
    @Test("The recorded origin, without credentials a URL carries; nothing for a file with no usable URL")
    func recordedOrigin() async throws {
        try await withTemporaryFolder("typist-origin") { folder in
            func origin(of url: String) throws -> String? {
                let path = folder.appendingPathComponent("\(UUID()).har").path
                var cassette = Cassette()
                cassette.entries = [Cassette.Entry(started: Date(), duration: .zero, method: "GET", url: url, requestHeaders: [],
                                                   requestBody: nil, outcome: .response(status: 200, reason: "OK", headers: [], body: Data()))]
                try cassette.write(to: path)
                return try CassetteTransport(path: path, mode: .none, forwardingTo: nil).recordedOrigin
            }
            let urls = ["https://api.example.com:8443/v1/items?q=1", "http://ada:secret@127.0.0.1:4000/x", "http://[::1]:8080/x",
                        "ftp://example.com/x", "http://exa mple.com/x", "http:///x"]
            let origins = try urls.map(origin(of:))
            #expect(origins == ["https://api.example.com:8443", "http://127.0.0.1:4000", "http://[::1]:8080", nil, nil, nil])
        }
    }

    @Test("A lesson run offline: :curl shows the address its recording was made at, and a miss says what to do without network")
    func offlineLesson() async throws {
        let har = Built.packageRoot.appendingPathComponent("Workshop/lesson-1/exchanges.har").path
        let recorded = try #require(try Cassette(contentsOf: har).entries.first?.url)
        let origin = try #require(recorded.firstMatch(of: /^http:\/\/[^\/]+/)).0
        let result = try await Built.run("typist", ["lesson", "1", "--offline"],
                                         input: ":curl searchRepositories(query: \"x\")\nsearchRepositories(query: \"nothing recorded\")\n")
        #expect(result.standard.contains("Offline: every answer comes from lesson-1/exchanges.har, recorded from the demo service at \(origin); nothing is sent."),
                "\(result.standard)")
        #expect(result.standard.contains("'\(origin)/search/repositories?q=x&per_page=30'"), "\(result.standard)")
        #expect(!(result.standard + result.error).contains("127.0.0.1:9/"), "\(result.standard)")
        #expect(result.error.contains("run the lesson without --offline: the demo service runs on this machine and needs no network"), "\(result.error)")
        #expect(!result.error.contains("--record-mode new"), "\(result.error)")
    }
}
