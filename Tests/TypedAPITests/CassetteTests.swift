import DemoService
import FaultServer
import Foundation
import HTTPTypes
import Testing
@testable import TypedAPI
import TypedAPICurl

/// Record real exchanges into a HAR cassette, replay them with no server, and never write a secret.
@Suite("Cassettes: record and replay", .timeLimit(.minutes(10)))
struct CassetteTests {
    private func temporaryPath(_ name: String = "cassette.har") throws -> (String, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typist-cassette-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder.appendingPathComponent(name).path, folder)
    }

    /// Every call the session makes, with each kind of credential; returns what it read, and the
    /// token the login answered with.
    private func session(_ client: APIClient) async throws -> (values: [String], token: String) {
        let posts = try await client.send(Endpoint.posts)
        let third = try await client.send(Endpoint.post(id: 3))
        let again = try await client.send(Endpoint.post(id: 3))
        let created = try await client.send(Endpoint.createPost(userId: 1, title: "Recorded", body: "in a cassette"))
        let login = try await client.send(Endpoint.login(user: "ada", password: "lovelace"))
        let issued = try await client.send(Endpoint.issueToken, with: BasicCredentials(username: "ada", password: "lovelace"))
        let results = try await client.send(Endpoint.search(query: "swift"), with: AccessToken(login.token))
        return (["\(posts.count)", third.title, again.title, created.title, "\(results.total)", "\(issued.expiresIn)"],
                login.token)
    }

    @Test("A stream is recorded as it is read (whole, or as far as its reader went) and replayed with no server",
          arguments: TransportChoice.allCases)
    func streams(_ choice: TransportChoice) async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (whole, firstTwo) = try await withDemoServer(choice) { client, _ in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: client.transport)
            let recording = client.replacingTransport(with: cassette)
            var whole: [BuildEvent] = []
            // Labelled where it is made: the label goes with the stream to each connection.
            let labelled = recording.stream(Endpoint.events(count: 5), context: CallContext(label: ExchangeLabel(endpoint: "events")))
            for try await event in labelled { whole.append(event) }
            var firstTwo: [BuildEvent] = []
            for try await event in recording.stream(Endpoint.events(count: 10_000)) {
                firstTwo.append(event)
                if firstTwo.count == 2 { break }
            }
            // The reader left: the exchange is kept once its chunks are let go.
            while cassette.recordedExchanges.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
            try cassette.save()
            return (whole, firstTwo)
        }
        #expect(whole == (1...5).map(BuildEvent.number))
        // Each exchange names its item type; the first, its endpoint too.
        #expect(try Cassette(contentsOf: path).entries.map(\.label) == [ExchangeLabel(endpoint: "events", responseType: "BuildEvent"),
                                                                         ExchangeLabel(responseType: "BuildEvent")])
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        var replayed: [BuildEvent] = []
        for try await event in offline.stream(Endpoint.events(count: 5)) { replayed.append(event) }
        #expect(replayed == whole)
        var partial: [BuildEvent] = []
        for try await event in offline.stream(Endpoint.events(count: 10_000)) { partial.append(event) }
        #expect(Array(partial.prefix(2)) == firstTwo)
        #expect(partial.count < 10_000)
        #expect(replaying.missCount == 0)
    }

    // Not URLSession: the fault server's stream is close-delimited (README, Streams: URLSession).
    @Test("A stream left inside a line is kept up to its last whole line: the replay reads the items the reader could, no broken one",
          arguments: [StreamingTransport.curl, .asyncHTTPClient])
    func streamLeftInsideALine(_ transport: StreamingTransport) async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FaultServer(FaultStreams.linesCutShort())
        defer { server.stop() }
        let lines = Endpoint<Public, BuildEvent>(path: "/lines")
        try await transport.withClient(server.baseURL) { client in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: client.transport)
            var seen: [Int] = []
            for try await event in client.replacingTransport(with: cassette).stream(lines) {
                seen.append(event.n)
                if seen.count == 2 { break }
            }
            #expect(seen == [1, 2])
            // The reader left: the exchange is kept once its chunks are let go.
            while cassette.recordedExchanges.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            try cassette.save()
        }
        let recorded = String(decoding: try Cassette(contentsOf: path).entries[0].responseBody, as: UTF8.self)
        let whole = FaultStreams.linesCutShortBody
        let lastLineEnd = try #require(whole.lastIndex(of: "\n"))
        #expect(recorded == String(whole[...lastLineEnd]))
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                transport: try CassetteTransport(path: path, mode: .none, forwardingTo: nil))
        var replayed: [Int] = []
        for try await event in offline.stream(lines) { replayed.append(event.n) }
        #expect(replayed == [1, 2])
    }

    // Not URLSession: under load, FoundationNetworking may end a task whose connection dropped
    // without handing over the bytes that came just before (README, Streams: URLSession).
    @Test("A stream whose connection drops is replayed to the same failure after the same items; an event stream takes up again from its recorded reconnections",
          arguments: [TransportChoice.curl, .asyncHTTPClient])
    func streamThatFails(_ transport: TransportChoice) async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let offline = { (path: String) in
            APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                      transport: try CassetteTransport(path: path, mode: .none, forwardingTo: nil))
        }
        /// The items a stream gives, and the transport failure it ends with.
        func read(_ stream: ItemStream<BuildEvent>) async -> ([Int], TransportFailure?) {
            var items: [Int] = []
            do {
                for try await event in stream { items.append(event.n) }
            } catch {
                guard case .transport(_, let failure) = error as? APIError else {
                    Issue.record("not a transport failure: \(error)")
                    return (items, nil)
                }
                return (items, failure)
            }
            return (items, nil)
        }

        // JSON Lines, whose connection closes before the length it promised: no reconnection.
        let server = try FaultServer(FaultStreams.linesThenClose())
        defer { server.stop() }
        let lines = Endpoint<Public, BuildEvent>(path: "/lines")
        let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: transport.make())
        let live = await read(APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: cassette).stream(lines))
        try cassette.save()
        let failure = try #require(live.1)
        #expect(live.0 == [1, 2])
        let entry = try #require(try Cassette(contentsOf: path).entries.first)
        #expect(entry.status == 200)
        #expect(entry.interruption?.kind == failure.kind && entry.interruption?.detail == failure.detail)
        let replayed = await read(try offline(path).stream(lines))
        #expect(replayed.0 == [1, 2])
        #expect(replayed.1?.kind == failure.kind && replayed.1?.detail == failure.detail)
        // Asked for whole, the cut answer is its failure (not its part, read as if it were all).
        do {
            _ = try await offline(path).send(Endpoint<Public, String>(path: "/lines"))
            Issue.record("the whole of a cut answer was read")
        } catch {
            guard case .transport(_, let whole) = error as? APIError else { throw error }
            #expect(whole.kind == failure.kind && whole.detail == failure.detail)
        }

        // Server-sent events cut after every second event: each cut, and the reconnection after
        // it (with Last-Event-ID), recorded; the replay reconnects as the live stream did.
        let cut = Endpoint<Public, BuildEvent>(.get(query: [URLQueryItem(name: "count", value: "7"), URLQueryItem(name: "disconnectAfter", value: "2"),
                                                            URLQueryItem(name: "retryMs", value: "10")]), path: "/events")
        let eventsPath = folder.appendingPathComponent("events.har").path
        let items = try await withDemoServer(transport) { client, _ in
            let cassette = try CassetteTransport(path: eventsPath, mode: .all, forwardingTo: client.transport)
            let (items, failure) = await read(client.replacingTransport(with: cassette).stream(cut))
            #expect(failure == nil)
            try cassette.save()
            return items
        }
        #expect(items == Array(1...7))
        let entries = try Cassette(contentsOf: eventsPath).entries
        #expect(entries.count == 4)
        #expect(entries.map { $0.interruption != nil } == [true, true, true, false])
        #expect(entries.map { $0.requestHeaders.first { $0.name.lowercased() == "last-event-id" }?.value } == [nil, "2", "4", "6"])
        let reconnecting = try offline(eventsPath)
        let again = await read(reconnecting.stream(cut))
        #expect(again.0 == Array(1...7))
        #expect(again.1 == nil)

        // A recording that ends with a cut (the reconnection after it was not recorded): the
        // replay does not take the cut answer again for the reconnection (its events again, and
        // the cut again, for ever), it says what is missing.
        var cutShort = try Cassette(contentsOf: eventsPath)
        cutShort.entries.removeLast(3)
        try cutShort.write(to: eventsPath)
        var seen: [Int] = []
        var error: (any Error)?
        do {
            for try await event in try offline(eventsPath).stream(cut) {
                seen.append(event.n)
                if seen.count == 10 { break }
            }
        } catch let failure {
            error = failure
        }
        #expect(seen == [1, 2])
        #expect("\(error.map { "\($0)" } ?? "no error")".contains("it takes up the event stream again after event '2', and the recording ends before that reconnection"),
                "\(String(describing: error))")
    }

    // Not URLSession: under load, FoundationNetworking may hold the bytes that came just before a
    // pause in a close-delimited stream (README, Streams: URLSession).
    @Test("A stream that stalls past the client's limit replays its items, then the same time-out (not an end); one never answered, the time-out",
          arguments: [TransportChoice.curl, .asyncHTTPClient])
    func streamThatStalls(_ transport: TransportChoice) async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FaultServer(FaultStreams.stall(after: 2))
        defer { server.stop() }
        // The limit is long enough for two events to arrive on a busy machine, whatever the transport.
        let events = Endpoint<Public, BuildEvent>(path: "/events").timeout(.seconds(2))
        func read(_ client: APIClient) async -> ([Int], APIError?) {
            var items: [Int] = []
            do {
                for try await event in client.stream(events) { items.append(event.n) }
            } catch {
                return (items, error as? APIError)
            }
            return (items, nil)
        }
        let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: transport.make())
        let live = await read(APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: cassette))
        try cassette.save()
        #expect(live.0 == [1, 2])
        guard case .timedOut(_, let limit)? = live.1 else {
            Issue.record("not a time-out: \(String(describing: live.1))")
            return
        }
        #expect(limit == .seconds(2))
        #expect(try Cassette(contentsOf: path).entries.first?.interruption?.kind == .timedOut)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                transport: try CassetteTransport(path: path, mode: .none, forwardingTo: nil))
        let replayed = await read(offline)
        #expect(replayed.0 == [1, 2])
        guard case .timedOut(_, let replayedLimit)? = replayed.1 else {
            Issue.record("not a time-out: \(String(describing: replayed.1))")
            return
        }
        #expect(replayedLimit == .seconds(2))

        // No answer at all within the limit: the time-out is recorded as the exchange's failure.
        let silent = try FaultServer { connection in try connection.waitForClose() }
        defer { silent.stop() }
        let silentPath = folder.appendingPathComponent("silent.har").path
        let recording = try CassetteTransport(path: silentPath, mode: .all, forwardingTo: transport.make())
        let unanswered = await read(APIClient(environment: try ServerEnvironment(url: silent.baseURL), transport: recording))
        try recording.save()
        #expect(unanswered.0.isEmpty)
        guard case .timedOut? = unanswered.1 else {
            Issue.record("not a time-out: \(String(describing: unanswered.1))")
            return
        }
        let recorded = try #require(try Cassette(contentsOf: silentPath).entries.first)
        guard case .failure(let failure) = recorded.outcome else {
            Issue.record("not recorded as a failure: \(recorded.outcome)")
            return
        }
        #expect(failure.kind == .timedOut)
        let replaying = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"),
                                  transport: try CassetteTransport(path: silentPath, mode: .none, forwardingTo: nil))
        guard case .timedOut(_, let silentLimit)? = await read(replaying).1 else {
            Issue.record("the replay is not a time-out")
            return
        }
        #expect(silentLimit == .seconds(2))
    }

    @Test("The failure that cut a stream is written without the secrets it names, as a failure's is")
    func interruptionMasked() throws {
        var redactor = CassetteRedactor()
        redactor.learn(["tok-5e6f7a8b"])
        let entry = Cassette.Entry(started: Date(), duration: .zero, method: "GET", url: "http://127.0.0.1:9/events", requestHeaders: [],
                                   requestBody: nil, outcome: .response(status: 200, reason: "OK", headers: [], body: Data()),
                                   interruption: TransportFailure(.connectionClosed, detail: "the proxy closed tok-5e6f7a8b's stream"))
        #expect(redactor.redact(entry).interruption?.detail == "the proxy closed ••••'s stream")
    }

    @Test("A replayed body over the limit is refused as the live transport would refuse it, whole and as a stream")
    func replayKeepsTheBodyLimit() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Data(repeating: UInt8(ascii: "a"), count: 4096)
        let entry = Cassette.Entry(started: Date(), duration: .zero, method: "GET", url: "http://127.0.0.1:9/big", requestHeaders: [],
                                   requestBody: nil, outcome: .response(status: 200, reason: "OK", headers: [], body: body))
        try Cassette(entries: [entry]).write(to: path, creator: ("test", "1"))
        var request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:9", path: "/big")
        request.headerFields[.accept] = "*/*"
        let roomy = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        #expect(roomy.maximumResponseSize == 256 << 20)
        #expect(try await roomy.send(request, body: nil, timeout: .seconds(5)).1 == body)
        let tight = try CassetteTransport(path: path, mode: .none, forwardingTo: nil, maximumResponseSize: 1024)
        let whole = await #expect(throws: TransportFailure.self) { try await tight.send(request, body: nil, timeout: .seconds(5)) }
        #expect(whole?.kind == .responseTooLarge)
        #expect(whole?.detail == "the recorded body is 4096 bytes, over the limit of 1024 bytes", "\(String(describing: whole))")
        let streamed = await #expect(throws: TransportFailure.self) {
            _ = try await tight.stream(request, body: nil, idleTimeout: .seconds(5), tls: .system)
        }
        #expect(streamed?.kind == .responseTooLarge)
    }

    @Test("A secret with + / $ ? = in it is masked in every encoding, in a URL that also has a secret-named query item, and in the HAR's queryString")
    func secretsWithPunctuation() throws {
        let secret = "p+s/w$?=rd&x"
        var redactor = CassetteRedactor()
        redactor.learn([secret])
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let plus = "p%2Bs%2Fw%24%3F%3Drd%26x"
        for url in ["http://127.0.0.1:9/items?api_key=k-1234&q=\(encoded)", "http://127.0.0.1:9/items?q=\(plus)&api_key=k-1234",
                    "http://127.0.0.1:9/items?q=\(encoded)"] {
            let entry = Cassette.Entry(started: Date(), duration: .zero, method: "GET", url: url, requestHeaders: [],
                                       requestBody: nil, outcome: .response(status: 200, reason: "OK", headers: [], body: Data()))
            let redacted = redactor.redact(entry)
            let items = URLComponents(string: redacted.url)?.queryItems ?? []
            #expect(!items.contains { $0.value == secret }, "\(redacted.url)")
            #expect(items.first { $0.name == "q" }?.value == "••••", "\(redacted.url)")
            let file = Cassette(entries: [redacted]).har()
            let text = String(decoding: file, as: UTF8.self)
            #expect(!text.contains("w$?=rd") && !text.contains("w%24%3F%3Drd") && !text.contains("%2Fw%24"), "\(text)")
        }
    }

    @Test("Recorded through each transport, replayed with no server under another base URL, the same values",
          arguments: TransportChoice.allCases)
    func recordAndReplay(_ choice: TransportChoice) async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (live, token) = try await withDemoServer(choice) { client, _ in
            let cassette = try CassetteTransport(path: path, mode: .once, forwardingTo: client.transport)
            #expect(cassette.records)
            cassette.addSecrets(["lovelace"])
            let recording = client.replacingTransport(with: cassette)
            let values = try await session(recording)
            try cassette.save()
            #expect(cassette.recordedExchanges.count == 7)
            return values
        }
        // The server is gone; nothing listens on port 9.
        let replaying = try CassetteTransport(path: path, mode: .once, forwardingTo: nil)
        #expect(!replaying.records)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        let replayed = try await session(offline)
        #expect(replayed.values == live)
        #expect(replayed.token == "••••")
        #expect(replaying.missCount == 0)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""version" : "1.2""#))
        var attributes = stat()
        #expect(stat(path, &attributes) == 0 && attributes.st_mode & 0o777 == 0o600)
        // No secret in any form: the password (as sent in a body, and inside Basic's base64) and
        // the token the login answered with (recorded in its response, sent as a bearer token).
        let basic = Data("ada:lovelace".utf8).base64EncodedString()
        #expect(token.count >= 8)
        for secret in ["lovelace", basic, token] {
            #expect(!text.contains(secret), "\(secret) is in the cassette")
        }
        let har = try Cassette(contentsOf: path)
        #expect(har.entries.map(\.method) == ["GET", "GET", "GET", "POST", "POST", "GET", "GET"])
        #expect(har.entries[0].label?.responseType == "Array<Post>")
        let search = try #require(har.entries.last)
        #expect(search.requestHeaders.contains { $0.name.lowercased() == "authorization" && $0.value == "Bearer ••••" })
        #expect(search.redactions.contains { $0.lowercased() == "authorization" })
        #expect(har.entries[4].redactions.contains("request body"))
        #expect(har.entries[4].redactions.contains("response body"))
    }

    @Test("Replay only: a request that matches nothing is refused, naming the nearest and how it differs")
    func miss() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withDemoServer(.curl) { client, _ in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: client.transport)
            // Recorded first, and as far from GET /posts/4 by count of differences (the path
            // alone): the nearest is the one of the same shape.
            _ = try await client.replacingTransport(with: cassette).send(Endpoint<Public, Data>(path: "/debug/headers"))
            _ = try await client.replacingTransport(with: cassette).send(Endpoint.post(id: 3))
            try cassette.save()
        }
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        let error = await expectAPIError { try await offline.send(Endpoint.post(id: 4)) }
        let text = String(describing: error)
        #expect(text.contains("no recorded exchange"), "\(text)")
        #expect(text.contains("nearest: GET /posts/3"), "\(text)")
        #expect(text.contains("path /posts/4, recorded /posts/3"), "\(text)")
        #expect(replaying.missCount == 1)
        // Replaying only needs no transport; recording does.
        #expect(throws: CassetteError.self) { try CassetteTransport(path: path + ".new", mode: .new, forwardingTo: nil) }
    }

    @Test("Mode new appends what did not match; mode all starts again")
    func modes() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withDemoServer(.curl) { client, _ in
            func run(_ mode: CassetteTransport.Mode, _ ids: [Int]) async throws {
                let cassette = try CassetteTransport(path: path, mode: mode, forwardingTo: client.transport)
                for id in ids { _ = try await client.replacingTransport(with: cassette).send(Endpoint.post(id: id)) }
                try cassette.save()
            }
            try await run(.once, [1])
            try await run(.new, [1, 2])
            #expect(try Cassette(contentsOf: path).entries.map(\.path) == ["/posts/1", "/posts/2"])
            try await run(.all, [5])
            #expect(try Cassette(contentsOf: path).entries.map(\.path) == ["/posts/5"])
            // once, with the file there: replay only.
            let once = try CassetteTransport(path: path, mode: .once, forwardingTo: client.transport)
            #expect(once.mode == .none)
        }
        #expect(CassetteTransport.Mode.default(environment: ["CI": "true"]) == .none)
        #expect(CassetteTransport.Mode.default(environment: [:]) == .once)
    }

    @Test("Identical requests replay in recorded order, then the last one again")
    func order() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let create = Endpoint.createPost(userId: 1, title: "same", body: "same")
        let recorded = try await withDemoServer(.curl) { client, _ in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: client.transport)
            let recording = client.replacingTransport(with: cassette)
            var ids: [Int] = []
            for _ in 0..<3 { ids.append(try await recording.send(create).id) }
            try cassette.save()
            return ids
        }
        #expect(Set(recorded).count == 3, "the service gives each new post its own id: \(recorded)")
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        var replayed: [Int] = []
        for _ in 0..<4 { replayed.append(try await offline.send(create).id) }
        #expect(replayed == recorded + [recorded[2]])
    }

    @Test("Query items in any order, JSON bodies as JSON, masked values as any value; the host does not count")
    func matching() throws {
        let entry = Cassette.Entry(
            started: Date(), duration: .zero, method: "POST", url: "http://recorded:8080/v1/items?b=2&a=1&key=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2",
            requestHeaders: [], requestBody: Data(#"{"name":"x","password":"••••","tags":[1,2]}"#.utf8),
            outcome: .response(status: 200, reason: "OK", headers: [], body: Data()))
        let recorded = CassetteMatching.Parts(method: entry.method, url: entry.url, body: entry.requestBody)
        func differences(_ url: String, _ body: String, _ matching: CassetteMatching = .default) -> [String] {
            matching.differences(CassetteMatching.Parts(method: "POST", url: url, body: Data(body.utf8)), from: recorded)
        }
        #expect(differences("https://elsewhere/v1/items?a=1&key=real&b=2", #"{ "tags": [1, 2], "password": "hunter22", "name": "x" }"#).isEmpty)
        #expect(differences("http://x/v1/items?a=1&key=k&b=3", #"{"name":"x","password":"p","tags":[1,2]}"#)
            == ["query b=3, recorded b=2"])
        #expect(differences("http://x/v1/items?a=1&key=k&b=2", #"{"name":"y","password":"p","tags":[1,2]}"#)
            == ["body differs at $.name"])
        #expect(!differences("https://elsewhere/v1/items?a=1&key=k&b=2", #"{"name":"x","password":"p","tags":[1,2]}"#,
                             [.method, .host, .path]).isEmpty)
    }

    @Test("A reset, a time-out and a 5xx are recorded, and replayed as the same errors")
    func faults() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FaultServer { connection in
            let request = connection.requestHead
            if request.contains("/reset") {
                try connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
                connection.reset()
            } else if request.contains("/stall") {
                try connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
                try connection.pause(300)
            } else {
                try connection.send("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            }
        }
        defer { server.stop() }
        let endpoints = ["/reset", "/stall", "/busy"].map { Endpoint<Public, Post>(path: $0) }
        func outcomes(_ client: APIClient) async -> [String] {
            var seen: [String] = []
            for endpoint in endpoints {
                let error = await expectAPIError { try await client.send(endpoint) }
                switch error {
                case .transport(_, let failure)?: seen.append("transport \(failure.kind)")
                case .timedOut?: seen.append("timed out")
                case .unacceptableStatus(_, let response)?: seen.append("status \(response.status)")
                default: seen.append(String(describing: error))
                }
            }
            return seen
        }
        let recorded = try await CurlTransport.withOwnEngine { curl, _ in
            let cassette = try CassetteTransport(path: path, mode: .all, forwardingTo: curl)
            let client = APIClient(environment: try ServerEnvironment(url: server.baseURL), transport: cassette,
                                   configuration: .init(timeout: .seconds(2)))
            let seen = await outcomes(client)
            try cassette.save()
            return seen
        }
        #expect(recorded == ["transport connectionClosed", "timed out", "status 503"])
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let offline = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        #expect(await outcomes(offline) == recorded)
    }

    @Test("A hand-edited cassette with a status that is not HTTP, bad base64 and a header with a line break replays without a crash")
    func hostile() async throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        func entry(_ url: String, status: Int, content: String) -> String {
            """
            {"startedDateTime": "yesterday", "time": -1e300, "request": {"method": "GET", "url": "\(url)", "headers": [],
             "queryString": [], "bodySize": 0}, "response": {"status": \(status), "statusText": "x\\r\\ny",
             "headers": [{"name": "X-Bad", "value": "a\\r\\nInjected: 1"}, {"name": "bad name", "value": "v"}],
             "content": \(content), "bodySize": 3}, "timings": {"wait": 0}}
            """
        }
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
            \(entry("http://h/a", status: 70000, content: #"{"size": 3, "mimeType": "text/plain", "text": "abc"}"#)),
            \(entry("http://h/b", status: 200, content: #"{"size": 3, "mimeType": "application/json", "text": "%%%", "encoding": "base64"}"#))
            ]}}
            """
        try Data(har.utf8).write(to: URL(fileURLWithPath: path))
        let replaying = try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        let client = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9"), transport: replaying)
        let first = await expectAPIError { try await client.send(Endpoint<Public, Data>(path: "/a")) }
        guard case .transport(_, let failure)? = first else {
            Issue.record("expected a transport failure, got \(String(describing: first))")
            return
        }
        #expect(failure.detail.contains("status 70000"))
        // Undecodable base64 is kept as the text it is.
        #expect(try await client.send(Endpoint<Public, Data>(path: "/b")) == Data("%%%".utf8))
    }

    @Test("A file that is not HAR is one clear error")
    func notHAR() throws {
        let (path, folder) = try temporaryPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"log": {"entries": 3}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try CassetteTransport(path: path, mode: .none, forwardingTo: nil)
        } throws: { error in
            String(describing: error).contains("not a HAR file")
        }
    }
}
