import DemoService
import Foundation
import HTTPTypes
import Testing
import TypedAPI

/// `RecordingTransport` keeps what went over the wire, and `replacingTransport(with:)` makes a client
/// like another on it: what `:curl` previews use, and the first half of record/replay.
@Suite("Recording transport")
struct RecordingTransportTests {
    @Test("Forwarding: each real exchange is kept as it went, on every transport", arguments: TransportChoice.allCases)
    func forwarding(_ choice: TransportChoice) async throws {
        try await withDemoServer(choice) { client, _ in
            let recorder = RecordingTransport(forwardingTo: client.transport)
            let recording = client.replacingTransport(with: recorder)
            let post = try await recording.send(Endpoint.post(id: 3))
            #expect(post.id == 3)
            let created = try await recording.send(Endpoint.createPost(userId: 1, title: "t", body: "b"))
            #expect(created.title == "t")
            let exchanges = recorder.exchanges
            #expect(exchanges.map(\.method) == ["GET", "POST"])
            #expect(exchanges.map(\.path) == ["/posts/3", "/posts"])
            #expect(exchanges[1].requestBody.map { String(decoding: $0, as: UTF8.self) }?.contains(#""title":"t""#) == true)
            #expect(exchanges[0].status == 200)
            #expect(exchanges[0].responseHeaders.value(named: "content-type")?.hasPrefix("application/json") == true)
            #expect(try JSONDecoder().decode(Post.self, from: exchanges[0].responseBody).id == 3)
            #expect(exchanges.allSatisfy { $0.failure == nil && $0.duration >= .zero })
        }
    }

    @Test("Answering: nothing leaves the process, the request is kept, a failure too")
    func answering() async throws {
        let recorder = RecordingTransport { request, _ in
            if request.path?.hasSuffix("/posts/9") == true { throw TransportFailure(.connectionRefused, detail: "no") }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                    Data(#"{"userId":1,"id":1,"title":"sample","body":""}"#.utf8))
        }
        // Port 9 (discard) on loopback: a request that reached the network would fail.
        var configuration = APIClient.Configuration()
        configuration.headers = [.custom(name: "X-Team", value: "blue")]
        let session = APIClient(environment: try ServerEnvironment(url: "http://127.0.0.1:9/v1"), transport: URLSessionTransport(),
                                configuration: configuration)
        session.timeout = .seconds(7)
        let client = session.replacingTransport(with: recorder)
        #expect(try await client.send(Endpoint.post(id: 1)).title == "sample")
        await #expect(throws: APIError.self) { try await client.send(Endpoint.post(id: 9)) }
        let exchanges = recorder.exchanges
        #expect(exchanges.count == 2)
        // The client it was made from: its environment (with the prefix), headers and time limit.
        #expect(exchanges[0].url == "http://127.0.0.1:9/v1/posts/1")
        #expect(exchanges[0].path == "/v1/posts/1")
        #expect(exchanges[0].requestHeaders.value(named: "x-team") == "blue")
        #expect(client.timeout == .seconds(7))
        guard let failure = exchanges[1].failure, exchanges[1].status == nil else {
            Issue.record("expected the failure to be kept")
            return
        }
        #expect(failure.kind == .connectionRefused)
        recorder.removeAll()
        #expect(recorder.exchanges.isEmpty)
    }
}
